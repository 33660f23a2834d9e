package io.strata.rule;

import io.strata.rule.sql.DigestText;
import io.strata.rule.sql.SqlStatementInfo;

/**
 * What routing remembers of one client session: who it is and where from (query rules match them), the session-level
 * read switch ({@code SET strata_read_from}) and when its last write completed (for read-your-writes). Rules read it;
 * the executor records the writes. Used on the session's event loop only.
 */
public final class SessionRouteState {

    /** Where the session's reads go: AUTO lets the rules decide; PRIMARY and REPLICA override them. */
    public enum ReadFrom { AUTO, PRIMARY, REPLICA }

    private String user = "";
    private String clientAddress = "";
    private ReadFrom readFrom = ReadFrom.AUTO;
    /** The digest text of the last statement asked for, and that statement: rules and statistics share one. */
    private SqlStatementInfo digested;
    private String digest;
    private long lastWriteNanos;
    private boolean wrote;

    /** Who logged in (again after COM_CHANGE_USER) and from which address (an IP address, or "localhost"). */
    public void login(String user, String clientAddress) {
        this.user = user;
        this.clientAddress = clientAddress;
        reset();
    }

    public String user() {
        return user;
    }

    public String clientAddress() {
        return clientAddress;
    }

    /**
     * The statement's digest text ({@link DigestText}), made once per statement however many ask (a query rule's
     * digest matcher, then the digest statistics): an execute's statement is the same object at every execute.
     */
    public String digest(SqlStatementInfo info) {
        if (info != digested) {
            digest = DigestText.of(info.sql());
            digested = info;
        }
        return digest;
    }

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
