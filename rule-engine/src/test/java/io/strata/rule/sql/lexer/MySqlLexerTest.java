package io.strata.rule.sql.lexer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How to read a statement with {@link MySqlLexer}, one example per rule. Tokens are shown as "KIND text". */
class MySqlLexerTest {

    @Test
    void aStatementIsWordsSymbolsAndLiterals() {
        assertTokens("SELECT c FROM sbtest1 WHERE id=5021",
                "WORD SELECT", "WORD c", "WORD FROM", "WORD sbtest1", "WORD WHERE", "WORD id", "SYMBOL =",
                "NUMBER 5021");
    }

    @Test
    void aCursorReportsKindAndOffsetsWithoutMakingTokens() {
        String sql = "UPDATE t SET k=k+1";
        MySqlLexer lexer = new MySqlLexer(sql);
        int words = 0;
        while (lexer.next()) {
            if (lexer.kind() == TokenKind.WORD && lexer.isWord("set")) {
                assertEquals(9, lexer.start());
                assertEquals(12, lexer.end());
            }
            words += lexer.kind() == TokenKind.WORD ? 1 : 0;
        }
        assertEquals(5, words);
        assertEquals(null, lexer.kind());
    }

    @Test
    void stringsKeepTheirQuotesEscapesAndDoubledQuotes() {
        assertTokens("'it''s' 'it\\'s' \"say \\\"hi\\\"\" \"a\"\"b\" 'back\\\\' '-- /* # ;'",
                "STRING 'it''s'", "STRING 'it\\'s'", "STRING \"say \\\"hi\\\"\"", "STRING \"a\"\"b\"",
                "STRING 'back\\\\'", "STRING '-- /* # ;'");
    }

    @Test
    void backquotedNamesDoubleTheirBackquoteAndTakeNoBackslashEscape() {
        assertTokens("`my col` `a``b` `c\\` `d`", "QUOTED_NAME `my col`", "QUOTED_NAME `a``b`", "QUOTED_NAME `c\\`",
                "QUOTED_NAME `d`");
    }

    @Test
    void numbersOfEveryKindAndWordsThatStartWithDigits() {
        assertTokens("12 1.5 .5 7. 1e3 2.5E-3 0x1F X'ab' x'AB' b'01' 0b01 N'z' 123abc 0xZZ 1e",
                "NUMBER 12", "NUMBER 1.5", "NUMBER .5", "NUMBER 7.", "NUMBER 1e3", "NUMBER 2.5E-3", "HEX 0x1F",
                "HEX X'ab'", "HEX x'AB'", "BIT b'01'", "BIT 0b01", "NATIONAL_STRING N'z'", "WORD 123abc",
                "WORD 0xZZ", "WORD 1e");
    }

    @Test
    void aDotAfterANameSeparatesItsPartsAndWhatFollowsIsAName() {
        assertTokens("t.1a db.t.c `t`.5 a .5", "WORD t", "SYMBOL .", "WORD 1a", "WORD db", "SYMBOL .", "WORD t",
                "SYMBOL .", "WORD c", "QUOTED_NAME `t`", "SYMBOL .", "WORD 5", "WORD a", "NUMBER .5");
    }

    @Test
    void placeholdersAndVariables() {
        assertTokens("? @a @'x y' @`q` @@version @@session.sql_mode @a.b @ 1",
                "PLACEHOLDER ?", "VARIABLE @a", "VARIABLE @'x y'", "VARIABLE @`q`", "VARIABLE @@version",
                "VARIABLE @@session.sql_mode", "VARIABLE @a.b", "SYMBOL @", "NUMBER 1");
    }

    @Test
    void anAtRightAfterAUserNameIsASymbol() {
        assertTokens("'app'@'localhost' app@localhost", "STRING 'app'", "SYMBOL @", "STRING 'localhost'",
                "WORD app", "SYMBOL @", "WORD localhost");
    }

    @Test
    void anIntroducerIsAWordBeforeItsLiteral() {
        MySqlLexer lexer = new MySqlLexer("_utf8mb4'x' _binary 0x01 _id");
        lexer.next();
        assertTrue(lexer.isIntroducer());
        lexer.next();
        assertEquals(TokenKind.STRING, lexer.kind());
        assertTokens("_utf8mb4'x' _binary 0x01", "WORD _utf8mb4", "STRING 'x'", "WORD _binary", "HEX 0x01");
    }

    @Test
    void symbolsAreOneCharacterAndReadOperatorJoinsAnOperator() {
        assertTokens("a<=>b", "WORD a", "SYMBOL <", "SYMBOL =", "SYMBOL >", "WORD b");
        List<String> operators = new ArrayList<>();
        MySqlLexer lexer = new MySqlLexer("a <=> b <> c != d := e || f && g -> h ->> i << j >= k ( , ;");
        while (lexer.next()) {
            if (lexer.kind() == TokenKind.SYMBOL) {
                lexer.readOperator();
                operators.add(lexer.text());
            }
        }
        assertEquals(List.of("<=>", "<>", "!=", ":=", "||", "&&", "->", "->>", "<<", ">=", "(", ",", ";"), operators);
    }

    @Test
    void commentsOfEveryFormAreSkipped() {
        assertTokens("/* c */ SELECT /*+ NO_ICP(t) */ 1 -- dash dash space\n, 2 #hash\n, 3 --\t\n, 4 /*! 5 */"
                + " /*!50700 6 */ /*M!100100 7 */ -- at the end",
                "WORD SELECT", "NUMBER 1", "SYMBOL ,", "NUMBER 2", "SYMBOL ,", "NUMBER 3", "SYMBOL ,", "NUMBER 4");
    }

    @Test
    void twoDashesWithoutASpaceAreMinusSigns() {
        assertTokens("1--2", "NUMBER 1", "SYMBOL -", "SYMBOL -", "NUMBER 2");
        assertTokens("1 --", "NUMBER 1");
    }

    @Test
    void commentsAreReportedWhenAskedFor() {
        assertEquals(List.of("COMMENT /* c */", "WORD SELECT", "OPTIMIZER_HINT /*+ BKA */", "COMMENT -- x",
                        "COMMENT # y", "EXECUTABLE_COMMENT /*!40101 z */"),
                tokens(new MySqlLexer("/* c */ SELECT /*+ BKA */ -- x\n# y\n/*!40101 z */").reportComments()));
    }

    @Test
    void executableCommentsAreCodeWhenTheServerRunsThem() {
        assertEquals(List.of("WORD SET", "WORD NAMES", "WORD utf8", "SYMBOL ;", "WORD SELECT", "NUMBER 1"),
                tokens(new MySqlLexer("/*!40101 SET NAMES utf8 */; SELECT /*M!100100 1 */").runExecutableComments()));
        assertEquals(List.of("WORD SELECT", "SYMBOL *", "SYMBOL /", "NUMBER 2"),
                tokens(new MySqlLexer("SELECT */ 2").runExecutableComments()));
        assertEquals(List.of(), tokens(new MySqlLexer("/*!40101 SET NAMES utf8 */")));
    }

    @Test
    void anUnterminatedStringNameOrCommentRunsToTheEnd() {
        for (String sql : new String[] {"'abc", "\"abc", "`abc", "'ends in a backslash\\", "@'abc", "X'4"}) {
            MySqlLexer lexer = new MySqlLexer(sql);
            assertTrue(lexer.next(), sql);
            assertEquals(sql.length(), lexer.end(), sql);
            assertTrue(lexer.unterminated(), sql);
            assertFalse(lexer.next(), sql);
        }
        MySqlLexer comment = new MySqlLexer("SELECT 1 /* never closed").reportComments();
        comment.next();
        comment.next();
        comment.next();
        assertEquals("/* never closed", comment.text());
        assertTrue(comment.unterminated());
        assertTokens("SELECT 1 /* never closed", "WORD SELECT", "NUMBER 1");
        MySqlLexer closed = new MySqlLexer("'a'");
        closed.next();
        assertFalse(closed.unterminated());
    }

    @Test
    void multiByteTextIsPartOfNamesAndStrings() {
        assertTokens("SELECT naïve, 名前, t😀, `表 1` FROM t WHERE s = '😀 ''é'''",
                "WORD SELECT", "WORD naïve", "SYMBOL ,", "WORD 名前", "SYMBOL ,", "WORD t😀", "SYMBOL ,",
                "QUOTED_NAME `表 1`", "WORD FROM", "WORD t", "WORD WHERE", "WORD s", "SYMBOL =", "STRING '😀 ''é'''");
        // offsets count UTF-16 chars, as String does; a space outside ASCII (U+3000) separates words
        MySqlLexer lexer = new MySqlLexer("😀\u3000x");
        lexer.next();
        assertEquals(2, lexer.end());
        assertTrue(lexer.nonAscii());
        lexer.next();
        assertEquals(3, lexer.start());
        assertFalse(lexer.nonAscii());
    }

    @Test
    void aSecondLexerLooksAhead() {
        String sql = "COUNT /* c */ (*)";
        MySqlLexer lexer = new MySqlLexer(sql);
        MySqlLexer ahead = new MySqlLexer(sql);
        lexer.next();
        lexer.copyTo(ahead);
        ahead.next();
        assertTrue(ahead.isSymbol('('));
        assertTrue(lexer.isWord("count"));
        ahead.copyTo(lexer); // take what it read
        assertEquals(List.of("SYMBOL *", "SYMBOL )"), tokens(lexer));
    }

    private static void assertTokens(String sql, String... expected) {
        assertEquals(List.of(expected), tokens(new MySqlLexer(sql)), sql);
    }

    private static List<String> tokens(MySqlLexer lexer) {
        List<String> tokens = new ArrayList<>();
        while (lexer.next()) {
            tokens.add(lexer.kind() + " " + lexer.text());
        }
        return tokens;
    }
}
