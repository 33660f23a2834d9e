package io.strata.rule;

/**
 * What routing remembers of one client session: the session-level read switch ({@code SET strata_read_from}) and
 * when its last write completed (for read-your-writes). Rules read it; the executor records the writes. Used on the
 * session's event loop only.
 */
public final class SessionRouteState {

    /** Where the session's reads go: AUTO lets the rules decide; PRIMARY and REPLICA override them. */
    public enum ReadFrom { AUTO, PRIMARY, REPLICA }

    private ReadFrom readFrom = ReadFrom.AUTO;
    private long lastWriteNanos;
    private boolean wrote;

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

    /** A statement that may change data was answered (or failed): it counts from now, as it is committed by now. */
    public void wroteAt(long nanos) {
        wrote = true;
        lastWriteNanos = nanos;
    }

    /** COM_RESET_CONNECTION and COM_CHANGE_USER: the session starts over. */
    public void reset() {
        readFrom = ReadFrom.AUTO;
    }
}
