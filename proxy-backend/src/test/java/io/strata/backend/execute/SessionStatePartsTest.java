package io.strata.backend.execute;

import io.strata.protocol.ServerStatus;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A session's state, one concern at a time, as the executors drive it statement by statement. */
class SessionStatePartsTest {

    @Nested
    class TransactionAndPinning {
        private final Pinning pinning = new Pinning();

        @Test
        void aTransactionPinsUntilItsServerSaysItEnded() {
            pinning.after(ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT, 0,
                    SqlClassifier.classify("START TRANSACTION READ ONLY"), false);
            assertTrue(pinning.inTransaction());
            assertEquals("START TRANSACTION READ ONLY", pinning.transactionStart(),
                    "a data source the transaction reaches later begins it the same way");

            pinning.after(ServerStatus.AUTOCOMMIT, 0, SqlClassifier.classify("COMMIT"), false);
            assertFalse(pinning.inTransaction());
        }

        @Test
        void warningsAreKeptThroughStatementsThatReadNoTableUntilOneDoes() {
            pinning.after(ServerStatus.AUTOCOMMIT, 1, SqlClassifier.classify("INSERT INTO t VALUES ('x')"), false);
            assertTrue(pinning.keepsWarnings());
            pinning.after(ServerStatus.AUTOCOMMIT, 0, SqlClassifier.classify("SELECT 1"), false);
            assertTrue(pinning.keepsWarnings(), "SELECT 1 leaves the server's warnings as they were");
            pinning.after(ServerStatus.AUTOCOMMIT, 0, SqlClassifier.classify("SELECT * FROM t"), false);
            assertFalse(pinning.keepsWarnings());
        }

        @Test
        void aUserVariableHoldsServerStateUntilTheConnectionIsLost() {
            pinning.after(ServerStatus.AUTOCOMMIT, 0, SqlClassifier.classify("SET @a = 1"), false);
            assertTrue(pinning.holdsServerState());
            pinning.lost();
            assertFalse(pinning.holdsServerState());
            assertTrue(pinning.autocommit());
        }

        @Test
        void perResponseFlagsAreNotTheSessions() {
            pinning.statusFlags(ServerStatus.AUTOCOMMIT | ServerStatus.MORE_RESULTS_EXISTS);
            assertEquals(ServerStatus.AUTOCOMMIT, pinning.statusFlags());
        }
    }

    @Nested
    class InsertIdAndCounts {
        private final SessionCounts counts = new SessionCounts();

        @Test
        void rowCountAndFoundRowsFollowTheSessionsOwnStatements() {
            counts.counted(3, io.strata.backend.relay.ResponseSummary.UNCHANGED);
            counts.counted(io.strata.backend.relay.ResponseSummary.UNCHANGED, 10);
            assertEquals(3, counts.rowCount());
            assertEquals(10, counts.foundRows());
        }

        @Test
        void aConnectionIsToldTheSessionsLastInsertIdOncePerLease() {
            Object connection = new Object();
            counts.inserted(42);
            var reads = SqlClassifier.classify("SELECT LAST_INSERT_ID()");
            assertTrue(counts.needsLastInsertId(reads, connection, 1));
            assertEquals("SET last_insert_id = 42", counts.lastInsertIdStatement());

            counts.lastInsertIdGiven(connection, 1);
            assertFalse(counts.needsLastInsertId(reads, connection, 1));
            assertTrue(counts.needsLastInsertId(reads, connection, 2),
                    "another lease: another session may have inserted there");
            counts.inserted(43);
            assertTrue(counts.needsLastInsertId(reads, connection, 1), "a newer id");
        }

        @Test
        void lastInsertIdOfAnExpressionIsTheServersToAnswer() {
            counts.after(SqlClassifier.classify("SELECT LAST_INSERT_ID(5)"), false);
            assertTrue(counts.lastInsertIdOnServer());
            counts.lost();
            assertFalse(counts.lastInsertIdOnServer());
        }
    }

    @Nested
    class CharacterSetAndVariables {
        private final SessionVariables variables = new SessionVariables();

        @Test
        void theLoginsCollationGivesTheCharacterSetUntilSetNamesChangesIt() {
            variables.login(45); // utf8mb4_general_ci
            assertEquals("utf8mb4", variables.charset());
            variables.variables().put("collation_connection", "utf8mb4_bin");
            variables.variables().put("sql_mode", "ANSI");

            variables.names("latin1");
            assertEquals("latin1", variables.charset());
            assertFalse(variables.variables().containsKey("collation_connection"), "SET NAMES sets it anew");
            assertEquals("ANSI", variables.variables().get("sql_mode"));

            variables.reset();
            assertEquals("utf8mb4", variables.charset());
            assertTrue(variables.variables().isEmpty());
        }

        @Test
        void aSessionSetReadOnlyIsReadOnly() {
            variables.login(45);
            assertFalse(variables.readOnly());
            variables.variables().put("transaction_read_only", "ON");
            assertTrue(variables.readOnly());
        }
    }

    @Nested
    class PreparedStatementIds {
        private final PreparedStatements statements = new PreparedStatements();

        @Test
        void idsAreNeverReusedAndTheLastPreparedHasMariaDbsSpecialId() {
            PreparedStatement first = statement(statements.nextId());
            PreparedStatement second = statement(statements.nextId());
            statements.prepared(first);
            statements.prepared(second);

            assertSame(second, statements.get(ComStmtExecute.LAST_PREPARED));
            statements.close(second);
            assertNull(statements.get(2));
            assertEquals(3, statements.nextId());

            statements.prepareFailed();
            assertNull(statements.get(ComStmtExecute.LAST_PREPARED), "a failed prepare leaves none to run");
        }

        @Test
        void anOpenCursorLivesUntilClosedOrLost() {
            PreparedStatement statement = statement(statements.nextId());
            statements.prepared(statement);
            statements.cursor(statement, true);
            assertTrue(statements.anyCursorOpen());
            statements.cursorsLost();
            assertFalse(statements.anyCursorOpen());
            assertSame(statement, statements.get(1), "the statement itself stays");
        }

        private PreparedStatement statement(int id) {
            return new PreparedStatement(id, "SELECT ?", SqlClassifier.classify("SELECT ?"), "shop", null, null, 1, 1);
        }
    }
}
