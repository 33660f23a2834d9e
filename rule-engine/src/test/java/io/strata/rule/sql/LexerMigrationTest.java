package io.strata.rule.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.strata.rule.sql.lexer.RandomStatements;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The classifier and the digest on {@link io.strata.rule.sql.lexer.MySqlLexer} answer as their own scanners did
 * ({@link LegacySqlClassifier}, {@link LegacyDigestText}), on thousands of random statements and on the forms the
 * classifier cares about (hints, executable comments, several statements, SET); and the few answers that changed on
 * purpose, each a bug of one old scanner.
 */
class LexerMigrationTest {

    private static final String[] PREFIXES = {"", "", "", "/* strata:primary */ ", "/*+ strata:replica */ ",
        "/*!40101 SET NAMES utf8 */; ", "/*!50700 */ ", "-- note\n", "# note\n", "SET autocommit = 1; ",
        "SET @a = 'x;y'; ", "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_bin'; ", "/*M!100100 */"};
    private static final String[] SUFFIXES = {"", "", "", ";", "; SELECT 1", " FOR UPDATE", " /* strata:shadow */",
        "; SELECT LAST_INSERT_ID()", " AND GET_LOCK('l', 1)", "; SET @x = 1"};

    @Test
    void randomStatementsHaveTheirOldKindFactsTokensAndDigest() {
        RandomStatements statements = new RandomStatements(7_2026L);
        Random random = new Random(11);
        for (int i = 0; i < 4000; i++) {
            String sql = PREFIXES[random.nextInt(PREFIXES.length)] + statements.next()
                    + SUFFIXES[random.nextInt(SUFFIXES.length)];
            assertSameAnswers(sql);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SET SESSION sql_mode = 'STRICT_ALL_TABLES', time_zone = '+00:00'",
        "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
        "SET NAMES utf8mb4", "SET CHARACTER SET latin1", "SET @@session.autocommit = 0",
        "SET STATEMENT x=1 FOR SELECT 1", "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */", "/*!40101 SET NAMES utf8mb4 */",
        "SELECT /*!40001 SQL_NO_CACHE */ *",
        "SELECT SQL_CALC_FOUND_ROWS * FROM t; SELECT FOUND_ROWS()", "CALL p('x')", "XA START 'x'",
        "CREATE TEMPORARY TABLE t (a INT)", "USE `db`", "USE db; SELECT 1", "BEGIN NOT ATOMIC SELECT 1; END",
        "CREATE PROCEDURE p() BEGIN SELECT 1; END", "lbl: BEGIN SELECT 1; END", "SELECT 'a;b' /* ; */; DO 1",
        "SELECT NEXT VALUE FOR s", "SELECT * FROM t WHERE a = @@identity", "SELECT @@session.tx_read_only",
        "select @`x`", "SELECT \"a\"\"b\" FROM `t``u`", "SELECT 'it\\'s' -- c", "SELECT * FROM t # x\nWHERE a = 1",
        "SELECT 1 --x", "SELECT 1 --\tx", "SELECT 1 /* open", "SELECT 'open", "SELECT `open", "SELECT 'a\\",
        "SELECT count, version(), DATE '2024-01-01' FROM t", "SELECT -1, +2.5, - 3 FROM t WHERE a IN (1, -2, 0x0F)",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b') ON DUPLICATE KEY UPDATE b = VALUES(b)", "SELECT doc->>'$.a' FROM t",
        "SELECT _utf8mb4'x', _binary 'y', N'z', 'a' 'b'", "SELECT t.1a, t.col, .5, 7. FROM 123abc",
        "SELECT a<=>b, c := 1, d || e && f", "SELECT ?, ? FROM t WHERE id IN (?)", "SELECT naïve, 名前 FROM `表`",
        "\u3000SELECT 1", "SELECT `a` FROM t;;", "  ", ""})
    void classifierFormsHaveTheirOldAnswers(String sql) {
        assertSameAnswers(sql);
    }

    /** The quick path counts tokens as the lexer cuts them: where it answers, its tokens are the lexed path's. */
    @Test
    void theQuickPathCutsRandomStatementsAsTheLexerDoes() {
        RandomStatements statements = new RandomStatements(99L);
        int quick = 0;
        for (int i = 0; i < 4000; i++) {
            String sql = statements.next();
            SqlStatementInfo info = SqlClassifier.Quick.classify(sql);
            if (info != null) {
                quick++;
                assertEquals(SqlClassifier.lexed(sql).statementTokens(), info.statementTokens(), sql);
            }
        }
        for (String sql : new String[] {"SELECT t.* FROM t", "SELECT 1.5, 0x1F, 1e-3, 7. FROM t WHERE a = 2*/3",
            "SELECT `a`.`b` FROM t WHERE c = 'x''y' AND d IN (?, ?)", "UPDATE t SET a = a-1 WHERE b = -2"}) {
            SqlStatementInfo info = SqlClassifier.Quick.classify(sql);
            assertEquals(SqlClassifier.lexed(sql).statementTokens(), info.statementTokens(), sql);
        }
        assertTrue(quick > 100, "quick answers: " + quick); // most hold a comment or other scripts
    }

    /** A plain text's names are found without the lexer's cursor, and they are the names the cursor finds. */
    @Test
    void thePlainScanFindsTheNamesTheLexerFinds() {
        RandomStatements statements = new RandomStatements(5L);
        List<String> texts = new ArrayList<>(List.of("SELECT x'41', t.1a, 1.5, 123abc, `a``b`, \"q\" FROM t",
                "SELECT a FROM `open", "SELECT 'it''s', \"d\"\"q\" FROM t WHERE a = 2*/3"));
        for (int i = 0; i < 4000; i++) {
            texts.add(statements.next());
        }
        for (String sql : texts) {
            List<String> plain = new ArrayList<>();
            List<String> lexed = new ArrayList<>();
            int scanned = SqlClassifier.Quick.scan(sql, 0, (text, start, end) -> !plain.add(text.substring(start, end)),
                    false);
            SqlClassifier.lexedAnyName(sql, (text, start, end) -> !lexed.add(text.substring(start, end)));
            if (scanned != SqlClassifier.Quick.NOT_PLAIN) {
                assertEquals(lexed, plain, sql);
            }
            assertEquals(SqlClassifier.lexedAnyName(sql, (text, start, end) -> text.startsWith("t", start)),
                    SqlClassifier.anyName(sql, (text, start, end) -> text.startsWith("t", start)), sql);
        }
    }

    /** The old classifier read 'u'@'h' as a string and the user variable @'h', which pins the session. */
    @Test
    void anAtRightAfterAStringOrNameIsUserAtHostNotAUserVariable() {
        assertTrue(LegacySqlClassifier.classify("CREATE USER 'app'@'localhost'").pinsSession());
        assertFalse(SqlClassifier.classify("CREATE USER 'app'@'localhost'").pinsSession());
        assertFalse(SqlClassifier.classify("GRANT SELECT ON db.* TO app@'%'").pinsSession());
        assertTrue(SqlClassifier.classify("SELECT @'x'").pinsSession());
        assertTrue(SqlClassifier.classify("SELECT 1 FROM t WHERE a = @x").pinsSession());
    }

    /** MySQL reads a name of any multi-byte characters; the old classifier cut one at a character not a letter. */
    @Test
    void aNameOfNonLetterCharactersIsOneToken() {
        assertEquals(List.of("SELECT", "*", "FROM", "t€"), SqlClassifier.lexed("SELECT * FROM t€").tokens());
        assertEquals(List.of("SELECT", "*", "FROM", "t😀"), SqlClassifier.lexed("SELECT * FROM t😀").tokens());
        assertEquals(List.of("SELECT", "*", "FROM", "t", "\ud83d", "\ude00"),
                LegacySqlClassifier.lexed("SELECT * FROM t😀").tokens());
    }

    @Test
    void aNumberIsOneToken() {
        assertEquals(List.of("SELECT", "1.5", ",", "1e-3", ",", "x'41'"), SqlClassifier.lexed("SELECT 1.5, 1e-3, x'41'")
                .tokens());
        assertEquals(List.of("SELECT", "1", ".", "5", ",", "1e", "-", "3", ",", "x", "'41'"),
                LegacySqlClassifier.lexed("SELECT 1.5, 1e-3, x'41'").tokens());
    }

    /** The old digest looked past spaces only: a comment between a function and its bracket made it a name. */
    @Test
    void aCommentInsideACallOrBeforeASignedNumberLeavesTheDigestAlone() {
        assertEquals("SELECT COUNT ( * ) FROM `t` WHERE `a` = ?", DigestText.of("SELECT COUNT /* c */ (*) FROM t "
                + "WHERE a = - /* c */ 1"));
        assertEquals("SELECT `COUNT` ( * ) FROM `t` WHERE `a` = - ?", LegacyDigestText.of("SELECT COUNT /* c */ (*) "
                + "FROM t WHERE a = - /* c */ 1"));
    }

    private static void assertSameAnswers(String sql) {
        SqlStatementInfo now = SqlClassifier.classify(sql);
        SqlStatementInfo before = LegacySqlClassifier.classify(sql);
        assertEquals(before.kind(), now.kind(), sql);
        assertEquals(before.multiStatement(), now.multiStatement(), sql);
        assertEquals(before.pinsSession(), now.pinsSession(), sql);
        assertEquals(before.charset(), now.charset(), sql);
        assertEquals(before.trackedVariables(), now.trackedVariables(), sql);
        assertEquals(before.hint(), now.hint(), sql);
        assertEquals(before.readOnly(), now.readOnly(), sql);
        assertEquals(before.usesTable(), now.usesTable(), sql);
        assertEquals(before.statementTokens() == null, now.statementTokens() == null, sql);
        // Token boundaries inside a number moved on purpose (1.5 is one token now): the text they keep did not. The
        // head of a long statement (its first MAX_TOKENS tokens) may reach further now.
        List<String> all = now.statementTokens() != null ? now.statementTokens() : now.tokens();
        List<String> allBefore = before.statementTokens() != null ? before.statementTokens() : before.tokens();
        if (now.statementTokens() != null || before.tokens().size() < SqlClassifier.MAX_TOKENS) {
            assertEquals(quoted(allBefore), quoted(all), sql);
            assertEquals(String.join("", allBefore), String.join("", all), sql);
        }
        assertEquals(LegacySqlClassifier.split(sql), SqlClassifier.split(sql), sql);
        assertEquals(names(sql, true), names(sql, false), sql);
        assertEquals(LegacyDigestText.of(sql), DigestText.of(sql), sql);
    }

    /** The quoted tokens, N'x' and x'41' as their string ('x', '41'): the old classifier cut the letter off. */
    private static List<String> quoted(List<String> tokens) {
        return tokens.stream()
                .map(t -> t.length() > 1 && t.charAt(1) == '\'' && Character.isLetter(t.charAt(0)) ? t.substring(1) : t)
                .filter(t -> t.startsWith("'") || t.startsWith("\"") || t.startsWith("`")).toList();
    }

    /** The names {@code anyName} tests, numbers left out (the old scanner tested 5021 as a name too). */
    private static List<String> names(String sql, boolean before) {
        List<String> names = new ArrayList<>();
        SqlClassifier.NameTest collect = (text, start, end) -> {
            String name = text.substring(start, end);
            if (!name.isEmpty() && !Character.isDigit(name.charAt(0)) && !name.matches("[xXbBnN]")) {
                names.add(name);
            }
            return false;
        };
        if (before) {
            LegacySqlClassifier.anyName(sql, collect::test);
        } else {
            SqlClassifier.lexedAnyName(sql, collect); // anyName's plain scan: thePlainScanFindsTheNamesTheLexerFinds
        }
        return names;
    }
}
