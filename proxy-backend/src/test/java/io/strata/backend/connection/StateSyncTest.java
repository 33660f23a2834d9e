package io.strata.backend.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a borrowed connection is made equal to a session: which statements that takes. */
class StateSyncTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final BackendConnection connection = new BackendConnection(channel, "ds", 0, 0, 7, "11.4.5-MariaDB",
            "sbtest");

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    /** A value may be NULL (MySQL Connector/J sets character_set_results to NULL): no Map.of. */
    private static Map<String, String> variables(String... namesAndValues) {
        Map<String, String> variables = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            variables.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return variables;
    }

    @Test
    void variablesAnotherSessionLeftGoBackToDefault() {
        assertEquals("SET SESSION time_zone = DEFAULT, SESSION sql_mode = 'ANSI'",
                StateSync.setVariables(variables("time_zone", "+01:00"), variables("sql_mode", "ANSI"), false));
    }

    /**
     * The DEFAULT of character_set_results and collation_connection is the server's global value (latin1 on
     * MariaDB), not the session's character set: only SET NAMES undoes them.
     */
    @Test
    void aResultCharsetAnotherSessionLeftIsUndoneBySetNames() {
        Map<String, String> left = variables("character_set_results", null, "time_zone", "+01:00");

        assertTrue(StateSync.leftByNames(left, variables()));
        assertFalse(StateSync.leftByNames(left, variables("character_set_results", null)));
        assertFalse(StateSync.leftByNames(variables("time_zone", "+01:00"), variables()));
        assertEquals(variables("time_zone", "+01:00"), StateSync.withoutNames(left));
        assertEquals("SET SESSION time_zone = DEFAULT",
                StateSync.setVariables(StateSync.withoutNames(left), variables(), false));
    }

    /**
     * A variable with two names is set and read under the one the server knows without a deprecation warning (the
     * warning would stay for the session's SHOW WARNINGS): the transaction_ names on MariaDB 11.1+ and MySQL, the
     * tx_ ones on older MariaDB.
     */
    @Test
    void variablesWithTwoNamesGoByTheNameTheServerPrefers() {
        Map<String, String> wanted = variables("tx_isolation", "READ-COMMITTED");
        Map<String, String> left = variables("transaction_read_only", "1");

        assertEquals("SET SESSION transaction_read_only = DEFAULT, SESSION transaction_isolation = 'READ-COMMITTED'",
                StateSync.setVariables(left, wanted, true));
        assertEquals("SET SESSION tx_read_only = DEFAULT, SESSION tx_isolation = 'READ-COMMITTED'",
                StateSync.setVariables(left, wanted, false));
        assertEquals("SELECT @@SESSION.transaction_read_only, @@SESSION.time_zone",
                StateSync.selectVariables(List.of("tx_read_only", "time_zone"), true));
        assertEquals("SELECT @@SESSION.tx_read_only",
                StateSync.selectVariables(List.of("transaction_read_only"), false));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"11.4.5-MariaDB, true", "11.1.2-MariaDB-log, true", "5.5.5-10.11.6-MariaDB-0+deb12u1, false",
        "11.0.6-MariaDB, false", "8.0.36, true", "8.4.2-commercial, true", "5.7.44-log, true", "5.7.19, false",
        "5.6.51, false", "strange, false"})
    void whichServersKnowTheTransactionNames(String version, boolean known) {
        assertEquals(known, StateSync.transactionNames(version));
        assertEquals(known, new BackendConnection(channel, "ds", 0, 0, 7, version, "s").transactionNames());
    }

    @Test
    void aConnectionWithAnotherSessionsCollationIsNotInSyncAndGetsSetNamesFirst() {
        connection.variables().put("collation_connection", "utf8mb4_bin");

        assertFalse(StateSync.inSync(connection, "sbtest", "utf8mb4", true, true, variables()));
        StateSync.sync(connection, "sbtest", "utf8mb4", true, true, variables());

        ByteBuf sent = channel.readOutbound();
        try {
            String text = sent.toString(StandardCharsets.UTF_8);
            assertTrue(text.endsWith("SET NAMES utf8mb4"), text);
        } finally {
            sent.release();
        }
    }

    /**
     * A session with autocommit off borrows a connection between its transactions: the connection is given the
     * session's autocommit, and follows it from the OK's status flags (no AUTOCOMMIT bit there).
     */
    @Test
    void aSessionWithAutocommitOffGetsItOnTheConnectionItBorrows() {
        assertTrue(connection.autocommit());
        assertFalse(StateSync.inSync(connection, "sbtest", "utf8mb4", true, false, variables()));

        var synced = StateSync.sync(connection, "sbtest", "utf8mb4", true, false, variables());
        ByteBuf sent = channel.readOutbound();
        try {
            assertTrue(sent.toString(StandardCharsets.UTF_8).endsWith("SET autocommit = 0"));
        } finally {
            sent.release();
        }
        // OK: header, affected rows 0, insert id 0, status 0x0000 (autocommit off, no transaction), warnings 0
        connection.onPackets(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {7, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}));

        assertTrue(synced.isDone() && !synced.isCompletedExceptionally());
        assertFalse(connection.autocommit());
        assertTrue(StateSync.inSync(connection, "sbtest", "utf8mb4", true, false, variables()));
    }

    /** MariaDB 11.1+ knows tx_isolation and transaction_isolation both, as one variable: the last one set holds. */
    @Test
    void aVariableReadUnderOneNameDropsItsOtherName() {
        Map<String, String> session = variables("tx_isolation", "SERIALIZABLE", "time_zone", "+01:00");

        StateSync.follow(session, variables("transaction_isolation", "READ-COMMITTED"));

        assertEquals(variables("transaction_isolation", "READ-COMMITTED", "time_zone", "+01:00"), session);
    }

    @Test
    void setNamesDropsTheVariablesItSets() {
        connection.variables().putAll(variables("collation_connection", "utf8mb4_bin", "character_set_results", null,
                "time_zone", "+01:00"));

        connection.names("latin1");

        assertEquals(variables("time_zone", "+01:00"), connection.variables());
    }
}
