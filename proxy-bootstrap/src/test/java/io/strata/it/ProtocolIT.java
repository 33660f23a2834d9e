package io.strata.it;

import io.strata.backend.relay.ResponseKind;
import io.strata.config.ServerConfig;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What crosses the wire through Strata is what MariaDB itself sends, byte for byte. */
class ProtocolIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws Exception {
        Backend.allTypesTable();
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    private static RawClient direct(int capabilities) throws IOException {
        return RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA, capabilities);
    }

    private static RawClient proxied(int capabilities) throws IOException {
        return RawClient.connect(strata.port(), "root", "root", "it", capabilities);
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {true, false})
    void everyColumnTypeIsByteIdenticalToMariaDb(boolean deprecateEof) throws IOException {
        int caps = RawClient.capabilities(deprecateEof);
        assertSameResponse(caps, "SELECT * FROM all_types ORDER BY id");
        assertSameResponse(caps, "SELECT 1/0, NULL, 'x' AS alias, CAST(1 AS UNSIGNED), 1.5e300");
    }

    /**
     * The answers Strata gives itself (the session's own counts and id) are MariaDB's, byte for byte, from a new
     * session on and after COM_RESET_CONNECTION. DATABASE() is the logical database, not the backend's schema: its
     * column definition is the server's, its value Strata's.
     */
    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {true, false})
    void localAnswersAreByteIdenticalToMariaDb(boolean deprecateEof) throws IOException {
        int caps = RawClient.capabilities(deprecateEof);
        try (RawClient direct = direct(caps); RawClient proxied = proxied(caps)) {
            assertSameLocalAnswers(direct, proxied, LOCAL_ANSWERS, "it");
        }
    }

    /** The session's counts, id and database after statements of each kind, and after COM_RESET_CONNECTION. */
    static final List<String> LOCAL_ANSWERS = List.of("SELECT ROW_COUNT()", "SELECT LAST_INSERT_ID()",
            "SELECT DATABASE()", "DO 1", "SHOW WARNINGS", "SELECT ROW_COUNT()", "SELECT 1 UNION SELECT 2",
            "SHOW WARNINGS", "SELECT FOUND_ROWS()", "SELECT 3", "RESET", "SELECT ROW_COUNT()",
            "SELECT 1 UNION SELECT 2", "RESET", "SELECT FOUND_ROWS()", "SELECT 1 UNION SELECT 2",
            "SHOW COUNT(*) WARNINGS", "SELECT FOUND_ROWS()");

    /**
     * Runs each step on both clients ({@code RESET}: COM_RESET_CONNECTION) and compares the responses packet for
     * packet, but for DATABASE()'s row, which through Strata must be {@code database}.
     */
    static void assertSameLocalAnswers(RawClient direct, RawClient proxied, List<String> steps, String database)
            throws IOException {
        for (String sql : steps) {
            if (sql.equals("RESET")) {
                for (RawClient client : List.of(direct, proxied)) {
                    client.command(CommandType.COM_RESET_CONNECTION.code(), new byte[0], ResponseKind.STATUS);
                }
                continue;
            }
            List<byte[]> expected = new java.util.ArrayList<>(direct.query(sql));
            List<byte[]> actual = new java.util.ArrayList<>(proxied.query(sql));
            if (sql.equals("SELECT DATABASE()")) {
                assertEquals(database, SessionIT.text(actual.subList(actual.size() - 2, actual.size())));
                expected.remove(expected.size() - 2); // the row
                actual.remove(actual.size() - 2);
            }
            PreparedStatementIT.assertSamePackets(expected, actual, sql);
        }
    }

    /**
     * The collation a client names in its handshake is its session's, as on MariaDB: in the character set variables,
     * in comparisons ('a' = 'A' is 0 under utf8mb4_bin) and in every text column's definition, DATABASE()'s
     * included; after COM_RESET_CONNECTION too. 51 is cp1251_general_ci, 83 utf8mb3_bin.
     * <p>
     * The JDBC executor's connections speak utf8mb4 (README: what differs): there the variables read utf8mb4, only a
     * utf8mb4 collation compares (utf8mb3_bin's does not), and a SET's OK carries SESSION_STATE_CHANGED.
     */
    @ParameterizedTest(name = "collation {0}")
    @ValueSource(ints = {8, 46, 224, 51, 83})
    void theHandshakesCollationIsTheSessionsAsOnMariaDb(int collation) throws IOException {
        List<String> steps;
        if (StrataFixture.executor().equals(ServerConfig.RELAY)) {
            String session = "SELECT @@character_set_client, @@collation_connection, @@character_set_results, "
                    + "'a' = 'A', 'x'";
            steps = List.of(session, "SELECT DATABASE()", "RESET", session, "SELECT DATABASE()",
                    "SET NAMES latin1 COLLATE latin1_bin", "SELECT DATABASE()", "SET character_set_results = NULL",
                    "SELECT DATABASE()", "RESET", session);
        } else {
            String session = collation == 46 || collation == 224 ? "SELECT 'a' = 'A', 'x'"
                    : collation == 83 ? "SELECT 1" : "SELECT 'x'";
            steps = List.of(session, "SELECT DATABASE()", "RESET", session, "SELECT DATABASE()");
        }
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA,
                RawClient.CAPABILITIES, collation);
             RawClient proxied = RawClient.connect(strata.port(), "root", "root", "it", RawClient.CAPABILITIES,
                     collation)) {
            assertSameLocalAnswers(direct, proxied, steps, "it");
        }
    }

    @Test
    void errorsAreByteIdentical() throws IOException {
        assertSameResponse(RawClient.CAPABILITIES, "SELECT * FROM no_such_table");
        assertSameResponse(RawClient.CAPABILITIES, "SELEKT 1");
    }

    /**
     * Each result of several statements with its own status flags (NO_INDEX_USED for a table scan, say), and the
     * results before a failing statement, then its error.
     */
    @Test
    void multipleResultsAreByteIdentical() throws IOException {
        assertSameResponse(RawClient.CAPABILITIES, "SELECT 1; SELECT 'two', 2; DO 1; SELECT * FROM all_types");
        assertSameResponse(RawClient.CAPABILITIES, "SELECT 1; SELECT * FROM no_such_table; SELECT 3");
    }

    @Test
    void fieldListIsRelayed() throws IOException {
        byte[] table = "all_types\0".getBytes(StandardCharsets.UTF_8);
        try (RawClient direct = direct(RawClient.CAPABILITIES); RawClient proxied = proxied(RawClient.CAPABILITIES)) {
            PreparedStatementIT.assertSamePackets(direct.command(0x04, table, ResponseKind.FIELD_LIST),
                    proxied.command(0x04, table, ResponseKind.FIELD_LIST), "COM_FIELD_LIST");
        }
    }

    @Test
    void statisticsComeFromTheBackend() throws IOException {
        try (RawClient client = proxied(RawClient.CAPABILITIES)) {
            List<byte[]> response = client.command(0x09, new byte[0], ResponseKind.SINGLE_PACKET);
            assertTrue(new String(RawClient.payload(response.get(0)), StandardCharsets.UTF_8).startsWith("Uptime:"));
        }
    }

    @Test
    void anUnknownCommandGets1047AndTheConnectionStaysUsable() throws IOException {
        try (RawClient client = proxied(RawClient.CAPABILITIES)) {
            ErrPacket err = RawClient.error(client.command(0x60, new byte[0], ResponseKind.STATUS));
            assertNotNull(err);
            assertEquals(1047, err.errorCode());
            assertEquals(0x00, RawClient.payload(client.command(0x0E, new byte[0], ResponseKind.STATUS).get(0))[0]);
            assertEquals(1, client.query("SELECT 1").size() > 1 ? 1 : 0);
        }
    }

    @Test
    void setOptionTurnsMultiStatementsOffAndOn() throws IOException {
        try (RawClient client = proxied(RawClient.CAPABILITIES)) {
            List<byte[]> off = client.command(0x1B, new byte[] {1, 0}, ResponseKind.STATUS);
            assertEquals(0xFE, RawClient.payload(off.get(0))[0] & 0xFF, "EOF (as OK) answers COM_SET_OPTION");
            ErrPacket refused = RawClient.error(client.query("SELECT 1; SELECT 2"));
            assertNotNull(refused, "multi-statements are off");
            assertEquals(1064, refused.errorCode());
            client.command(0x1B, new byte[] {0, 0}, ResponseKind.STATUS);
            assertTrue(client.query("SELECT 1; SELECT 2").size() > 6, "both results");
        }
    }

    @Test
    void processKillClosesAnotherSessionOfTheSameUser() throws IOException {
        try (RawClient victim = proxied(RawClient.CAPABILITIES); RawClient killer = proxied(RawClient.CAPABILITIES)) {
            long id = victim.greeting.connectionId();
            byte[] argument = {(byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24)};
            List<byte[]> ok = killer.command(0x0C, argument, ResponseKind.STATUS);
            assertEquals(0x00, RawClient.payload(ok.get(0))[0]);
            assertTrue(victim.isClosedByServer());
            ErrPacket unknown = RawClient.error(killer.command(0x0C, new byte[] {(byte) 0xEE, 0x7F, 0, 0},
                    ResponseKind.STATUS));
            assertEquals(1094, unknown.errorCode());
        }
    }

    @Test
    void truncatedCommandsAreMalformedPacketsAndTheSessionGoesOn() throws IOException {
        try (RawClient client = proxied(RawClient.CAPABILITIES)) {
            for (int command : new int[] {0x17, 0x0C, 0x1B, 0x1C}) { // STMT_EXECUTE, PROCESS_KILL, SET_OPTION, FETCH
                ErrPacket err = RawClient.error(client.command(command, new byte[] {1}, ResponseKind.STATUS));
                assertNotNull(err);
                assertEquals(1835, err.errorCode(), err.message());
                assertTrue(err.message().contains("too short"), err.message());
            }
            assertTrue(client.query("SELECT 1").size() > 1);
        }
    }

    @Test
    void aMalformedHandshakeIsRefusedAndOtherClientsAreServed() throws IOException {
        try (RawClient good = proxied(RawClient.CAPABILITIES)) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", strata.port())) {
                socket.setSoTimeout(10_000);
                var in = socket.getInputStream();
                in.readNBytes(4 + (in.read() & 0xFF) - 1); // rest of greeting (length < 256)
                socket.getOutputStream().write(HexFormat.of().parseHex("05000001ffffffffff"));
                byte[] header = in.readNBytes(4);
                assertEquals(4, header.length);
                byte[] body = in.readNBytes(header[0] & 0xFF);
                assertEquals(0xFF, body[0] & 0xFF, "an ERR packet");
                assertEquals(-1, in.read(), "then the connection closes");
            }
            assertTrue(good.query("SELECT 1").size() > 1);
        }
    }

    @Test
    void aPacketOverMaxAllowedPacketGets1153AtItsHeaderAndOtherClientsAreServed() throws IOException {
        try (StrataFixture small = StrataFixture.start(server -> server.withMaxAllowedPacket(1024),
                ServerConfig.NATIVE_PASSWORD);
             RawClient big = RawClient.connect(small.port(), "root", "root", "it");
             RawClient other = RawClient.connect(small.port(), "root", "root", "it")) {
            // A 1 MiB COM_QUERY's header and its first 1000 bytes only: Strata answers without waiting for (or
            // buffering) the megabyte.
            byte[] start = new byte[4 + 1000];
            start[2] = 0x10; // length 0x100000, sequence id 0
            start[4] = 0x03;
            big.writeRaw(start);

            ErrPacket err = RawClient.error(List.of(big.readPacket()));
            assertNotNull(err);
            assertEquals(1153, err.errorCode(), err.message());
            assertTrue(err.message().contains("1048576") && err.message().contains("1024"), err.message());
            assertThrows(IOException.class, big::readPacket, "then the connection closes");
            assertTrue(other.query("SELECT 1").size() > 1);
        }
    }

    @Test
    void wrongPasswordUnknownDatabaseAndForbiddenDatabase() {
        IOException wrong = assertThrows(IOException.class,
                () -> RawClient.connect(strata.port(), "root", "nope", "it"));
        assertTrue(wrong.getMessage().startsWith("1045 28000 Access denied for user 'root'"), wrong.getMessage());
        IOException unknownUser = assertThrows(IOException.class,
                () -> RawClient.connect(strata.port(), "nobody", "root", "it"));
        assertTrue(unknownUser.getMessage().startsWith("1045 28000"), unknownUser.getMessage());
        IOException unknownDb = assertThrows(IOException.class,
                () -> RawClient.connect(strata.port(), "root", "root", "nope"));
        assertTrue(unknownDb.getMessage().startsWith("1049 42000 Unknown database 'nope'"), unknownDb.getMessage());
        IOException forbidden = assertThrows(IOException.class,
                () -> RawClient.connect(strata.port(), "app", "app", "other"));
        assertTrue(forbidden.getMessage().startsWith("1044 42000"), forbidden.getMessage());
    }

    private static void assertSameResponse(int caps, String sql) throws IOException {
        try (RawClient direct = direct(caps); RawClient proxied = proxied(caps)) {
            PreparedStatementIT.assertSamePackets(direct.query(sql), proxied.query(sql), sql);
        }
    }

}
