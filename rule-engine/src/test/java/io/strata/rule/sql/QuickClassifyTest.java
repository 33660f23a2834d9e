package io.strata.rule.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one-pass judgement of common statements ({@link SqlClassifier.Quick}): where it answers, its answers are the
 * lexer's, tokens included; everything else it leaves to the lexer.
 */
class QuickClassifyTest {

    /** The quick answer, checked field by field against the lexer's (tokens are lexed when compared). */
    private static SqlStatementInfo sameAsLexer(String sql) {
        SqlStatementInfo quick = SqlClassifier.Quick.classify(sql);
        SqlStatementInfo lexed = SqlClassifier.lexed(sql);
        if (quick != null) {
            assertEquals(lexed.kind(), quick.kind(), sql);
            assertEquals(lexed.multiStatement(), quick.multiStatement(), sql);
            assertEquals(lexed.pinsSession(), quick.pinsSession(), sql);
            assertEquals(lexed.charset(), quick.charset(), sql);
            assertEquals(lexed.trackedVariables(), quick.trackedVariables(), sql);
            assertEquals(lexed.hint(), quick.hint(), sql);
            assertEquals(lexed.tokens().size(), quick.tokens().size(), sql);
            assertEquals(lexed.tokens(), quick.tokens(), sql);
            assertEquals(lexed.statementTokens(), quick.statementTokens(), sql);
            assertEquals(lexed.readOnly(), quick.readOnly(), sql);
            assertEquals(lexed, quick, sql);
        }
        return quick;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT c FROM sbtest1 WHERE id=5021",
        "SELECT c FROM sbtest1 WHERE id BETWEEN 5021 AND 5120",
        "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5021 AND 5120",
        "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5021 AND 5120 ORDER BY c",
        "UPDATE sbtest1 SET k=k+1 WHERE id=5021",
        "UPDATE sbtest1 SET c='83868641912-28773972837-60736120486' WHERE id=5021",
        "DELETE FROM sbtest1 WHERE id=5021",
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5021, 4993, 'a-b', 'c-d')",
        "REPLACE INTO t VALUES (1, 'it''s', \"q\\\"uote\", `na``me`)",
        "BEGIN",
        "COMMIT",
        "  select\t*\nfrom t where a = -1 and b = 2/3 and c = 2*/3",
        "Select `GET_LOCK`, 'FOUND_ROWS', \"@x\", 'a;b' From t",
        "SELECT t.c, 1.5e3, $x, _y FROM db.t FOR UPDATE",
        "SELECT strata_read_from",
        "SELECT DATABASE()",
        "INSERT INTO t SELECT * FROM u",
        "SELECT 'it\\'s' FROM t",
        "COMMIT AND CHAIN",
        "SELECT 'unterminated",
        "SELECT 'ends in a backslash\\",
    })
    void commonStatementsAreJudgedWithoutTheLexerAsTheLexerJudgesThem(String sql) {
        assertNotNull(sameAsLexer(sql), "left to the lexer: " + sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT @a", "SELECT 1; SELECT 2", "SELECT 1;", "/* strata:replica */ SELECT 1", "SELECT 1 -- note",
        "SELECT 1 # note", "SELECT /*! 1 */", "SELECT GET_LOCK('l', 1)", "SELECT SQL_CALC_FOUND_ROWS * FROM t",
        "SELECT FOUND_ROWS()", "SELECT ROW_COUNT()", "SELECT LAST_INSERT_ID()",
        "INSERT INTO c VALUES (LAST_INSERT_ID(), 1)", "SELECT naïve FROM t", "SET a = 1",
        "USE db", "SHOW TABLES", "WITH x AS (SELECT 1) SELECT * FROM x", "(SELECT 1)", "ROLLBACK TO s", "",
        "   ", "SELECT1", "START TRANSACTION", "SELECT \\N", "SELECT NEXTVAL(s)", "SELECT lastval(s)",
        "INSERT INTO t VALUES (NEXT VALUE FOR s)", "SELECT PREVIOUS VALUE FOR s",
    })
    void theRestIsLeftToTheLexer(String sql) {
        assertNull(SqlClassifier.Quick.classify(sql), sql);
    }

    @Test
    void tokensAreLexedOnlyWhenRead() {
        SqlStatementInfo info = SqlClassifier.classify("SELECT c FROM sbtest1 WHERE id=5021");

        assertEquals(8, info.tokens().size()); // counted, not lexed
        assertEquals("sbtest1", info.token(3));
        assertEquals(List.of("SELECT", "c", "FROM", "sbtest1", "WHERE", "id", "=", "5021"), info.tokens());
    }

    @Test
    void longStatementsKeepTheFirstMaxTokensAndAllInTheStatementTokens() {
        assertNotNull(sameAsLexer("SELECT " + "1, ".repeat(40) + "1"));
        SqlStatementInfo info = sameAsLexer("select " + "1, ".repeat(100) + "1");

        assertNotNull(info);
        assertEquals(SqlClassifier.MAX_TOKENS, info.tokens().size());
        assertEquals(202, info.statementTokens().size());
    }

    /** Random statements of the characters that matter to either: the quick answer, when given, is the lexer's. */
    @Test
    void randomStatementsGetTheLexersAnswers() {
        String[] parts = {"SELECT", "select", "INSERT", "BEGIN", "COMMIT", "UPDATE", " ", "\t", "\n", "a", "id", "1",
            "'", "\"", "`", "\\", "''", "-", "--", "/", "*", "*/", "/*", "#", ";", "@", "@@", "(", ")", ",", ".", "=",
            "GET_LOCK", "found_rows", "ROW_COUNT", "SQL_CALC_FOUND_ROWS", "FROM", "é", "$", "_", "?", "NEXTVAL",
            "next value for ", "PREVIOUS VALUE FOR "};
        Random random = new Random(42);
        int judged = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sql = new StringBuilder(random.nextBoolean() ? "SELECT " : parts[random.nextInt(6)]);
            int length = random.nextInt(12);
            for (int j = 0; j < length; j++) {
                sql.append(parts[random.nextInt(parts.length)]);
            }
            if (sameAsLexer(sql.toString()) != null) {
                judged++;
            }
        }
        assertEquals(true, judged > 2_000, "quick answers: " + judged);
    }

    @Test
    void theStatementsOfSysbenchAreAllJudgedQuickly() {
        List<String> statements = new ArrayList<>(List.of("BEGIN", "COMMIT",
                "SELECT c FROM sbtest3 WHERE id=4991", "DELETE FROM sbtest3 WHERE id=4991",
                "INSERT INTO sbtest3 (id, k, c, pad) VALUES (4991, 5012, '1-2-3', '4-5')"));
        statements.forEach(sql -> assertNotNull(sameAsLexer(sql), sql));
    }
}
