package io.strata.backend.execute;

import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;

/**
 * What one client session expects of the server sessions that run its statements: what it negotiated, its database
 * and schema, character set, tracked variables, autocommit, the server status it last saw, its own last insert id
 * and counts, its prepared statements, and whether server-side state (a transaction, a user variable, a lock...)
 * ties it to its backend connections. The executors make each backend connection equal to it and follow what each
 * statement changes. Confined to the client channel's event loop (or the one thread running its statement), except
 * {@link #running()}, which KILL QUERY reads from other sessions.
 *
 * <p>Made of one part per concern, each tested alone: {@link PreparedStatements}, {@link SessionVariables} (the
 * character set and variables a connection is given), {@link Pinning} (the transaction and what keeps connections
 * with the session), {@link SessionCounts} (what LAST_INSERT_ID(), ROW_COUNT() and FOUND_ROWS() read). What stays
 * here is what the client negotiated, where the session is, and the current statement's answer.
 */
public final class SessionState {

    /** Stops a running statement (KILL QUERY). */
    @FunctionalInterface
    public interface Cancel {
        CompletableFuture<Void> cancel();
    }

    private final long connectionId;
    private int capabilities;
    private int mariaDbCapabilities;
    private String database;
    /** A backend schema the session USEd in place of its logical database's own (exposeSchemas), else null. */
    private String schema;
    private boolean multiStatements;
    private final PreparedStatements statements = new PreparedStatements();
    private final SessionVariables variables = new SessionVariables();
    private final Pinning pinning = new Pinning();
    private final SessionCounts counts = new SessionCounts();
    private volatile Cancel running;
    /** The error a statement Strata interrupted (a query rule's timeout) ends with, in place of the server's. */
    private volatile ErrPacket interruption;
    /** What the current statement's answer said (digests, the slow log): rows sent and affected, warnings, failed. */
    private long answerRows;
    private long answerAffected;
    private int answerWarnings;
    private boolean answerFailed;

    /** @param connectionId the client connection's id (CONNECTION_ID()), for logs */
    public SessionState(long connectionId) {
        this.connectionId = connectionId;
    }

    /** After authentication (and again after COM_CHANGE_USER). */
    public void login(int capabilities, int mariaDbCapabilities, int collationId) {
        this.capabilities = capabilities;
        this.mariaDbCapabilities = mariaDbCapabilities;
        variables.login(collationId);
        use(null, null); // the connection phase chooses one next, if the client asked for one
        this.multiStatements = Capabilities.has(capabilities, Capabilities.CLIENT_MULTI_STATEMENTS);
        counts.forgetFoundRows(); // COM_RESET_CONNECTION keeps it, as the server does
        resetState();
    }

    /** COM_RESET_CONNECTION / COM_CHANGE_USER: back to a fresh session (the pinned connection is dealt with first). */
    public void resetState() {
        variables.reset();
        statements.clear(); // like the server: a reset closes the session's prepared statements
        counts.counted(0, ResponseSummary.UNCHANGED); // the reset's OK, as the server counts it (ProtocolIT, MySql8IT)
        lostServerState();
    }

    public PreparedStatements statements() {
        return statements;
    }

    public SessionVariables sessionVariables() {
        return variables;
    }

    public Pinning pinning() {
        return pinning;
    }

    public SessionCounts counts() {
        return counts;
    }

    /** The tracked session variables this session set, by lower-case name, with the values the server reported. */
    public Map<String, String> variables() {
        return variables.variables();
    }

    /** A fresh statement id for COM_STMT_PREPARE (ids are never reused within a session). */
    public int nextStatementId() {
        return statements.nextId();
    }

    public void prepared(PreparedStatement statement) {
        statements.prepared(statement);
    }

    /** A prepare failed: like any failed statement, it leaves ROW_COUNT() at -1 (RandomSessionIT). */
    public void prepareFailed() {
        statements.prepareFailed();
        counts.counted(-1, ResponseSummary.UNCHANGED);
    }

    /** The statement with this id; MariaDB's id 0xFFFFFFFF means the last one prepared. Null when unknown. */
    public PreparedStatement statement(long id) {
        return statements.get(id);
    }

    public void closeStatement(PreparedStatement statement) {
        statements.close(statement);
    }

    /** COM_STMT_SEND_LONG_DATA sent data that the next execute on the same backend connection will use. */
    public void longDataPending(boolean pending) {
        pinning.longDataPending(pending);
    }

    public void cursor(PreparedStatement statement, boolean open) {
        statements.cursor(statement, open);
    }

    /** The backend connection holding this session's server state broke: that state (and any transaction) is gone. */
    public void lostServerState() {
        statements.cursorsLost();
        pinning.lost();
        counts.lost();
    }

    public long connectionId() {
        return connectionId;
    }

    public int capabilities() {
        return capabilities;
    }

    public boolean deprecateEof() {
        return (capabilities & Capabilities.CLIENT_DEPRECATE_EOF) != 0; // a constant: per command, no call
    }

    /** The capability bits a backend connection must share with this client. */
    public int flavor() {
        return capabilities & Capabilities.FLAVOR_MASK
                | (extendedTypeInfo() ? Capabilities.FLAVOR_EXTENDED_TYPE_INFO : 0);
    }

    public boolean extendedTypeInfo() {
        return (mariaDbCapabilities & Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO) != 0; // per command: no call
    }

    public int mariaDbCapabilities() {
        return mariaDbCapabilities;
    }

    /** The session's character set (without the collation of a {@code SET NAMES x COLLATE y}). */
    public String charset() {
        return variables.charset();
    }

    /** What SET NAMES takes to give a connection the session's character set: {@code x} or {@code x COLLATE y}. */
    public String names() {
        return variables.names();
    }

    /** SET NAMES: the server sets character_set_results and collation_connection with it. */
    public void names(String names) {
        variables.names(names);
    }

    /** See {@link SessionVariables#resultsCollation()}. */
    public int resultsCollation() {
        return variables.resultsCollation();
    }

    /** The logical database the session is in, or null before it chose one. */
    public String database() {
        return database;
    }

    /**
     * The backend schema its statements run in when not its data sources' own: one the session USEd that is no
     * logical database, in a logical database that exposes its backend schemas. Null otherwise.
     */
    public String schema() {
        return schema;
    }

    /**
     * A statement ran on a backend of {@code database} and succeeded. After a single USE (Strata sends one to a
     * backend only for a schema of a database that exposes them) the session is in that schema. After a DROP
     * DATABASE of the schema it was in, it is back in its logical database's own (the server would leave it in
     * none, which a pooled connection cannot be given back).
     */
    public void ranOnBackend(String database, SqlStatementInfo info) {
        if (info == null) {
            return;
        }
        if (info.kind() == SqlKind.USE && !info.multiStatement()) {
            use(database, SqlClassifier.unquote(info.token(1)));
        } else if (schema != null && schema.equals(info.droppedSchema())) {
            use(this.database, null);
        }
    }

    /** What {@code SELECT DATABASE()} says: the schema the session USEd, else its logical database (or null). */
    public String databaseShown() {
        return schema != null ? schema : database;
    }

    /**
     * USE: the session is in the logical database {@code database}, on its data sources' own schemas
     * ({@code schema} null) or on another schema of theirs. The name is interned: every statement looks its
     * database's rule chain up by it, and the lookup then finds the configuration's own String by identity instead
     * of comparing a session's copy byte by byte.
     */
    public void use(String database, String schema) {
        this.database = database == null ? null : canonical(database);
        this.schema = schema;
    }

    /**
     * Database names as {@link String#intern()} has them, looked up in a map of their own: cheaper than the JVM's
     * string table for every session that starts (an embedded connection is a session). A client's USE of
     * arbitrary names cannot grow it past a bound.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> CANONICAL =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static String canonical(String database) {
        String known = CANONICAL.get(database);
        if (known == null) {
            known = database.intern();
            if (CANONICAL.size() < 1024) {
                CANONICAL.put(known, known);
            }
        }
        return known;
    }

    public boolean multiStatements() {
        return multiStatements;
    }

    public void multiStatements(boolean on) {
        this.multiStatements = on;
    }

    public int statusFlags() {
        return pinning.statusFlags();
    }

    /** Whether the server refuses writes now: in a READ ONLY transaction, or with the session's set read-only. */
    public boolean readOnly() {
        return pinning.inReadOnlyTransaction() || variables.readOnly();
    }

    public void statusFlags(int statusFlags) {
        pinning.statusFlags(statusFlags);
    }

    public boolean inTransaction() {
        return pinning.inTransaction();
    }

    public boolean autocommit() {
        return pinning.autocommit();
    }

    public long lastInsertId() {
        return counts.lastInsertId();
    }

    /** Whether LAST_INSERT_ID() is answered by the session's server connection rather than by Strata. */
    public boolean lastInsertIdOnServer() {
        return counts.lastInsertIdOnServer();
    }

    /** See {@link SessionCounts#needsLastInsertId}. */
    public boolean needsLastInsertId(SqlStatementInfo info, Object connection, int lease) {
        return counts.needsLastInsertId(info, connection, lease);
    }

    /** The connection ran {@link #lastInsertIdStatement} during {@code lease}: it holds the session's id. */
    public void lastInsertIdGiven(Object connection, int lease) {
        counts.lastInsertIdGiven(connection, lease);
    }

    /** The statement giving a server connection this session's last insert id. */
    public String lastInsertIdStatement() {
        return counts.lastInsertIdStatement();
    }

    public long rowCount() {
        return counts.rowCount();
    }

    public long foundRows() {
        return counts.foundRows();
    }

    /** Whether ROW_COUNT() and FOUND_ROWS() are answered by the session's server connection rather than by Strata. */
    public boolean countsOnServer() {
        return counts.countsOnServer();
    }

    /** {@link #counted(long, long)} after {@code info}: SHOW WARNINGS leaves FOUND_ROWS() (ProtocolIT, MySql8IT). */
    public void counted(SqlStatementInfo info, long rowCount, long foundRows) {
        counted(rowCount, info != null && info.diagnostic() ? ResponseSummary.UNCHANGED : foundRows);
    }

    /**
     * Follows what ROW_COUNT() and FOUND_ROWS() read after a statement; either may be
     * {@link ResponseSummary#UNCHANGED} (a statement without a result set leaves FOUND_ROWS() as it was). The
     * current statement's answer counts them too.
     */
    public void counted(long rowCount, long foundRows) {
        counts.counted(rowCount, foundRows);
        if (rowCount != ResponseSummary.UNCHANGED && rowCount > 0) {
            answerAffected += rowCount;
        }
        if (foundRows != ResponseSummary.UNCHANGED) {
            answerRows += foundRows;
        }
    }

    /** A statement starts: what its answer says is counted from nothing ({@link #answerRows()}...). */
    public void answerStarts() {
        answerRows = 0;
        answerAffected = 0;
        answerWarnings = 0;
        answerFailed = false;
        if (interruption != null) {
            interruption = null; // a volatile write only after an interruption, not per statement
        }
    }

    /** Rows the statement's result sets held. */
    public long answerRows() {
        return answerRows;
    }

    /** Rows the statement changed (affected rows of its OKs). */
    public long answerAffected() {
        return answerAffected;
    }

    public int answerWarnings() {
        return answerWarnings;
    }

    /** Whether the statement ended with an error (the server's or Strata's). */
    public boolean answerFailed() {
        return answerFailed;
    }

    public void answerFailed(boolean failed) {
        answerFailed |= failed;
    }

    /** The error the running statement ends with when Strata interrupted it, else null. */
    public ErrPacket interruption() {
        return interruption;
    }

    /** Strata interrupts the running statement (a query rule's timeout): its error becomes {@code error}. */
    public void interruption(ErrPacket error) {
        interruption = error;
    }

    /** How to stop the statement this session is running (KILL QUERY), or null when it runs none. */
    public Cancel running() {
        return running;
    }

    public void running(Cancel cancel) {
        this.running = cancel;
    }

    /** Follows what a statement left: server status, last insert id, warnings, and state it put on the server. */
    public void afterStatement(int statusFlags, long lastInsertId, int warnings, SqlStatementInfo info,
                               boolean failed) {
        pinning.after(statusFlags, warnings, info, failed);
        answerWarnings += Math.max(warnings, 0);
        answerFailed |= failed;
        counts.inserted(lastInsertId);
        counts.after(info, failed);
        if (info != null && info.charset() != null && !failed) {
            variables.names(info.charset());
        }
    }

    public void holdsServerState(boolean holds) {
        pinning.holdsServerState(holds);
    }

    /**
     * Whether the backend connection must stay with this session after a statement: an open transaction, state on
     * the server, warnings or an error the client may still ask for with SHOW WARNINGS, long data sent for the next
     * execute, or an open cursor.
     */
    public boolean needsPinnedConnection() {
        return pinning.keepsWarnings() || hasServerState();
    }

    /** Whether the last statement's warnings (or error) are kept for SHOW WARNINGS. */
    public boolean keepsWarnings() {
        return pinning.keepsWarnings();
    }

    /** Whether long data for the next execute or an open cursor lives on a backend connection. */
    public boolean hasStatementState() {
        return pinning.longDataPending() || statements.anyCursorOpen();
    }

    /** See {@link Pinning#transactionStart()}. */
    public String transactionStart() {
        return pinning.transactionStart();
    }

    /**
     * Whether the session's backend connection holds what the session cannot lose: a transaction, server state, long
     * data or a cursor. Kept warnings alone do not count: the next statement replaces them anyway. Autocommit off
     * does not either: between transactions (the server's IN_TRANS flag is down) the session's autocommit is made
     * equal on whichever connection it borrows, as its other tracked variables are.
     */
    public boolean hasServerState() {
        return pinning.inTransaction() || pinning.holdsServerState() || hasStatementState();
    }
}
