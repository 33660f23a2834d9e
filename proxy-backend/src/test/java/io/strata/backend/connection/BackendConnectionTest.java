package io.strata.backend.connection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A backend connection's cache of the statements prepared on it. */
class BackendConnectionTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final BackendConnection connection = new BackendConnection(channel, "ds", 0, 0, 7, "10.11.0-MariaDB",
            "sbtest");

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    private static BackendStatement prepared(long id) {
        return new BackendStatement(id, 1, 1, new byte[0]);
    }

    @Test
    void aStatementIsFoundByItsSqlUntilItIsForgotten() {
        BackendStatement statement = prepared(1);
        connection.statement("SELECT c FROM sbtest1 WHERE id=?", statement);

        assertSame(statement, connection.statement("SELECT c FROM sbtest1 WHERE id=?"));
        assertNull(connection.statement("SELECT c FROM sbtest2 WHERE id=?"));

        connection.forgetStatement("SELECT c FROM sbtest1 WHERE id=?");
        assertNull(connection.statement("SELECT c FROM sbtest1 WHERE id=?"));
        assertClosedOnTheServer(1);
    }

    @Test
    void aFullCacheClosesTheStatementUsedLongestAgoOnTheServer() {
        for (int i = 0; i < BackendConnection.MAX_STATEMENTS; i++) {
            connection.statement("SELECT " + i, prepared(i + 1));
        }
        assertNotNull(connection.statement("SELECT 0")); // the first prepared, but used just now

        connection.statement("SELECT new", prepared(1000));

        assertNull(connection.statement("SELECT 1"), "the least recently used statement goes");
        assertNotNull(connection.statement("SELECT 0"));
        assertNotNull(connection.statement("SELECT new"));
        assertClosedOnTheServer(2);
        assertNull(channel.readOutbound(), "one statement closed, no more");
    }

    @Test
    void aRememberedStatementIsHeldUntilItLeavesThisConnectionsCache() {
        BackendConnection other = new BackendConnection(new EmbeddedChannel(), "ds", 0, 0, 8, "10.11.0-MariaDB",
                "sbtest");
        BackendStatement statement = prepared(1);
        assertFalse(connection.holds(statement), "not cached yet");

        connection.statement("SELECT 1", statement);
        assertTrue(connection.holds(statement));
        assertFalse(other.holds(statement), "another connection's statement is not this one's");

        BackendStatement replacement = prepared(2);
        connection.statement("SELECT 1", replacement);
        assertFalse(connection.holds(statement), "replaced for the same SQL");
        assertTrue(connection.holds(replacement));
        assertClosedOnTheServer(1); // not left to count against max_prepared_stmt_count

        connection.forgetStatement("SELECT 1");
        assertFalse(connection.holds(replacement), "forgotten");
        assertClosedOnTheServer(2);

        BackendStatement again = prepared(3);
        connection.statement("SELECT 1", again);
        connection.resetState();
        assertFalse(connection.holds(again), "COM_RESET_CONNECTION closed it on the server");
    }

    /**
     * The server read a statement's literals in the character set its connection had, and describes its columns in
     * it: a session of another set prepares it anew (a literal 'ł' came back as '?' to a latin1 session). A session
     * that prepared it in the first set still executes it after the connection took another.
     */
    @Test
    void aStatementPreparedInAnotherCharacterSetIsNotUsed() {
        BackendStatement utf8 = prepared(1);
        connection.statement("SELECT 'ł'", utf8);
        ParseState parsedIn = utf8.parsedIn();

        connection.names("latin1");
        assertNull(connection.statement("SELECT 'ł'"), "its literal was read as utf8mb4");
        assertSame(utf8, connection.statement("SELECT 'ł'", parsedIn), "executed as it was parsed");
        assertTrue(connection.holds(utf8));
        assertNull(connection.statement("SELECT 'ł'", connection.parseState()));

        connection.names(BackendConnector.DEFAULT_CHARSET);
        assertSame(utf8, connection.statement("SELECT 'ł'"));
        connection.variables().put("character_set_results", null); // MySQL Connector/J's
        assertNull(connection.statement("SELECT 'ł'"), "its columns were described in utf8mb4");
        assertSame(utf8, connection.statement("SELECT 'ł'", parsedIn), "an execute describes them anew");
        connection.variables().clear();
        connection.variables().put("collation_connection", "utf8mb4_bin");
        assertNull(connection.statement("SELECT 'ł'"), "its literal has another collation");
        assertNull(connection.statement("SELECT 'ł'", connection.parseState()));
    }

    /** The server parsed a statement in its connection's sql_mode: under ANSI_QUOTES "q" is a column. */
    @Test
    void aStatementPreparedInAnotherSqlModeIsNotUsed() {
        BackendStatement plain = prepared(1);
        connection.statement("SELECT \"q\"", plain);
        ParseState parsedIn = plain.parsedIn();

        connection.variables().put("sql_mode", "ANSI_QUOTES");
        assertNull(connection.statement("SELECT \"q\""), "it was parsed with \"q\" a string");
        assertSame(plain, connection.statement("SELECT \"q\"", parsedIn), "a session that prepared it so runs it");
        BackendStatement ansi = prepared(2);
        connection.statement("SELECT \"q\"", ansi);
        assertSame(ansi, connection.statement("SELECT \"q\""));

        connection.variables().clear();
        assertTrue(parsedIn.same(connection.parseState()));
        assertSame(plain, connection.statement("SELECT \"q\""), "back in the server's own sql_mode");
    }

    /**
     * Two sessions on one connection that use one SQL in two sql_modes each keep their statement: neither replaces
     * the other's, which would make each execute prepare again. One of the same state does replace it.
     */
    @Test
    void statementsOfOneSqlInOtherParseStatesStandSideBySide() {
        BackendStatement plain = preparedIn(null, "SELECT \"q\"", 1);
        BackendStatement ansi = preparedIn("ANSI_QUOTES", "SELECT \"q\"", 2);

        assertTrue(connection.holds(plain));
        assertTrue(connection.holds(ansi));
        assertSame(plain, connection.statement("SELECT \"q\"", plain.parsedIn()));
        assertSame(ansi, connection.statement("SELECT \"q\"", ansi.parsedIn()));
        assertNull(channel.readOutbound(), "nothing closed");

        BackendStatement ansiAgain = prepared(3);
        connection.statement("SELECT \"q\"", ansiAgain);
        assertFalse(connection.holds(ansi), "replaced by one of the same state");
        assertTrue(connection.holds(plain));
        assertClosedOnTheServer(2);

        connection.forgetStatement("SELECT \"q\"");
        assertFalse(connection.holds(plain));
        assertFalse(connection.holds(ansiAgain));
        assertClosedOnTheServer(3);
        assertClosedOnTheServer(1);
    }

    @Test
    void oneSqlKeepsAFewParseStatesClosingTheOneUsedLongestAgo() {
        BackendStatement[] modes = new BackendStatement[BackendConnection.MAX_PARSE_STATES + 1];
        for (int i = 0; i < modes.length - 1; i++) {
            modes[i] = preparedIn("MODE" + i, "SELECT 1", i + 1);
        }
        assertTrue(connection.holds(modes[0])); // the first, used again just now
        modes[4] = preparedIn("MODE4", "SELECT 1", 5);

        assertFalse(connection.holds(modes[1]), "used longest ago");
        assertClosedOnTheServer(2);
        for (int i : new int[] {0, 2, 3, 4}) {
            assertTrue(connection.holds(modes[i]), "mode " + i);
        }
    }

    @Test
    void aFullCacheCountsEveryParseStateAndEvictsFromTheMiddleOfOne() {
        BackendStatement plain = preparedIn(null, "SELECT 0", 1);
        BackendStatement ansi = preparedIn("ANSI_QUOTES", "SELECT 0", 2);
        BackendStatement traditional = preparedIn("TRADITIONAL", "SELECT 0", 3);
        assertTrue(connection.holds(plain));
        assertTrue(connection.holds(traditional)); // ansi, between them in the chain, is used longest ago
        for (int i = 1; i <= BackendConnection.MAX_STATEMENTS - 3; i++) {
            connection.statement("SELECT " + i, prepared(i + 100));
        }
        assertNull(channel.readOutbound(), "exactly full");

        connection.statement("SELECT new", prepared(1000));

        assertFalse(connection.holds(ansi));
        assertClosedOnTheServer(2);
        assertTrue(connection.holds(plain));
        assertSame(traditional, connection.statement("SELECT 0"));
    }

    @Test
    void aRememberedStatementIsNotHeldOnceEvicted() {
        BackendStatement first = prepared(1);
        connection.statement("SELECT 0", first);
        for (int i = 1; i <= BackendConnection.MAX_STATEMENTS; i++) {
            connection.statement("SELECT " + i, prepared(i + 1));
        }

        assertFalse(connection.holds(first), "the least recently used statement went");
        assertClosedOnTheServer(1);
    }

    @Test
    void holdingCountsAsAUseForEviction() {
        BackendStatement first = prepared(1);
        connection.statement("SELECT 0", first);
        for (int i = 1; i < BackendConnection.MAX_STATEMENTS; i++) {
            connection.statement("SELECT " + i, prepared(i + 1));
        }
        assertTrue(connection.holds(first)); // used just now, as by a remembered execute

        connection.statement("SELECT new", prepared(1000));

        assertTrue(connection.holds(first));
        assertNull(connection.statement("SELECT 1"), "the one used longest ago went instead");
        assertClosedOnTheServer(2);
    }

    /** Statements forgotten, in every parse state, or closed by a reset no longer count against the bound. */
    @Test
    void forgottenAndResetStatementsLeaveRoomInTheCache() {
        preparedIn(null, "SELECT 0", 1);
        preparedIn("ANSI_QUOTES", "SELECT 0", 2);
        connection.forgetStatement("SELECT 0");
        assertClosedOnTheServer(2);
        assertClosedOnTheServer(1);
        for (int i = 0; i < 3; i++) {
            connection.statement("SELECT reset " + i, prepared(10 + i));
        }
        connection.resetState();

        for (int i = 0; i < BackendConnection.MAX_STATEMENTS; i++) {
            connection.statement("SELECT " + i, prepared(100 + i));
        }
        assertNull(channel.readOutbound(), "exactly full, nothing evicted");
        assertNotNull(connection.statement("SELECT 0"));
    }

    /** A statement prepared with the connection in {@code sqlMode} (null: the server's own), as cached there. */
    private BackendStatement preparedIn(String sqlMode, String sql, long id) {
        if (sqlMode == null) {
            connection.variables().remove("sql_mode");
        } else {
            connection.variables().put("sql_mode", sqlMode);
        }
        BackendStatement statement = prepared(id);
        connection.statement(sql, statement);
        return statement;
    }

    /** The next packet the server got is COM_STMT_CLOSE for this statement id. */
    private void assertClosedOnTheServer(long id) {
        ByteBuf close = channel.readOutbound();
        assertNotNull(close, "a COM_STMT_CLOSE was sent");
        byte[] expected = {5, 0, 0, 0, 0x19, (byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24)};
        assertArrayEquals(expected, ByteBufUtil.getBytes(close));
        close.release();
    }
}
