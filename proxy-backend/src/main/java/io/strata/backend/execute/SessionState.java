package io.strata.backend.execute;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ServerStatus;
import io.strata.protocol.Charsets;

/**
 * What one client session expects of the server sessions that run its statements: what it negotiated, its database
 * and schema, character set, tracked variables, autocommit, the server status it last saw, its own last insert id
 * and counts, its prepared statements, and whether server-side state (a transaction, a user variable, a lock...)
 * ties it to its backend connections. The executors make each backend connection equal to it and follow what each
 * statement changes. Confined to the client channel's event loop (or the one thread running its statement), except
 * {@link #running()}, which KILL QUERY reads from other sessions.
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
    /** What SET NAMES takes to give a connection the collation of the client's handshake. */
    private String loginNames;
    /** What SET NAMES takes to give a connection the session's character set: {@code x} or {@code x COLLATE y}. */
    private String names;
    private String charset;
    private String database;
    /** A backend schema the session USEd in place of its logical database's own (exposeSchemas), else null. */
    private String schema;
    private boolean multiStatements;
    private int statusFlags = ServerStatus.AUTOCOMMIT;
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
    /**
     * LAST_INSERT_ID(expr) ran: the session's last insert id is its pinned server connection's, which Strata does not
     * see (a SELECT's answer does not carry it), so that connection answers for it from then on.
     */
    private boolean lastInsertIdOnServer;
    /**
     * What ROW_COUNT() and FOUND_ROWS() read: the session's own last statement's, which on a shared server connection
     * the server no longer knows (another session's statement ran there since).
     */
    private long rowCount;
    private long foundRows;
    /** A CALL or SQL_CALC_FOUND_ROWS ran (and pinned): the counts are its server connection's from then on. */
    private boolean countsOnServer;
    private volatile Cancel running;
    /** The error a statement Strata interrupted (a query rule's timeout) ends with, in place of the server's. */
    private volatile ErrPacket interruption;
    /** What the current statement's answer said (digests, the slow log): rows sent and affected, warnings, failed. */
    private long answerRows;
    private long answerAffected;
    private int answerWarnings;
    private boolean answerFailed;
    /** By id; looked up on every execute, so keys stay unboxed (a boxed map cost a cache miss more per command). */
    private final IntObjectMap<PreparedStatement> statements = new IntObjectHashMap<>();
    private final Set<Integer> openCursors = new HashSet<>();
    private final Map<String, String> variables = new HashMap<>();
    private int nextStatementId = 1;
    private int lastPrepared = -1;
    private boolean longDataPending;
    private boolean holdsServerState;
    private boolean keepForWarnings;
    /** The statement that began the session's open transaction, which data sources it reaches later run first. */
    private String transactionStart = "START TRANSACTION";

    /** @param connectionId the client connection's id (CONNECTION_ID()), for logs */
    public SessionState(long connectionId) {
        this.connectionId = connectionId;
    }

    /** After authentication (and again after COM_CHANGE_USER). */
    public void login(int capabilities, int mariaDbCapabilities, int collationId) {
        this.capabilities = capabilities;
        this.mariaDbCapabilities = mariaDbCapabilities;
        this.loginNames = Charsets.namesOfCollation(collationId);
        use(null, null); // the connection phase chooses one next, if the client asked for one
        this.multiStatements = Capabilities.has(capabilities, Capabilities.CLIENT_MULTI_STATEMENTS);
        foundRows = 0; // COM_RESET_CONNECTION keeps it, as the server does
        resetState();
    }

    /** COM_RESET_CONNECTION / COM_CHANGE_USER: back to a fresh session (the pinned connection is dealt with first). */
    public void resetState() {
        names(loginNames);
        variables.clear();
        statements.clear(); // like the server: a reset closes the session's prepared statements
        lastPrepared = -1;
        rowCount = 0; // the reset's OK, as the server counts it (ProtocolIT, MySql8IT)
        lostServerState();
    }

    /** The tracked session variables this session set, by lower-case name, with the values the server reported. */
    public Map<String, String> variables() {
        return variables;
    }

    /** A fresh statement id for COM_STMT_PREPARE (ids are never reused within a session). */
    public int nextStatementId() {
        return nextStatementId++;
    }

    public void prepared(PreparedStatement statement) {
        statements.put(statement.id(), statement);
        lastPrepared = statement.id();
    }

    /** A prepare failed: like any failed statement, it leaves ROW_COUNT() at -1 (RandomSessionIT). */
    public void prepareFailed() {
        lastPrepared = -1;
        rowCount = -1;
    }

    /** The statement with this id; MariaDB's id 0xFFFFFFFF means the last one prepared. Null when unknown. */
    public PreparedStatement statement(long id) {
        return statements.get(id == 0xFFFFFFFFL ? lastPrepared : (int) id);
    }

    public void closeStatement(PreparedStatement statement) {
        statements.remove(statement.id());
        openCursors.remove(statement.id());
    }

    /** COM_STMT_SEND_LONG_DATA sent data that the next execute on the same backend connection will use. */
    public void longDataPending(boolean pending) {
        this.longDataPending = pending;
    }

    public void cursor(PreparedStatement statement, boolean open) {
        if (open) {
            openCursors.add(statement.id());
        } else if (!openCursors.isEmpty()) { // every execute says "none": no boxing, no hashing then
            openCursors.remove(statement.id());
        }
    }

    /** The backend connection holding this session's server state broke: that state (and any transaction) is gone. */
    public void lostServerState() {
        openCursors.clear();
        longDataPending = false;
        statusFlags = ServerStatus.AUTOCOMMIT;
        lastInsertId(0);
        lastInsertIdOnServer = false;
        countsOnServer = false;
        holdsServerState = false;
        keepForWarnings = false;
    }

    public long connectionId() {
        return connectionId;
    }

    public int capabilities() {
        return capabilities;
    }

    public boolean deprecateEof() {
        return Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
    }

    /** The capability bits a backend connection must share with this client. */
    public int flavor() {
        return capabilities & Capabilities.FLAVOR_MASK
                | (Capabilities.has(mariaDbCapabilities, Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO)
                ? Capabilities.FLAVOR_EXTENDED_TYPE_INFO : 0);
    }

    public boolean extendedTypeInfo() {
        return Capabilities.has(mariaDbCapabilities, Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO);
    }

    public int mariaDbCapabilities() {
        return mariaDbCapabilities;
    }

    /** The session's character set (without the collation of a {@code SET NAMES x COLLATE y}). */
    public String charset() {
        return charset;
    }

    /** What SET NAMES takes to give a connection the session's character set: {@code x} or {@code x COLLATE y}. */
    public String names() {
        return names;
    }

    /** SET NAMES: the server sets character_set_results and collation_connection with it. */
    public void names(String names) {
        this.names = names;
        this.charset = Charsets.ofNames(names);
        variables.keySet().removeAll(io.strata.backend.connection.StateSync.SET_BY_NAMES);
    }

    /**
     * The collation id the server gives the definitions of text columns it makes (like {@code DATABASE()}'s):
     * character_set_results's, which {@code SET NAMES x COLLATE y} gives y; when that variable is NULL, the system
     * character set's (utf8mb3), in which the server then leaves metadata.
     */
    public int resultsCollation() {
        if (!variables.containsKey("character_set_results")) {
            return Charsets.collationOfNames(names);
        }
        String results = variables.get("character_set_results");
        return Charsets.defaultCollation(results == null ? "utf8mb3" : results);
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
        this.database = database == null ? null : database.intern();
        this.schema = schema;
    }

    public boolean multiStatements() {
        return multiStatements;
    }

    public void multiStatements(boolean on) {
        this.multiStatements = on;
    }

    public int statusFlags() {
        return statusFlags;
    }

    /** Whether the server refuses writes now: in a READ ONLY transaction, or with the session's set read-only. */
    public boolean readOnly() {
        return (statusFlags & ServerStatus.IN_TRANS_READONLY) != 0 || on(variables.get("tx_read_only"))
                || on(variables.get("transaction_read_only"));
    }

    private static boolean on(String value) {
        return "1".equals(value) || "ON".equalsIgnoreCase(value);
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

    public long lastInsertId() {
        return lastInsertId;
    }

    /** Whether LAST_INSERT_ID() is answered by the session's server connection rather than by Strata. */
    public boolean lastInsertIdOnServer() {
        return lastInsertIdOnServer;
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

    private void lastInsertId(long id) {
        lastInsertId = id;
        lastInsertIdVersion++;
    }

    public long rowCount() {
        return rowCount;
    }

    public long foundRows() {
        return foundRows;
    }

    /** Whether ROW_COUNT() and FOUND_ROWS() are answered by the session's server connection rather than by Strata. */
    public boolean countsOnServer() {
        return countsOnServer;
    }

    /** {@link #counted(long, long)} after {@code info}: SHOW WARNINGS leaves FOUND_ROWS() (ProtocolIT, MySql8IT). */
    public void counted(SqlStatementInfo info, long rowCount, long foundRows) {
        counted(rowCount, info != null && info.diagnostic() ? ResponseSummary.UNCHANGED : foundRows);
    }

    /**
     * Follows what ROW_COUNT() and FOUND_ROWS() read after a statement; either may be
     * {@link ResponseSummary#UNCHANGED} (a statement without a result set leaves FOUND_ROWS() as it was).
     */
    public void counted(long rowCount, long foundRows) {
        if (rowCount != ResponseSummary.UNCHANGED) {
            this.rowCount = rowCount;
            if (rowCount > 0) {
                answerAffected += rowCount;
            }
        }
        if (foundRows != ResponseSummary.UNCHANGED) {
            this.foundRows = foundRows;
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
        if (statusFlags >= 0) {
            statusFlags(statusFlags);
        }
        answerWarnings += Math.max(warnings, 0);
        answerFailed |= failed;
        if (lastInsertId != 0) {
            lastInsertId(lastInsertId);
        }
        if (info != null && info.pinsSession()) {
            holdsServerState = true;
        }
        if (info != null && info.setsLastInsertId() && !failed) {
            lastInsertIdOnServer = true;
        }
        if (info != null && info.hidesCounts()) {
            countsOnServer = true;
        }
        if (info != null && info.charset() != null && !failed) {
            names(info.charset());
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

    /**
     * Whether the backend connection must stay with this session after a statement: an open transaction, state on
     * the server, warnings or an error the client may still ask for with SHOW WARNINGS, long data sent for the next
     * execute, or an open cursor.
     */
    public boolean needsPinnedConnection() {
        return keepForWarnings || hasServerState();
    }

    /**
     * Whether the session's backend connection holds what the session cannot lose: a transaction, server state, long
     * data or a cursor. Kept warnings alone do not count: the next statement replaces them anyway. Autocommit off
     * does not either: between transactions (the server's IN_TRANS flag is down) the session's autocommit is made
     * equal on whichever connection it borrows, as its other tracked variables are.
     */
    /** Whether the last statement's warnings (or error) are kept for SHOW WARNINGS. */
    public boolean keepsWarnings() {
        return keepForWarnings;
    }

    /** Whether long data for the next execute or an open cursor lives on a backend connection. */
    public boolean hasStatementState() {
        return longDataPending || !openCursors.isEmpty();
    }

    /**
     * The statement that began the session's open transaction (BEGIN, START TRANSACTION READ ONLY...): a data
     * source the transaction reaches later joins it with the same.
     */
    public String transactionStart() {
        return transactionStart;
    }

    public boolean hasServerState() {
        return inTransaction() || holdsServerState || longDataPending || !openCursors.isEmpty();
    }
}
