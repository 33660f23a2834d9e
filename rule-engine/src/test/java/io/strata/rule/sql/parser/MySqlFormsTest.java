package io.strata.rule.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text JSqlParser is given for MySQL forms it cannot read: the same length, everything else in place (the
 * expected texts below are shown with the blanks collapsed).
 */
class MySqlFormsTest {

    private static String rewrite(String sql) {
        String rewritten = MySqlForms.rewrite(SqlTokens.of(sql));
        assertEquals(sql.length(), rewritten.length(), "positions kept");
        return rewritten;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        SELECT * FROM t USE INDEX (i) WHERE a = 1                | SELECT * FROM t WHERE a = 1
        SELECT * FROM t FORCE KEY FOR GROUP BY (i, j) GROUP BY a | SELECT * FROM t GROUP BY a
        SELECT * FROM t IGNORE INDEX FOR JOIN (PRIMARY), u       | SELECT * FROM t , u
        SELECT * FROM t LOCK IN SHARE MODE                       | SELECT * FROM t FOR SHARE
        DELETE FROM t1, t2 USING t1 JOIN t2                      | DELETE t1, t2 FROM t1 JOIN t2
        DELETE QUICK a.*, `b`.* FROM t1 a JOIN t2 b              | DELETE QUICK a , `b` FROM t1 a JOIN t2 b
        REPLACE DELAYED INTO t VALUES (1)                        | REPLACE INTO t VALUES (1)
        """)
    void formsTheLibraryLacksBecomeTheirEquivalents(String sql, String parsed) {
        assertEquals(parsed, rewrite(sql).replaceAll(" +", " ").strip());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "SELECT * FROM t WHERE id = ?",
        "USE index",
        "INSERT IGNORE INTO t VALUES (1)",
        "SELECT 'USE INDEX (i)', `LOCK IN SHARE MODE` FROM t /* FORCE INDEX (i) */",
        "DELETE FROM t WHERE a IN (SELECT a FROM u JOIN v USING (id))",
        "SELECT * FROM t1 JOIN t2 USING (id)",
    })
    void otherTextsKeepTheirInstance(String sql) {
        assertSame(sql, MySqlForms.rewrite(SqlTokens.of(sql)));
    }
}
