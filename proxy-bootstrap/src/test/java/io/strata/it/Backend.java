package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The real MariaDB server the integration tests share (one per test JVM, started on first use). Strata logs in as
 * {@code strata}; tests check what happened on the backend as {@code checker}, so the two never mix in the
 * server's own counters. The backend schema is {@code strata_it}; Strata shows it as the logical database
 * {@code it}.
 */
final class Backend {

    static final String SCHEMA = "strata_it";
    private static EmbeddedMariaDb server;

    private Backend() {
    }

    static synchronized EmbeddedMariaDb server() {
        if (server == null) {
            server = EmbeddedMariaDb.start(0);
            server.createDatabase(SCHEMA, "strata", "strata");
            server.createDatabase(SCHEMA, "checker", "checker");
            EmbeddedMariaDb started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close));
        }
        return server;
    }

    /** A connection straight to MariaDB, not through Strata. */
    static Connection direct() throws SQLException {
        return server().connect(SCHEMA, "checker", "checker");
    }

    /** A table with one column of every MySQL type and two rows (extremes, zeros), as MariaDB and MySQL 8 take it. */
    static final String[] ALL_TYPES = {"DROP TABLE IF EXISTS all_types", """
                CREATE TABLE all_types (
                  id INT PRIMARY KEY, t TINYINT, tu TINYINT UNSIGNED, s SMALLINT, su SMALLINT UNSIGNED,
                  m MEDIUMINT, i INT, iu INT UNSIGNED, b BIGINT, bu BIGINT UNSIGNED, d DECIMAL(30,10),
                  f FLOAT, db DOUBLE, dt DATE, tm TIME(6), dtm DATETIME(3), ts TIMESTAMP(6) NULL, y YEAR,
                  c CHAR(10), vc VARCHAR(100), tx TEXT, bn BINARY(4), vb VARBINARY(20), bl BLOB, bt BIT(12),
                  e ENUM('a','b','c'), st SET('x','y','z'), js JSON, n INT NULL
                ) DEFAULT CHARSET=utf8mb4""",
                """
                INSERT INTO all_types VALUES
                (1, -128, 255, -32768, 65535, -8388608, -2147483648, 4294967295, -9223372036854775808,
                 18446744073709551615, -12345678901234567890.0123456789, 3.14, 2.718281828459045, '2024-02-29',
                 '-838:59:59.000000', '2024-02-29 23:59:59.999', '2038-01-19 03:14:07.999999', 2155,
                 'abc', 'héllo wörld', '😀 four-byte utf8mb4 ✓', X'00FF10E0', X'DEADBEEF00', X'000102FF',
                 b'101010101010', 'b', 'x,z', '{"k": [1, 2.5, "v", null]}', NULL),
                (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '1000-01-01', '00:00:00', '1000-01-01 00:00:00',
                 NULL, 1901, '', '', '', X'00000000', X'', X'', b'0', 'a', '', '[]', NULL)"""};

    private static boolean allTypes;

    /** The table with one column of every MySQL type, created once per JVM. */
    static synchronized void allTypesTable() throws SQLException {
        if (allTypes) {
            return;
        }
        execute(ALL_TYPES);
        allTypes = true;
    }

    static void execute(String... statements) throws SQLException {
        server().execute(SCHEMA, "checker", "checker", statements);
    }

    /** A counter of MariaDB's {@code SHOW GLOBAL STATUS}, e.g. {@code Com_stmt_prepare}. */
    static long globalStatus(String name) throws SQLException {
        try (Connection direct = direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + name + "'")) {
            if (!rs.next()) {
                throw new SQLException("no status variable " + name);
            }
            return rs.getLong(2);
        }
    }
}
