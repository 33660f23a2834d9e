package io.strata.rule;

import io.strata.rule.health.DataSourceStatus;

/**
 * What routing remembers of one client session: the session-level read switch ({@code SET strata_read_from}), when
 * its last write completed (for read-your-writes), and the data source of the statement running now. Used on the
 * session's event loop only.
 */
public final class SessionRouteState {

    /** Where the session's reads go: AUTO lets the rules decide; PRIMARY and REPLICA override them. */
    public enum ReadFrom { AUTO, PRIMARY, REPLICA }

    private ReadFrom readFrom = ReadFrom.AUTO;
    private long lastWriteNanos;
    private boolean wrote;
    private DataSourceStatus running;
    private boolean runningWrite;

    public ReadFrom readFrom() {
        return readFrom;
    }

    public void readFrom(ReadFrom readFrom) {
        this.readFrom = readFrom;
    }

    /** Whether the session has written anything; then {@link #lastWriteNanos()} is meaningful. */
    public boolean wrote() {
        return wrote;
    }

    /** {@link System#nanoTime()} when the session's last write was answered. */
    public long lastWriteNanos() {
        return lastWriteNanos;
    }

    /** A rule sent the statement to {@code status}; {@code write}: it may change data. */
    public void routed(DataSourceStatus status, boolean write) {
        finishRunning();
        running = status;
        runningWrite = write;
        status.started(write);
    }

    /** The routed statement was answered (or failed): a write counts from now, as it is committed by now. */
    public void done() {
        if (running != null && runningWrite) {
            wrote = true;
            lastWriteNanos = System.nanoTime();
        }
        finishRunning();
    }

    /**
     * The data source of the routed statement could not be reached before anything was sent: it leaves the rotation
     * at once (the health monitor brings it back) and the statement may be routed again.
     */
    public void unreachable(DataSourceStatus status, String why) {
        status.down(why, status.lagSeconds());
        status.retried();
        finishRunning();
    }

    /** COM_RESET_CONNECTION and COM_CHANGE_USER: the session starts over. */
    public void reset() {
        readFrom = ReadFrom.AUTO;
        finishRunning();
    }

    private void finishRunning() {
        if (running != null) {
            running.finished();
            running = null;
            runningWrite = false;
        }
    }
}
