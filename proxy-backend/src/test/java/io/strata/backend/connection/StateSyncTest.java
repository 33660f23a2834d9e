package io.strata.backend.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
                StateSync.setVariables(variables("time_zone", "+01:00"), variables("sql_mode", "ANSI")));
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
                StateSync.setVariables(StateSync.withoutNames(left), variables()));
    }

    @Test
    void aConnectionWithAnotherSessionsCollationIsNotInSyncAndGetsSetNamesFirst() {
        connection.variables().put("collation_connection", "utf8mb4_bin");

        assertFalse(StateSync.inSync(connection, "sbtest", "utf8mb4", true, variables()));
        StateSync.sync(connection, "sbtest", "utf8mb4", true, variables());

        ByteBuf sent = channel.readOutbound();
        try {
            String text = sent.toString(StandardCharsets.UTF_8);
            assertTrue(text.endsWith("SET NAMES utf8mb4"), text);
        } finally {
            sent.release();
        }
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

        connection.charset("latin1");

        assertEquals(variables("time_zone", "+01:00"), connection.variables());
    }
}
