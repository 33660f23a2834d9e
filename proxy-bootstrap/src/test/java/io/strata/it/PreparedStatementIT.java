package io.strata.it;

import io.strata.backend.relay.ResponseKind;
import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import io.strata.protocol.ErrPacket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server-side prepared statements (the binary protocol) through Strata: statement ids belong to the client session
 * and stay valid on whichever pooled backend connection runs an execute.
 */
class PreparedStatementIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws SQLException {
        Backend.allTypesTable();
        Backend.execute("DROP TABLE IF EXISTS ps_params", """
                CREATE TABLE ps_params (id INT PRIMARY KEY, t TINYINT, s SMALLINT, i INT, b BIGINT,
                  bu BIGINT UNSIGNED, f FLOAT, d DOUBLE, dec1 DECIMAL(20,6), dt DATE, tm TIME(3), ts DATETIME(6),
                  vc VARCHAR(50), bl BLOB, n INT NULL) DEFAULT CHARSET=utf8mb4""",
                "DROP TABLE IF EXISTS ps_rows",
                "CREATE TABLE ps_rows (id INT PRIMARY KEY, v VARCHAR(20)) SELECT seq AS id, CONCAT('row-', seq) AS v "
                        + "FROM seq_1_to_100");
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    private static Properties serverSide() {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        return props;
    }

    private static Connection proxied(Driver driver) throws SQLException {
        return strata.connect(driver, "it", "root", "root", serverSide());
    }

    private static Connection direct(Driver driver) throws SQLException {
        return driver.connect(Backend.server().port(), Backend.SCHEMA, "checker", "checker", serverSide());
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void everyParameterAndColumnTypeRoundTrips(Driver driver) throws SQLException {
        int id = driver.ordinal() + 1;
        try (Connection c = proxied(driver);
             PreparedStatement insert = c.prepareStatement("REPLACE INTO ps_params VALUES "
                     + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setInt(1, id);
            insert.setByte(2, (byte) -7);
            insert.setShort(3, (short) -32000);
            insert.setInt(4, Integer.MIN_VALUE);
            insert.setLong(5, Long.MAX_VALUE);
            insert.setBigDecimal(6, new BigDecimal("18446744073709551615"));
            insert.setFloat(7, 1.5f);
            insert.setDouble(8, Math.PI);
            insert.setBigDecimal(9, new BigDecimal("-12345678901234.123456"));
            insert.setDate(10, Date.valueOf("2024-02-29"));
            insert.setTime(11, Time.valueOf("23:59:58"));
            insert.setTimestamp(12, Timestamp.valueOf("2024-02-29 23:59:59.123456"));
            insert.setString(13, "héllo 😀");
            insert.setBytes(14, new byte[] {0, -1, 10, 13, 39, 92});
            insert.setNull(15, Types.INTEGER);
            insert.executeUpdate();
        }
        String select = "SELECT * FROM ps_params WHERE id = ?";
        assertEquals(readPrepared(direct(driver), select, id), readPrepared(proxied(driver), select, id));
        assertEquals(readPrepared(direct(driver), "SELECT * FROM all_types WHERE id >= ?", 1),
                readPrepared(proxied(driver), "SELECT * FROM all_types WHERE id >= ?", 1));
    }

    /**
     * A prepare's column definitions are in the session's character_set_results, even when another session
     * prepared the same SQL before with another (MySQL Connector/J sets it to NULL, MariaDB Connector/J does not).
     */
    @Test
    void preparedColumnsFollowTheSessionsResultCharacterSet() throws SQLException {
        String sql = "SELECT tx, vc FROM all_types WHERE id = ? /* result charset */";
        try (Connection mariadb = proxied(Driver.MARIADB); PreparedStatement first = mariadb.prepareStatement(sql)) {
            assertNotNull(first.getMetaData());
            assertEquals(describePrepared(direct(Driver.MYSQL), sql), describePrepared(proxied(Driver.MYSQL), sql));
        }
    }

    /** The columns as a prepared statement describes them before it runs (from the prepare response). */
    private static List<String> describePrepared(Connection connection, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (connection; PreparedStatement ps = connection.prepareStatement(sql)) {
            ResultSetMetaData md = ps.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i) + " " + md.getPrecision(i));
            }
        }
        return out;
    }

    private static List<String> readPrepared(Connection connection, String sql, int param) throws SQLException {
        List<String> out = new ArrayList<>();
        try (connection; PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setInt(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    out.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i) + " " + md.getPrecision(i) + " "
                            + md.getScale(i) + " " + md.isSigned(i));
                }
                while (rs.next()) {
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        out.add(rs.getString(i) + "|" + bytes(rs, i));
                    }
                }
            }
        }
        return out;
    }

    /** The raw bytes where the driver gives them (not every type decodes as byte[]). */
    private static String bytes(ResultSet rs, int column) {
        try {
            byte[] bytes = rs.getBytes(column);
            return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
        } catch (SQLException e) {
            return "n/a";
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aStatementIsReusedInAndOutOfTransactions(Driver driver) throws SQLException {
        try (Connection c = proxied(driver);
             PreparedStatement update = c.prepareStatement("UPDATE ps_rows SET v = ? WHERE id = ?");
             PreparedStatement read = c.prepareStatement("SELECT v FROM ps_rows WHERE id = ?")) {
            c.setAutoCommit(false);
            update.setString(1, "in-tx");
            update.setInt(2, 50 + driver.ordinal());
            assertEquals(1, update.executeUpdate());
            assertEquals("in-tx", readOne(read, 50 + driver.ordinal()));
            c.rollback();
            c.setAutoCommit(true);
            assertEquals("row-" + (50 + driver.ordinal()), readOne(read, 50 + driver.ordinal()));
            for (int i = 1; i <= 20; i++) {
                assertEquals("row-" + i, readOne(read, i));
            }
        }
    }

    /** A batch of executes, which drivers pipeline (MariaDB Connector/J sends them all before reading any answer). */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void batchesOfExecutesLandEveryRow(Driver driver) throws SQLException {
        String table = "ps_batch_" + driver.name().toLowerCase();
        Backend.execute("DROP TABLE IF EXISTS " + table,
                "CREATE TABLE " + table + " (id INT PRIMARY KEY, v VARCHAR(20))");
        try (Connection c = proxied(driver);
             PreparedStatement insert = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            for (int i = 1; i <= 500; i++) {
                insert.setInt(1, i);
                insert.setString(2, "row " + i);
                insert.addBatch();
            }
            int[] counts = insert.executeBatch();
            assertEquals(500, counts.length);
            try (Statement st = c.createStatement()) {
                assertEquals(500, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM " + table));
                assertEquals("row 250", JdbcIT.queryString(st, "SELECT v FROM " + table + " WHERE id = 250"));
            }
        }
    }

    private static String readOne(PreparedStatement read, int id) throws SQLException {
        read.setInt(1, id);
        try (ResultSet rs = read.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void cursorsDeliverRowsInFetchSizeBatches() throws SQLException {
        Properties props = serverSide();
        props.setProperty("useCursorFetch", "true");
        try (Connection c = strata.connect(Driver.MYSQL, "it", "root", "root", props);
             PreparedStatement ps = c.prepareStatement("SELECT id, v FROM ps_rows WHERE id > ? ORDER BY id")) {
            ps.setFetchSize(7);
            ps.setInt(1, 0);
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    assertEquals(rows, rs.getInt(1));
                }
            }
            assertEquals(100, rows);
            try (Statement st = c.createStatement()) {
                assertEquals(1, JdbcIT.queryInt(st, "SELECT 1"), "the session goes on after the cursor");
            }
        }
    }

    @Test
    void longDataIsSentInPiecesBeforeTheExecute() throws SQLException {
        Properties props = serverSide();
        props.setProperty("blobSendChunkSize", "1000");
        byte[] blob = new byte[5000];
        for (int i = 0; i < blob.length; i++) {
            blob[i] = (byte) i;
        }
        try (Connection c = strata.connect(Driver.MYSQL, "it", "root", "root", props);
             PreparedStatement ps = c.prepareStatement("UPDATE ps_params SET bl = ? WHERE id = ?")) {
            ps.setBinaryStream(1, new ByteArrayInputStream(blob), blob.length);
            ps.setInt(2, 1);
            ps.executeUpdate();
        }
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SELECT bl FROM ps_params WHERE id = 1")) {
            assertTrue(rs.next());
            assertArrayEquals(blob, rs.getBytes(1));
        }
    }

    @Test
    void aStatementSurvivesTheLossOfItsBackendConnection() throws Exception {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            long id = statementId(prepare(client, "SELECT CONNECTION_ID() + ?"));
            long backendThread = Long.parseLong(binaryCell(execute(client, id, 0)));
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
                st.execute("KILL " + backendThread);
            }
            Thread.sleep(300);
            // Types are not sent again (new-params-bound 0): the fresh backend statement has none, so Strata adds
            // the ones the client bound before.
            long next = Long.parseLong(binaryCell(executeReusingTypes(client, id, 0)));
            assertTrue(next != backendThread, "re-prepared on another backend connection");
            assertEquals(Long.toString(next + 5), binaryCell(executeReusingTypes(client, id, 5)));
        }
    }

    /**
     * A latin1 client's prepared SQL is the bytes it sent. Two statements told apart only by a byte that is not
     * UTF-8 stay two statements, and one prepared again on another backend connection (its first one killed) is the
     * same statement: 'é' (0xE9) and 'è' (0xE8) come back as sent.
     */
    @Test
    void aPreparedStatementIsTheClientsBytesInAnyCharacterSet() throws Exception {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            client.query("SET NAMES latin1");
            long acute = statementId(client.command(0x16,
                    "SELECT CONCAT('é', CONNECTION_ID() + ?)".getBytes(StandardCharsets.ISO_8859_1),
                    ResponseKind.PREPARE));
            long grave = statementId(client.command(0x16,
                    "SELECT CONCAT('è', CONNECTION_ID() + ?)".getBytes(StandardCharsets.ISO_8859_1),
                    ResponseKind.PREPARE));
            String first = binaryCell(execute(client, acute, 0), StandardCharsets.ISO_8859_1);
            assertEquals('é', first.charAt(0), first);
            assertEquals('è', binaryCell(execute(client, grave, 0), StandardCharsets.ISO_8859_1).charAt(0));
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
                st.execute("KILL " + first.substring(1));
            }
            Thread.sleep(300);
            String again = binaryCell(executeReusingTypes(client, acute, 0), StandardCharsets.ISO_8859_1);
            assertTrue(!again.substring(1).equals(first.substring(1)), "prepared again on another connection");
            assertEquals('é', again.charAt(0), again);
        }
    }

    /**
     * A prepare is answered as the server answers it in the session's present state, also when the backend connection
     * already holds the same SQL from before: under ANSI_QUOTES "q" is an unknown column, and with the session's
     * transactions read-only, or in a READ ONLY transaction, an INSERT cannot be prepared.
     */
    @Test
    void aPrepareIsAnsweredInTheSessionsSqlModeAndReadOnlyState() throws IOException {
        String quoted = "PREPARE SELECT \"q\" FROM DUAL";
        String insert = "PREPARE INSERT INTO ps_rows (id, v) VALUES (?, 'x')";
        List<String> steps = List.of(quoted, "SET sql_mode = 'ANSI_QUOTES'", quoted, "SET sql_mode = DEFAULT", quoted,
                insert, "SET SESSION TRANSACTION READ ONLY", insert, "SET SESSION TRANSACTION READ WRITE", insert,
                "START TRANSACTION READ ONLY", insert, "ROLLBACK", insert);
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA);
             RawClient proxied = RawClient.connect(strata.port(), "root", "root", "it")) {
            for (String step : steps) {
                if (step.startsWith("PREPARE ")) {
                    String sql = step.substring("PREPARE ".length());
                    assertSamePackets(withoutId(prepare(direct, sql)), withoutId(prepare(proxied, sql)), step);
                } else {
                    assertSamePackets(direct.query(step), proxied.query(step), step);
                }
            }
        }
    }

    /**
     * A statement keeps the parse of its prepare, as on the server, while its executes run in the session's present
     * state. Prepared by a latin1 session with the default sql_mode, {@code "q"} stays a string and 'é' the latin1
     * character after the session sets ANSI_QUOTES and utf8mb4, and the result comes in utf8mb4: on the backend
     * connection that prepared it, and on another one that prepares it again (the first one killed).
     */
    @Test
    void aStatementKeepsTheParseOfItsPrepare() throws Exception {
        byte[] sql = "SELECT CONCAT(\"q\", 'é', ' ', CONNECTION_ID() + ?)".getBytes(StandardCharsets.ISO_8859_1);
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA);
             RawClient proxied = RawClient.connect(strata.port(), "root", "root", "it")) {
            List<RawClient> both = List.of(direct, proxied);
            List<Long> ids = new ArrayList<>();
            for (RawClient client : both) {
                client.query("SET NAMES latin1");
                ids.add(statementId(client.command(0x16, sql, ResponseKind.PREPARE)));
                assertEquals("qé", binaryCell(execute(client, ids.getLast(), 0), StandardCharsets.ISO_8859_1)
                        .split(" ")[0]);
                client.query("SET sql_mode = 'ANSI_QUOTES'");
                client.query("SET NAMES utf8mb4");
            }
            String backend = "";
            for (String step : List.of("in the new state", "prepared again")) {
                for (int i = 0; i < 2; i++) {
                    List<byte[]> response = execute(both.get(i), ids.get(i), 0);
                    assertNull(RawClient.error(response), step + ": " + RawClient.error(response));
                    String cell = binaryCell(response, StandardCharsets.UTF_8);
                    assertEquals("qé", cell.split(" ")[0], step + (i == 0 ? ", on MariaDB" : ", through Strata"));
                    backend = cell.split(" ")[1];
                }
                try (Connection killer = Backend.direct(); Statement st = killer.createStatement()) {
                    st.execute("KILL " + backend);
                }
                Thread.sleep(300);
            }
        }
    }

    /** A prepare's response with its statement id zeroed: each side numbers its own. */
    static List<byte[]> withoutId(List<byte[]> response) {
        if (RawClient.error(response) == null) {
            byte[] ok = response.get(0).clone();
            java.util.Arrays.fill(ok, 5, 9, (byte) 0);
            response = new ArrayList<>(response);
            response.set(0, ok);
        }
        return response;
    }

    /**
     * A statement runs in the database it was prepared in, as on MariaDB: after USE of another logical database (a
     * data source on another schema), its executes still read the first one's table, while a statement prepared
     * after the USE reads the second's.
     */
    @Test
    void aPreparedStatementRunsInTheDatabaseItWasPreparedIn() throws Exception {
        String second = Backend.SCHEMA + "_second";
        Backend.server().createDatabase(second, "strata", "strata");
        Backend.execute("CREATE OR REPLACE TABLE place (name VARCHAR(8))", "INSERT INTO place VALUES ('first')");
        Backend.server().execute(second, "checker", "checker", "CREATE OR REPLACE TABLE place (name VARCHAR(8))",
                "INSERT INTO place VALUES ('second')");
        String sql = "SELECT name FROM place WHERE ? > 0";
        try (StrataFixture two = StrataFixture.withSecondDatabase("it_second", second);
             RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA);
             RawClient proxied = RawClient.connect(two.port(), "root", "root", "it")) {
            long directId = statementId(prepare(direct, sql));
            long proxiedId = statementId(prepare(proxied, sql));
            direct.query("USE " + second);
            proxied.query("USE it_second");
            List<byte[]> expected = execute(direct, directId, 1);
            assertEquals("first", binaryCell(expected));
            assertSamePackets(expected, execute(proxied, proxiedId, 1), "after USE");
            assertSamePackets(execute(direct, statementId(prepare(direct, sql)), 1),
                    execute(proxied, statementId(prepare(proxied, sql)), 1), "prepared after USE");
        }
    }

    @Test
    void aKilledPinnedConnectionIsReportedNotHidden() throws Exception {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            client.query("BEGIN");
            long backendThread = Long.parseLong(SessionIT.text(client.query("SELECT CONNECTION_ID() + 0")));
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
                st.execute("KILL " + backendThread);
            }
            Thread.sleep(300);
            ErrPacket lost = RawClient.error(client.query("SELECT 1"));
            assertNotNull(lost, "the transaction is gone, and the client hears so");
            assertEquals(1430, lost.errorCode());
            assertEquals("1", SessionIT.text(client.query("SELECT 1")), "and the session goes on");
        }
    }

    @Test
    void binaryResultsAreByteIdenticalToMariaDb() throws IOException {
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA);
             RawClient proxied = RawClient.connect(strata.port(), "root", "root", "it")) {
            List<byte[]> expectedPrepare = prepare(direct, "SELECT * FROM all_types WHERE id >= ?");
            List<byte[]> actualPrepare = prepare(proxied, "SELECT * FROM all_types WHERE id >= ?");
            assertEquals(expectedPrepare.size(), actualPrepare.size());
            for (int i = 1; i < expectedPrepare.size(); i++) {
                assertArrayEquals(expectedPrepare.get(i), actualPrepare.get(i), "prepare packet " + i);
            }
            List<byte[]> expected = execute(direct, statementId(expectedPrepare), 1);
            List<byte[]> actual = execute(proxied, statementId(actualPrepare), 1);
            assertEquals(expected.size(), actual.size());
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), "execute packet " + i);
            }
        }
    }

    /**
     * A cursor as MariaDB's own: the execute answers column definitions and one terminator with CURSOR_EXISTS;
     * fetches of 4 rows give 4, 4, then the last 2 with LAST_ROW_SENT.
     */
    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {true, false})
    void cursorResponsesAreByteIdenticalToMariaDb(boolean deprecateEof) throws IOException {
        int caps = RawClient.capabilities(deprecateEof);
        String sql = "SELECT id, v FROM ps_rows WHERE id <= ? ORDER BY id";
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA,
                caps);
             RawClient proxied = RawClient.connect(strata.port(), "root", "root", "it", caps)) {
            long directId = statementId(prepare(direct, sql));
            long proxiedId = statementId(prepare(proxied, sql));
            assertSamePackets(execute(direct, directId, 10, CURSOR_READ_ONLY),
                    execute(proxied, proxiedId, 10, CURSOR_READ_ONLY), "execute");
            for (int fetch = 1; fetch <= 3; fetch++) {
                assertSamePackets(fetch(direct, directId, 4), fetch(proxied, proxiedId, 4), "fetch " + fetch);
            }
            assertEquals("1", SessionIT.text(proxied.query("SELECT 1")), "the session goes on after the cursor");
        }
    }

    private static final int CURSOR_READ_ONLY = 1;

    static void assertSamePackets(List<byte[]> expected, List<byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": packets");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(HexFormat.of().formatHex(expected.get(i)), HexFormat.of().formatHex(actual.get(i)),
                    what + ": packet " + i);
        }
    }

    static List<byte[]> fetch(RawClient client, long id, int rows) throws IOException {
        byte[] payload = {(byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24),
                (byte) rows, (byte) (rows >> 8), (byte) (rows >> 16), (byte) (rows >> 24)};
        return client.command(0x1C, payload, ResponseKind.FETCH);
    }

    @Test
    void inSteadyStateExecutesDoNotPrepareAgainOnTheBackend() throws Exception {
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(RawClient.connect(strata.port(), "root", "root", "it"));
            }
            String sql = "SELECT v FROM ps_rows WHERE id = ? /* steady state */";
            List<Long> ids = new ArrayList<>();
            for (RawClient client : clients) {
                ids.add(statementId(prepare(client, sql)));
                execute(client, ids.get(ids.size() - 1), 1);
            }
            long before = Backend.globalStatus("Com_stmt_prepare");
            for (int round = 0; round < 50; round++) {
                for (int i = 0; i < clients.size(); i++) {
                    assertEquals("row-" + (round + 1), binaryCell(execute(clients.get(i), ids.get(i),
                            round + 1)));
                }
            }
            assertEquals(before, Backend.globalStatus("Com_stmt_prepare"), "200 executes, not one more prepare");
        } finally {
            for (RawClient client : clients) {
                client.close();
            }
        }
    }

    /**
     * Two sessions sharing the pool's only connection run one SQL, each prepared in its own sql_mode ({@code ||} is
     * OR in one, concatenation in the other). Each keeps its parse, and neither's executes prepare the statement
     * again on the backend: the connection keeps both.
     */
    @Test
    void oneSqlInTwoSqlModesIsNotPreparedAgainAtEveryTurn() throws Exception {
        try (StrataFixture single = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", 1, "connectionTimeout", 5000));
             RawClient plain = RawClient.connect(single.port(), "root", "root", "it");
             RawClient pipes = RawClient.connect(single.port(), "root", "root", "it")) {
            pipes.query("SET sql_mode = 'PIPES_AS_CONCAT'");
            String sql = "SELECT CAST(? || 5 AS CHAR) /* two modes */";
            long plainId = statementId(prepare(plain, sql));
            long pipesId = statementId(prepare(pipes, sql));
            long before = Backend.globalStatus("Com_stmt_prepare");
            for (int round = 0; round < 20; round++) {
                assertEquals("1", cell(execute(plain, plainId, round)), "OR, round " + round);
                assertEquals(round + "5", cell(execute(pipes, pipesId, round)), "||, round " + round);
            }
            assertEquals(before, Backend.globalStatus("Com_stmt_prepare"), "40 executes, not one more prepare");
        }
    }

    /** The same through each JDBC driver's server-side prepared statements. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void oneSqlInTwoSqlModesThroughADriverIsNotPreparedAgainAtEveryTurn(Driver driver) throws Exception {
        Properties serverSide = new Properties();
        serverSide.setProperty("useServerPrepStmts", "true");
        try (StrataFixture single = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", 1, "connectionTimeout", 5000));
             Connection plain = single.connect(driver, "it", "root", "root", serverSide);
             Connection pipes = single.connect(driver, "it", "root", "root", serverSide)) {
            try (Statement st = pipes.createStatement()) {
                st.execute("SET sql_mode = 'PIPES_AS_CONCAT'");
            }
            String sql = "SELECT CAST(? || 5 AS CHAR) /* two modes, " + driver + " */";
            try (PreparedStatement or = plain.prepareStatement(sql);
                 PreparedStatement concat = pipes.prepareStatement(sql)) {
                assertEquals("1", single(or, 0), "prepared and run once");
                assertEquals("05", single(concat, 0), "prepared and run once");
                long before = Backend.globalStatus("Com_stmt_prepare");
                for (int round = 1; round <= 20; round++) {
                    assertEquals("1", single(or, round), "OR, round " + round);
                    assertEquals(round + "5", single(concat, round), "||, round " + round);
                }
                assertEquals(before, Backend.globalStatus("Com_stmt_prepare"), "40 executes, not one more prepare");
            }
        }
    }

    private static String single(PreparedStatement statement, int param) throws SQLException {
        statement.setInt(1, param);
        try (ResultSet rs = statement.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** The one cell of a result, or the error instead. */
    private static String cell(List<byte[]> response) {
        ErrPacket error = RawClient.error(response);
        return error != null ? error.errorCode() + " " + error.message() : binaryCell(response);
    }

    @Test
    void anUnknownStatementIdIs1243() throws IOException {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            ErrPacket err = RawClient.error(client.command(0x17, new byte[] {99, 0, 0, 0, 0, 1, 0, 0, 0},
                    ResponseKind.QUERY));
            assertNotNull(err);
            assertEquals(1243, err.errorCode());
            assertTrue(client.query("SELECT 1").size() > 1);
        }
    }

    /** An execute whose parameter value is cut short is refused, and the session and the statement go on. */
    @Test
    void anExecuteWithItsValuesCutShortIsAnErrorAndTheSessionGoesOn() throws IOException {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            long id = statementId(prepare(client, "SELECT ? + 1"));
            byte[] cut = {(byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24), 0, 1, 0, 0, 0,
                    0, 1, 3, 0, 7, 0}; // an INT parameter with two of its four bytes
            assertNotNull(RawClient.error(client.command(0x17, cut, ResponseKind.QUERY)));
            assertEquals("8", binaryCell(execute(client, id, 7)));
            assertEquals("1", SessionIT.text(client.query("SELECT 1")));
        }
    }

    @Test
    void tenThousandPrepareCloseCyclesLeaveNothingBehind() throws Exception {
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            for (int i = 0; i < 10_000; i++) {
                List<byte[]> prepared = prepare(client, "SELECT ? + " + i);
                long id = statementId(prepared);
                client.writePacket(0, new byte[] {0x19, (byte) id, (byte) (id >> 8), (byte) (id >> 16),
                        (byte) (id >> 24)});
            }
            assertTrue(client.query("SELECT 1").size() > 1);
            long statements = Backend.globalStatus("Prepared_stmt_count");
            assertTrue(statements <= 200, "backend statements stay bounded: " + statements);
        }
    }

    /**
     * The single cell of a one-row, one-column binary result (deprecate-EOF form): row header 0x00, a one-byte NULL
     * bitmap, then the value as the column definition's type encodes it (a BIGINT or a length-encoded string here).
     */
    static String binaryCell(List<byte[]> response) {
        return binaryCell(response, StandardCharsets.UTF_8);
    }

    /** The one cell of a binary result; a string's bytes read in {@code charset}. */
    static String binaryCell(List<byte[]> response, java.nio.charset.Charset charset) {
        byte[] column = RawClient.payload(response.get(1));
        int type = column[column.length - 6] & 0xFF; // ... type(1) flags(2) decimals(1) filler(2)
        byte[] row = RawClient.payload(response.get(response.size() - 2));
        if ((row[1] & 0x04) != 0) {
            return null; // NULL bitmap: binary rows offset the bits by 2
        }
        if (type == 0x08) {
            long value = 0;
            for (int i = 9; i >= 2; i--) {
                value = value << 8 | (row[i] & 0xFF);
            }
            return Long.toString(value);
        }
        return new String(row, 3, row[2] & 0xFF, charset);
    }

    static List<byte[]> prepare(RawClient client, String sql) throws IOException {
        return client.command(0x16, sql.getBytes(StandardCharsets.UTF_8), ResponseKind.PREPARE);
    }

    static long statementId(List<byte[]> prepareResponse) {
        byte[] ok = prepareResponse.get(0);
        return (ok[5] & 0xFFL) | (ok[6] & 0xFFL) << 8 | (ok[7] & 0xFFL) << 16 | (ok[8] & 0xFFL) << 24;
    }

    /** COM_STMT_EXECUTE with one INT parameter whose type the client bound before (new-params-bound 0). */
    static List<byte[]> executeReusingTypes(RawClient client, long id, int param) throws IOException {
        byte[] payload = {(byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24), 0, 1, 0, 0, 0,
                0, 0, (byte) param, (byte) (param >> 8), (byte) (param >> 16), (byte) (param >> 24)};
        return client.command(0x17, payload, ResponseKind.QUERY);
    }

    /** COM_STMT_EXECUTE with one INT parameter, types bound. */
    static List<byte[]> execute(RawClient client, long id, int param) throws IOException {
        return execute(client, id, param, 0);
    }

    static List<byte[]> execute(RawClient client, long id, int param, int flags) throws IOException {
        byte[] payload = {(byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24), (byte) flags, 1, 0, 0,
                0,
                0, 1, 3, 0, (byte) param, (byte) (param >> 8), (byte) (param >> 16), (byte) (param >> 24)};
        return client.command(0x17, payload, ResponseKind.QUERY);
    }
}
