package io.strata.frontend.command;

import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which statements ask Strata's local answers before they are routed, and which go straight to their route. */
class LocalAnswerCheckTest {

    @Test
    void statementsStrataMayAnswerItselfAreLookedAt() {
        for (String sql : new String[]{"SELECT 1", "SELECT @@strata_read_from", "SELECT DATABASE()",
            "SELECT CONNECTION_ID()", "SET strata_read_from = 'primary'", "SHOW PROCESSLIST",
            "SHOW STRATA DATA SOURCES", "FLUSH STRATA DIGESTS", "SHOW DATABASES",
            "SELECT id, user, command FROM information_schema.processlist WHERE id > 3"}) {
            assertTrue(StatementCommands.mayAnswerLocally(SqlClassifier.classify(sql)), sql);
        }
    }

    @Test
    void anOltpLoadsStatementsGoStraightToTheirRoute() {
        for (String sql : new String[]{"SELECT c FROM sbtest1 WHERE id = 7",
            "SELECT c FROM sbtest1 WHERE id BETWEEN 1 AND 100 ORDER BY c", "INSERT INTO t VALUES (1)",
            "UPDATE t SET k = k + 1 WHERE id = 3", "DELETE FROM t WHERE id = 3", "BEGIN", "COMMIT"}) {
            assertFalse(StatementCommands.mayAnswerLocally(SqlClassifier.classify(sql)), sql);
        }
    }
}
