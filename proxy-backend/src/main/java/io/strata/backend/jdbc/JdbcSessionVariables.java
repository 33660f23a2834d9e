package io.strata.backend.jdbc;

import io.strata.backend.connection.StateSync;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The tracked session variables each pooled JDBC connection holds, so a session's own (sql_mode, time_zone...) are
 * made equal on whichever connection HikariCP hands out, as the relay executor does, instead of pinning the session.
 * Connections are known by their driver object, which outlives HikariCP's per-checkout proxies.
 */
public final class JdbcSessionVariables {

    /** What Strata's JDBC connections speak, whatever the client does (Strata converts). */
    public static final String CHARSET = "utf8mb4";
    /**
     * Run on each new or reset connection: MariaDB Connector/J asks for IGNORE_SPACE when it connects (a capability
     * flag), and may add STRICT_TRANS_TABLES, which a client of the server's own would not have. IGNORE_SPACE makes
     * built-in function names reserved words (a table named {@code log} no longer parses).
     */
    public static final String SERVER_SQL_MODE = "SET SESSION sql_mode = @@GLOBAL.sql_mode";
    private final Map<Object, Map<String, String>> held = new WeakHashMap<>();

    /**
     * Sets on {@code connection} what {@code wanted} holds and it does not (one SET, only when they differ), and the
     * session's autocommit. The driver follows autocommit from the server's status flags, so a client's own
     * {@code SET autocommit} is seen too, and a session with autocommit off need not keep its connection between
     * transactions. Set by SQL rather than {@link Connection#setAutoCommit}: HikariCP would then set it back at every
     * return to the pool.
     */
    public void sync(Connection connection, Map<String, String> wanted, boolean autocommit) throws SQLException {
        if (connection.getAutoCommit() != autocommit) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(autocommit ? "SET autocommit = 1" : "SET autocommit = 0");
            }
        }
        sync(connection, wanted);
    }

    /** Sets on {@code connection} what {@code wanted} holds and it does not (one SET, only when they differ). */
    public void sync(Connection connection, Map<String, String> wanted) throws SQLException {
        Object key = key(connection);
        Map<String, String> current;
        synchronized (held) {
            current = held.getOrDefault(key, Map.of());
        }
        if (current.equals(wanted)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            if (StateSync.leftByNames(current, wanted)) {
                statement.execute("SET NAMES " + CHARSET); // see StateSync.leftByNames
                current = StateSync.withoutNames(current);
            }
            if (!current.equals(wanted)) {
                statement.execute(StateSync.setVariables(current, wanted, transactionNames(connection)));
            }
        }
        remember(key, wanted);
    }

    /**
     * After a SET of {@code names} on {@code connection}: their values as the server now has them. The connection
     * then holds {@code before} (the session's variables, made equal before the SET) with these.
     */
    public Map<String, String> readBack(Connection connection, List<String> names, Map<String, String> before)
            throws SQLException {
        Map<String, String> read = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                StateSync.selectVariables(names, transactionNames(connection)))) {
            rows.next();
            for (int i = 0; i < names.size(); i++) {
                read.put(names.get(i), rows.getString(i + 1));
            }
        }
        Map<String, String> held = new HashMap<>(before);
        StateSync.follow(held, read);
        remember(key(connection), held);
        return read;
    }

    private static boolean transactionNames(Connection connection) throws SQLException {
        return StateSync.transactionNames(connection.getMetaData().getDatabaseProductVersion());
    }

    /** The connection was reset (COM_RESET_CONNECTION): it holds the server's defaults again. */
    public void forget(Connection connection) throws SQLException {
        synchronized (held) {
            held.remove(key(connection));
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(SERVER_SQL_MODE); // the reset gave it the driver's again
        }
    }

    private void remember(Object key, Map<String, String> values) {
        synchronized (held) {
            held.put(key, java.util.Collections.unmodifiableMap(new HashMap<>(values)));
        }
    }

    private static Object key(Connection connection) throws SQLException {
        return connection.unwrap(org.mariadb.jdbc.Connection.class);
    }
}
