package io.strata.backend.execute;

import io.strata.protocol.ServerStatus;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

/**
 * Whether a session's backend connections must stay with it after a statement, and its transaction: the server
 * status it last saw (IN_TRANS, AUTOCOMMIT...), state a statement left on the server (a user variable, a lock, a
 * temporary table), warnings or an error SHOW WARNINGS may still ask for, long data sent for the next execute, and
 * the statement that began its open transaction. Cursors are counted by {@link PreparedStatements}.
 */
public final class Pinning {

    private int statusFlags = ServerStatus.AUTOCOMMIT;
    private boolean holdsServerState;
    private boolean keepForWarnings;
    private boolean longDataPending;
    /** The statement that began the session's open transaction, which data sources it reaches later run first. */
    private String transactionStart = "START TRANSACTION";

    public int statusFlags() {
        return statusFlags;
    }

    public void statusFlags(int statusFlags) {
        // MORE_RESULTS and per-statement flags belong to one response, not to the session.
        this.statusFlags = statusFlags & (ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT
                | ServerStatus.IN_TRANS_READONLY | ServerStatus.NO_BACKSLASH_ESCAPES | ServerStatus.ANSI_QUOTES);
    }

    public boolean inTransaction() {
        return ServerStatus.has(statusFlags, ServerStatus.IN_TRANS);
    }

    public boolean autocommit() {
        return ServerStatus.has(statusFlags, ServerStatus.AUTOCOMMIT);
    }

    /** In a READ ONLY transaction. */
    public boolean inReadOnlyTransaction() {
        return (statusFlags & ServerStatus.IN_TRANS_READONLY) != 0;
    }

    /**
     * Follows what a statement left: its server status ({@code statusFlags} < 0: none seen), state it put on the
     * server, warnings or an error kept for SHOW WARNINGS, and how a transaction it began was begun.
     */
    public void after(int statusFlags, int warnings, SqlStatementInfo info, boolean failed) {
        if (statusFlags >= 0) {
            statusFlags(statusFlags);
        }
        if (info != null && info.pinsSession()) {
            holdsServerState = true;
        }
        // SHOW WARNINGS shows an error too, and GET DIAGNOSTICS reads it: both must find it where it happened. The
        // server keeps them through statements that raise nothing and read no table (SELECT 1, SET, COMMIT).
        keepForWarnings = warnings > 0 || failed || keepForWarnings && (info == null || !info.usesTable());
        if (info != null && info.kind() == SqlKind.BEGIN && !info.multiStatement() && !failed) {
            transactionStart = String.join(" ", info.tokens()); // START TRANSACTION READ ONLY, ... as the client said
        }
    }

    public void holdsServerState(boolean holds) {
        this.holdsServerState = holds;
    }

    public boolean holdsServerState() {
        return holdsServerState;
    }

    /** COM_STMT_SEND_LONG_DATA sent data that the next execute on the same backend connection will use. */
    public void longDataPending(boolean pending) {
        this.longDataPending = pending;
    }

    public boolean longDataPending() {
        return longDataPending;
    }

    /** Whether the last statement's warnings (or error) are kept for SHOW WARNINGS. */
    public boolean keepsWarnings() {
        return keepForWarnings;
    }

    /**
     * The statement that began the session's open transaction (BEGIN, START TRANSACTION READ ONLY...): a data
     * source the transaction reaches later joins it with the same.
     */
    public String transactionStart() {
        return transactionStart;
    }

    /** The backend connection holding the session's server state broke: that state (and any transaction) is gone. */
    public void lost() {
        longDataPending = false;
        statusFlags = ServerStatus.AUTOCOMMIT;
        holdsServerState = false;
        keepForWarnings = false;
    }
}
