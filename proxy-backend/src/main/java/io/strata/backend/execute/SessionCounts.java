package io.strata.backend.execute;

import io.strata.backend.relay.ResponseSummary;
import io.strata.rule.sql.SqlStatementInfo;

/**
 * What a session's own LAST_INSERT_ID(), ROW_COUNT() and FOUND_ROWS() read: its last statement's, which on a shared
 * server connection the server no longer knows (another session's statement ran there since). Where a statement
 * made the server the only one to know (LAST_INSERT_ID(expr), a CALL, SQL_CALC_FOUND_ROWS: they pin the session),
 * the pinned connection answers for them from then on.
 */
public final class SessionCounts {

    private long lastInsertId;
    /** Counts the changes of {@link #lastInsertId}, so a connection given one can be told from one given the latest. */
    private int lastInsertIdVersion;
    /**
     * The server connection last given the session's last insert id ({@link #lastInsertIdStatement}), during which of
     * its leases, and which version of the id: while the session holds it, statements there need not give it again.
     */
    private Object lastInsertIdHolder;
    private int lastInsertIdHolderLease;
    private int lastInsertIdHeldVersion;
    private boolean lastInsertIdOnServer;
    private long rowCount;
    private long foundRows;
    private boolean countsOnServer;

    public long lastInsertId() {
        return lastInsertId;
    }

    /** A statement generated {@code id} (0: none, the last one stands). */
    public void inserted(long id) {
        if (id != 0) {
            lastInsertId(id);
        }
    }

    /** Whether LAST_INSERT_ID() is answered by the session's server connection rather than by Strata. */
    public boolean lastInsertIdOnServer() {
        return lastInsertIdOnServer;
    }

    /** Whether ROW_COUNT() and FOUND_ROWS() are answered by the session's server connection rather than by Strata. */
    public boolean countsOnServer() {
        return countsOnServer;
    }

    /** A statement succeeded that leaves the server the only one to know the id or the counts. */
    public void after(SqlStatementInfo info, boolean failed) {
        if (info != null && info.setsLastInsertId() && !failed) {
            lastInsertIdOnServer = true;
        }
        if (info != null && info.hidesCounts()) {
            countsOnServer = true;
        }
    }

    /**
     * Whether a statement calling LAST_INSERT_ID() needs the server connection it runs on to be told the session's
     * last insert id first ({@link #lastInsertIdStatement}): on a shared connection the server's value is that of
     * whichever session inserted there last; not on the connection given the same id during the same lease.
     *
     * @param connection the runner's connection object
     * @param lease      how often the pool took that object back (0 where each borrow is a new object)
     */
    public boolean needsLastInsertId(SqlStatementInfo info, Object connection, int lease) {
        return info != null && info.readsLastInsertId() && !lastInsertIdOnServer
                && !(connection == lastInsertIdHolder && lease == lastInsertIdHolderLease
                && lastInsertIdVersion == lastInsertIdHeldVersion);
    }

    /** The connection ran {@link #lastInsertIdStatement} during {@code lease}: it holds the session's id. */
    public void lastInsertIdGiven(Object connection, int lease) {
        lastInsertIdHolder = connection;
        lastInsertIdHolderLease = lease;
        lastInsertIdHeldVersion = lastInsertIdVersion;
    }

    /** The statement giving a server connection this session's last insert id. */
    public String lastInsertIdStatement() {
        return "SET last_insert_id = " + Long.toUnsignedString(lastInsertId);
    }

    public long rowCount() {
        return rowCount;
    }

    public long foundRows() {
        return foundRows;
    }

    /**
     * Follows what ROW_COUNT() and FOUND_ROWS() read after a statement; either may be
     * {@link ResponseSummary#UNCHANGED} (a statement without a result set leaves FOUND_ROWS() as it was).
     */
    public void counted(long rowCount, long foundRows) {
        if (rowCount != ResponseSummary.UNCHANGED) {
            this.rowCount = rowCount;
        }
        if (foundRows != ResponseSummary.UNCHANGED) {
            this.foundRows = foundRows;
        }
    }

    /** COM_RESET_CONNECTION keeps FOUND_ROWS(), as the server does; a new login does not. */
    public void forgetFoundRows() {
        foundRows = 0;
    }

    /** The server connection that answered for the session broke: what it knew is gone. */
    public void lost() {
        lastInsertId(0);
        lastInsertIdOnServer = false;
        countsOnServer = false;
    }

    private void lastInsertId(long id) {
        lastInsertId = id;
        lastInsertIdVersion++;
    }
}
