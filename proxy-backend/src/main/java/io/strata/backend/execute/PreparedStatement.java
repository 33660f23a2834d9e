package io.strata.backend.execute;

import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendStatement;
import io.strata.backend.connection.ParseState;
import io.strata.rule.sql.SqlStatementInfo;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A statement a client prepared, under the id Strata gave it. It belongs to the session, not to a backend
 * connection: each backend connection that runs it has its own server-side statement for the same SQL.
 */
public final class PreparedStatement {

    private final int id;
    private final String sql;
    private final SqlStatementInfo info;
    private final String database;
    private final String schema;
    private final ParseState parsedIn;
    private final int params;
    private final int columns;
    private byte[] types;
    /** COM_STMT_SEND_LONG_DATA came since the last execute: that execute's block lacks those values. */
    private boolean longDataSent;
    /** Its digest text (query digests), made at its first execute. */
    private String digest;
    /**
     * The backend statement it last ran as, and on which connection: the next execute on the same connection uses it
     * when that connection still caches it ({@link BackendConnection#holds}), without looking it up by SQL. The
     * connection is compared first, so an execute on another one touches nothing more than before.
     */
    private BackendConnection lastConnection;
    private BackendStatement lastBackend;
    /** The statements rules run for it, by their SQL ({@link #unit}); made at the first. */
    private Map<String, PreparedStatement> units;

    /**
     * @param schema   the backend schema the session had USEd when it prepared it ({@link Session#schema()}), or null
     * @param parsedIn what the server parsed it in (the relay's; null on the JDBC executor, whose driver prepares)
     */
    public PreparedStatement(int id, String sql, SqlStatementInfo info, String database, String schema,
                             ParseState parsedIn, int params, int columns) {
        this.id = id;
        this.sql = sql;
        this.info = info;
        this.database = database;
        this.schema = schema;
        this.parsedIn = parsedIn;
        this.params = params;
        this.columns = columns;
    }

    public int id() {
        return id;
    }

    /**
     * The SQL as the bytes the client sent, one char per byte (ISO-8859-1), whatever its character set: the key of
     * backend statement caches, and what a backend connection that prepares it again is sent. ASCII SQL reads as
     * itself.
     */
    public String sql() {
        return sql;
    }

    public SqlStatementInfo info() {
        return info;
    }

    /** The logical database it was prepared in: it runs there whatever the session USEs later, as on the server. */
    public String database() {
        return database;
    }

    /** The backend schema it was prepared in, when the session had USEd one ({@link Session#schema()}), else null. */
    public String schema() {
        return schema;
    }

    /**
     * The character set and sql_mode the server parsed it in, which it keeps, as on the server, after the session
     * sets others: a backend connection that prepares it again does so in this state.
     */
    public ParseState parsedIn() {
        return parsedIn;
    }

    public int params() {
        return params;
    }

    public int columns() {
        return columns;
    }

    /** The parameter types (2 bytes each) the client last bound, or null before the first execute with types. */
    public boolean longDataSent() {
        return longDataSent;
    }

    public void longDataSent(boolean sent) {
        this.longDataSent = sent;
    }

    /** The statement's digest text, or null before it was made ({@link #digest(String)}). */
    public String digest() {
        return digest;
    }

    public void digest(String digest) {
        this.digest = digest;
    }

    public byte[] types() {
        return types;
    }

    public void types(byte[] types) {
        this.types = types;
    }

    /**
     * The statement a rule runs for this one on some data source (a sharded execute's unit): the rule's SQL, with
     * this statement's parameters, whose values and types come from this one's executes; prepared on each backend
     * connection that runs it, as this one is. The SQL goes to the backend in UTF-8, as a rule's text statements do.
     */
    public PreparedStatement unit(String unitSql) {
        if (units == null) {
            units = new HashMap<>();
        }
        return units.computeIfAbsent(unitSql, s -> new PreparedStatement(id,
                new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1), null, database, schema,
                parsedIn, params, -1));
    }

    /** The backend statement of its last execute when that ran on {@code connection}, else null. */
    public BackendStatement lastBackend(BackendConnection connection) {
        return connection == lastConnection ? lastBackend : null;
    }

    public void lastBackend(BackendConnection connection, BackendStatement statement) {
        this.lastConnection = connection;
        this.lastBackend = statement;
    }
}
