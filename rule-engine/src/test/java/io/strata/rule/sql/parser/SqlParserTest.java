package io.strata.rule.sql.parser;

import static io.strata.rule.sql.parser.TableName.read;
import static io.strata.rule.sql.parser.TableName.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a rule gets back from the parser: the tree, the cache's shared instances, and why a statement was not read. */
class SqlParserTest {

    private final SqlParser parser = new SqlParser();

    @Test
    void theTreeHoldsConditionsAndValuesForRulesThatNeedThem() {
        ParsedStatement statement = parser.parse("SELECT c FROM sbtest1 WHERE id = ?");

        PlainSelect select = assertInstanceOf(PlainSelect.class, statement.ast());
        EqualsTo condition = assertInstanceOf(EqualsTo.class, select.getWhere());
        assertEquals("id", condition.getLeftExpression().toString());
        assertInstanceOf(JdbcParameter.class, condition.getRightExpression());
    }

    @Test
    void theSameTextGivesTheSameInstanceFromTheCache() {
        String sql = "SELECT c FROM sbtest1 WHERE id = ?";
        ParsedStatement first = parser.parse(sql);

        assertSame(first, parser.parse(new String(sql.toCharArray())), "an equal text from another packet");
        assertNotSame(first, parser.parseUncached(sql), "bypassing the cache parses again");
        assertNotSame(first, parser.parse(sql + " "), "the exact text is the key");
    }

    @Test
    void oneParserServesManyThreadsAtOnce() throws Exception {
        List<String> statements = List.of("SELECT * FROM a JOIN b ON a.id = b.id WHERE a.x = 'q\\'s'",
                "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = 1", "DELETE FROM c USING c JOIN d ON c.id = d.id",
                "INSERT INTO e SELECT * FROM f # comment");
        List<List<TableName>> expected = statements.stream().map(sql -> parser.parseUncached(sql).tables()).toList();
        assertTrue(expected.stream().allMatch(tables -> tables.size() == 2), expected.toString());
        ExecutorService threads = Executors.newFixedThreadPool(4);
        List<Future<Boolean>> runs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            runs.add(threads.submit(() -> {
                boolean same = true;
                for (int i = 0; i < 100; i++) {
                    int k = i % statements.size();
                    same &= expected.get(k).equals(parser.parseUncached(statements.get(k)).tables());
                }
                return same;
            }));
        }
        for (Future<Boolean> run : runs) {
            assertTrue(run.get());
        }
        threads.shutdown();
    }

    @Test
    void unparsedStatementsAreCachedToo() {
        ParsedStatement first = parser.parse("SELEC * FROM t");

        assertFalse(first.parsed());
        assertSame(first, parser.parse("SELEC * FROM t"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "/* strata:shadow */ SELECT * FROM t WHERE id = 1",
        "-- the shadow table\nSELECT * FROM t WHERE id = 1",
        "# the shadow table\nSELECT * FROM t WHERE id = 1",
        "/* a */ /*+ b */\n  SELECT * FROM t WHERE id = 1",
        "SELECT /*!40001 SQL_NO_CACHE */ * FROM t WHERE id = 1 -- trailing",
        "SELECT * FROM t WHERE id = 1;",
    })
    void commentsAroundTheStatementAreSkipped(String sql) {
        ParsedStatement statement = parser.parse(sql);

        assertTrue(statement.parsed(), statement.unparsedReason());
        assertEquals(List.of(read("t")), statement.tables());
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                arguments("SELEC * FROM t", StatementType.OTHER, "not understood at 'SELEC' (line 1, column 1)"),
                arguments("UPDATE t SET a = WHERE b = 1", StatementType.UPDATE,
                        "not understood at 'WHERE' (line 1, column 18)"),
                arguments("DELETE FROM t WHERE", StatementType.DELETE, "ends too early"),
                arguments("SELECT 'unterminated", StatementType.SELECT, "the parser failed"),
                arguments("SELECT 1; SELECT 2", StatementType.SELECT, "more than one statement"),
                arguments("/* only */ -- comments", StatementType.OTHER, "no statement, only comments or blanks"),
                arguments("", StatementType.OTHER, "no statement, only comments or blanks"),
                arguments("LOAD DATA INFILE 'x' INTO t", StatementType.LOAD_DATA, "LOAD DATA without INTO TABLE"),
                arguments("CREATE TABLE t2 (a INT) SELECT * FROM t1", StatementType.CREATE_TABLE,
                        "not understood at 'SELECT'"));
    }

    @ParameterizedTest(name = "\"{0}\" is unparsed: {2}")
    @MethodSource("unreadable")
    void aStatementTheParserCannotReadComesBackUnparsedWithTheReason(String sql, StatementType keywordType,
                                                                      String reason) {
        ParsedStatement statement = parser.parse(sql);

        assertFalse(statement.parsed());
        assertTrue(statement.unparsedReason().startsWith(reason), statement.unparsedReason());
        assertEquals(keywordType, statement.type(), "the type its leading keywords say");
        assertEquals(List.of(), statement.tables());
        assertNull(statement.ast());
    }

    /** The reason is logged and sent to the client: a string where the parser stopped may be a password. */
    @ParameterizedTest
    @ValueSource(strings = {
        "SET PASSWORD = PASSWORD 'pw-in-a-string'",
        "CREATE USER bob IDENTIFIED BY 'x' 'pw-in-a-string'",
        "SET PASSWORD = PASSWORD \"pw-in-a-string\"",
        "SELECT * FROM t WHERE a = 1 'pw-in-a-string'",
        "SELECT * FROM t WHERE a = 'pw-in-a-string",
        "SELECT * FROM t WHERE a = \"pw-in-a-string",
    })
    void theReasonNeverQuotesAString(String sql) {
        ParsedStatement statement = parser.parse(sql);

        assertFalse(statement.parsed());
        assertFalse(statement.unparsedReason().contains("pw-in-a-string"), statement.unparsedReason());
        assertTrue(statement.unparsedReason().matches("not understood at a string \\(line 1, column \\d+\\)"
                + "|the parser failed: .*Lexical error at line 1, column \\d+\\..*"), statement.unparsedReason());
    }

    @Test
    void aTextLongerThanTheLimitIsNotParsed() {
        SqlParser small = new SqlParser(new ParserLimits(16, 1024, 100, 32));
        String sql = "INSERT INTO t VALUES " + "(1),".repeat(30) + "(1)";

        ParsedStatement statement = small.parse(sql);

        assertEquals("longer than 100 characters (144)", statement.unparsedReason());
        assertEquals(StatementType.INSERT, statement.type());
    }

    @Test
    void bracketsNestedDeeperThanTheLimitAreNotParsedAndTheLimitItselfParsesQuickly() {
        String atLimit = "SELECT " + "(".repeat(32) + "1" + ")".repeat(32) + " FROM t";
        String deeper = "SELECT " + "(".repeat(33) + "1" + ")".repeat(33) + " FROM t";
        // thousands deep, past what the parser's recursion can take on a small stack
        String pathological = "SELECT * FROM t WHERE " + "(".repeat(5000) + "a = 1" + ")".repeat(5000);

        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            assertTrue(parser.parseUncached(atLimit).parsed());
            assertEquals("brackets nested 33 deep, more than 32", parser.parseUncached(deeper).unparsedReason());
            assertEquals("brackets nested 5000 deep, more than 32",
                    parser.parseUncached(pathological).unparsedReason());
        });
    }

    @Test
    void aNameOfMoreDottedPartsThanMySqlAllowsIsNotParsed() {
        String sql = "SELECT " + "a.".repeat(2000) + "b FROM t";

        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> assertEquals(
                "a name of 2001 dotted parts, more than 4", parser.parseUncached(sql).unparsedReason()));
        assertTrue(parser.parse("SELECT db.t.c, 1.5 FROM db.t").parsed());
    }

    @Test
    void bracketsInsideStringsAndCommentsDoNotCount() {
        String sql = "SELECT '" + "(".repeat(100) + "' FROM t /* " + "(".repeat(100) + " */";

        assertEquals(List.of(read("t")), parser.parse(sql).tables());
    }

    @Test
    void aLongTextIsParsedButNotKeptInTheCache() {
        SqlParser small = new SqlParser(new ParserLimits(16, 1600, 64 * 1024, 32));
        String bulk = "INSERT INTO t (a, b) VALUES " + "(1, 'x'),".repeat(20) + "(2, 'y')";

        ParsedStatement statement = small.parse(bulk);

        assertEquals(List.of(written("t")), statement.tables());
        assertNotSame(statement, small.parse(bulk), "longer than a sixteenth of the cache's 1600 characters");
    }

    @Test
    void loadDataIsRecognisedWithoutATree() {
        ParsedStatement statement = parser.parse("/* import */ LOAD DATA LOCAL INFILE 'a.csv' IGNORE INTO TABLE t");

        assertTrue(statement.parsed());
        assertEquals(StatementType.LOAD_DATA, statement.type());
        assertEquals(List.of(written("t")), statement.tables());
        assertNull(statement.ast());
    }

    @Test
    void otherStatementsParseWithoutTables() {
        for (String sql : List.of("SHOW TABLES", "SET NAMES utf8mb4", "USE db", "COMMIT", "DROP VIEW v")) {
            ParsedStatement statement = parser.parse(sql);
            assertTrue(statement.parsed(), sql + ": " + statement.unparsedReason());
            assertEquals(StatementType.OTHER, statement.type(), sql);
            assertEquals(List.of(), statement.tables(), sql);
        }
    }
}
