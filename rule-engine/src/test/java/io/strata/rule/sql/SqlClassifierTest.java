package io.strata.rule.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SqlClassifierTest {

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            select 1                                                | SELECT
            SELECT * FROM t WHERE id = 1                            | SELECT
            /* a leading comment */ SELECT 1                        | SELECT
            /*+ MAX_EXECUTION_TIME(1000) */ select 1                | SELECT
            (select 1) union (select 2)                             | SELECT
            WITH cte AS (SELECT 1 AS a) SELECT a FROM cte           | SELECT
            with recursive n(i) as (select 1) select * from n       | SELECT
            VALUES ROW(1, 2)                                        | SELECT
            TABLE t                                                 | SELECT
            insert into t values (1)                                | INSERT
            INSERT INTO t SELECT * FROM u                           | INSERT
            update t set a = 1                                      | UPDATE
            Delete From t                                           | DELETE
            REPLACE INTO t VALUES (1)                               | REPLACE
            create table t (a int)                                  | DDL
            ALTER TABLE t ADD COLUMN b int                          | DDL
            drop table t                                            | DDL
            TRUNCATE t                                              | DDL
            RENAME TABLE t TO u                                     | DDL
            use test                                                | USE
            USE `my db`                                             | USE
            set autocommit = 0                                      | SET
            /*!40101 SET NAMES utf8 */                              | SET
            /*M!100100 SET sql_mode='' */                           | SET
            begin                                                   | BEGIN
            BEGIN WORK                                              | BEGIN
            START TRANSACTION                                       | BEGIN
            start transaction read only                             | BEGIN
            START SLAVE                                             | OTHER
            COMMIT                                                  | COMMIT
            commit work                                             | COMMIT
            ROLLBACK                                                | ROLLBACK
            ROLLBACK TO SAVEPOINT x                                 | SAVEPOINT
            rollback to x                                           | SAVEPOINT
            SAVEPOINT x                                             | SAVEPOINT
            RELEASE SAVEPOINT x                                     | SAVEPOINT
            show tables                                             | SHOW
            DESC t                                                  | SHOW
            describe t                                              | SHOW
            EXPLAIN SELECT 1                                        | SHOW
            KILL 42                                                 | KILL
            kill query 42                                           | KILL
            CALL p(1)                                               | CALL
            LOCK TABLES t WRITE                                     | LOCK
            unlock tables                                           | LOCK
            do sleep(1)                                             | OTHER
            ANALYZE TABLE t                                         | OTHER
            ~~                                                      | EMPTY
            ~   ~                                                   | EMPTY
            /* only a comment */                                    | EMPTY
            ;                                                       | EMPTY
            """)
    void findsTheKindOfAStatement(String sql, SqlKind kind) {
        assertEquals(kind, SqlClassifier.classify(sql).kind());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "  \n\tselect 1",
            "-- a line comment\nSELECT 1",
            "--\nSELECT 1",
            "# a hash comment\nselect 1",
            "/* one */ /* two */\n-- three\nselect 1",
            "/*!40101 select 1 */"})
    void whitespaceAndCommentsBeforeAStatementDoNotHideIt(String sql) {
        assertEquals(SqlKind.SELECT, SqlClassifier.classify(sql).kind());
    }

    @Test
    void keepsTheTokensOfTheFirstStatementWithoutComments() {
        SqlStatementInfo info = SqlClassifier.classify("/* c */ SELECT a, 'x;y' FROM `t` -- done\n; select 2");

        assertEquals(List.of("SELECT", "a", ",", "'x;y'", "FROM", "`t`"), info.tokens());
        assertTrue(info.tokenIs(0, "select"));
        assertEquals("", info.token(99));
    }

    @Test
    void keywordsComeAsWrittenAndAreNotCopiedFromTheText() {
        SqlStatementInfo upper = SqlClassifier.classify("SELECT c FROM t WHERE id = 1");
        SqlStatementInfo lower = SqlClassifier.classify("select c from t where id = 1");
        SqlStatementInfo mixed = SqlClassifier.classify("Select c From t Where id = 1");

        assertEquals(List.of("SELECT", "c", "FROM", "t", "WHERE", "id", "=", "1"), upper.tokens());
        assertEquals(List.of("select", "c", "from", "t", "where", "id", "=", "1"), lower.tokens());
        assertEquals(List.of("Select", "c", "From", "t", "Where", "id", "=", "1"), mixed.tokens());
        assertSame(upper.token(2), SqlClassifier.classify("DELETE FROM u").token(1), "one String for a keyword");
        assertSame(lower.token(0), SqlClassifier.classify("select 2").token(0));
        assertEquals("FROMAGE", SqlClassifier.classify("SELECT FROMAGE").token(1)); // a keyword's prefix is a word
    }

    @Test
    void keepsAtMostMaxTokens() {
        SqlStatementInfo info = SqlClassifier.classify("select " + "1, ".repeat(100) + "1");

        assertEquals(SqlClassifier.MAX_TOKENS, info.tokens().size());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "select 1; select 2",
            "select 1;select 2;",
            "insert into t values (1); select last_insert_id()",
            "select 1; /* comment */ select 2",
            "begin; update t set a = 1; commit"})
    void severalStatementsAreAMultiStatement(String sql) {
        assertTrue(SqlClassifier.classify(sql).multiStatement());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "select 1",
            "select 1;",
            "select 1 ;  ",
            "select 1;;",
            "select 1; -- the end",
            "select 1; # the end",
            "select 1; /* the end */",
            "select 1;\n",
            "select 1;--",
            "select 'a;b'",
            "select \"a;b\"",
            "select `a;b` from t",
            "select 'it''s; fine'",
            "select 'back\\'slash; too'",
            "select 1 /* ; */",
            "select 1 -- ; select 2"})
    void oneStatementWithATrailingSemicolonOrCommentIsNot(String sql) {
        assertFalse(SqlClassifier.classify(sql).multiStatement());
    }

    @Test
    void aDoubleDashFollowedByATabOrCarriageReturnIsAComment() {
        assertFalse(SqlClassifier.classify("select 1; --\tthe end").multiStatement());
        assertFalse(SqlClassifier.classify("select 1; --\r\n").multiStatement());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "SET @a=1",
            "set @a := 1, @b := 2",
            "select @a:=1",
            "SELECT @a",
            "SELECT 1 INTO @x",
            "SELECT GET_LOCK('x', 1)",
            "select get_lock ('x', 1)",
            "SELECT FOUND_ROWS()",
            "SELECT ROW_COUNT()",
            "SELECT SQL_CALC_FOUND_ROWS * FROM t",
            "CREATE TEMPORARY TABLE t (a int)",
            "CREATE OR REPLACE TEMPORARY TABLE t (a int)",
            "create or replace temporary table t select 1",
            "LOCK TABLES t WRITE",
            "FLUSH TABLES WITH READ LOCK",
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
            "SET TRANSACTION READ ONLY",
            "SET sql_mode = '', @a = 1",
            "SET sql_mode = '', optimizer_switch = 'x=on'",
            "SET time_zone = '+00:00'; SELECT 1",
            "PREPARE s FROM 'select 1'",
            "EXECUTE s",
            "DEALLOCATE PREPARE s",
            "XA START 'x'",
            "HANDLER t OPEN",
            "CALL make_state()",
            "SELECT LAST_INSERT_ID(42)",
            "UPDATE seq SET id = LAST_INSERT_ID(id + 1)",
            "SELECT NEXTVAL(s)",
            "select lastval(s)",
            "INSERT INTO t VALUES (NEXT VALUE FOR s, 1)",
            "SELECT PREVIOUS VALUE FOR s",
            "select next value for s",
            "call p(1, @out)",
            "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */",
            "select 1; set @a = 1",
            "use test; select 1",
            "SET NAMES utf8mb4; select 1",
            "SET STATEMENT max_statement_time = @limit FOR SELECT 1",
            "SET STATEMENT sql_mode = '' FOR CREATE TEMPORARY TABLE t (a INT)",
            "set statement sql_mode = '' for select @a",
            "SET STATEMENT max_statement_time = 1",
            "SET STATEMENT max_statement_time = 1 FOR USE other",
            "SET STATEMENT max_statement_time = 1 FOR SET NAMES latin1",
            "SET STATEMENT max_statement_time = 1 FOR SET time_zone = '+01:00'",
            "SET lc_messages = 'de_DE', NAMES utf8mb4"})
    void statementsThatLeaveStateOnTheConnectionPinTheSession(String sql) {
        assertTrue(SqlClassifier.classify(sql).pinsSession());
    }

    /**
     * LAST_INSERT_ID() needs the session's value on the server connection; LAST_INSERT_ID(expr) sets it there, and so
     * may a procedure.
     */
    @ParameterizedTest(name = "{0} -> reads {1}, sets {2}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "INSERT INTO child VALUES (LAST_INSERT_ID(), 'x')     | true  | false",
            "select last_insert_id ( ) + 1                        | true  | false",
            "UPDATE seq SET id = LAST_INSERT_ID(id + 1)           | false | true",
            "SELECT LAST_INSERT_ID(7), LAST_INSERT_ID()           | true  | true",
            "SELECT @@identity                                    | true  | false",
            "select @@SESSION.last_insert_id + 0                  | true  | false",
            "SELECT c FROM t WHERE id = 5                         | false | false",
            "SELECT 'LAST_INSERT_ID()' FROM t                     | false | false",
            "CALL add_parent('x')                                 | false | true",
            "SET STATEMENT max_statement_time = 5 FOR call p()    | false | true",
            "SELECT 'CALL p()'                                    | false | false"})
    void callsOfLastInsertIdAreFound(String sql, boolean reads, boolean sets) {
        SqlStatementInfo info = SqlClassifier.classify(sql);
        assertEquals(reads, info.readsLastInsertId());
        assertEquals(sets, info.setsLastInsertId());
    }

    /**
     * SET STATEMENT's variables last for its one statement: Strata neither follows nor replays them, and the
     * statement is of the kind of the one after FOR (a write there is a write for read/write splitting).
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "SET STATEMENT sql_mode = '' FOR SELECT 1                        | SELECT",
            "set statement max_statement_time = 1 for insert into t values (1) | INSERT",
            "SET STATEMENT max_statement_time = 1                            | SET"})
    void setStatementIsTheKindOfItsStatement(String sql, SqlKind kind) {
        SqlStatementInfo info = SqlClassifier.classify(sql);
        assertEquals(kind, info.kind());
        assertEquals(List.of(), info.trackedVariables());
        assertNull(info.charset());
    }

    /** What ROW_COUNT() and FOUND_ROWS() read afterwards is hidden from the response only after these. */
    @ParameterizedTest(name = "{0} -> {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "CALL add_rows(3)                                     | true",
            "SET STATEMENT max_statement_time = 5 FOR CALL p()    | true",
            "call p()                                             | true",
            "SELECT SQL_CALC_FOUND_ROWS c FROM t LIMIT 1          | true",
            "SELECT 1; select sql_calc_found_rows * FROM t        | true",
            "SELECT c FROM t WHERE id = 5                         | false",
            "INSERT INTO t VALUES (1), (2)                        | false",
            "SELECT 'CALL' FROM t                                 | false"})
    void statementsHidingTheirCountsAreFound(String sql, boolean hides) {
        assertEquals(hides, SqlClassifier.classify(sql).hidesCounts());
    }

    /** Tracked session variables are read back and replayed on any connection: setting them does not pin. */
    @ParameterizedTest(name = "{0} -> {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "SET sql_mode=''                                    | sql_mode",
            "SET SESSION time_zone='+00:00'                     | time_zone",
            "set local time_zone = 'UTC'                        | time_zone",
            "SET @@session.sql_mode = ''                        | sql_mode",
            "SET autocommit = 0, sql_mode = ''                  | sql_mode",
            "SET NAMES utf8mb4, sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES') | sql_mode",
            "set sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES'), NAMES utf8mb4 | sql_mode",
            "SET time_zone = '+01:00', NAMES latin1 COLLATE latin1_bin | time_zone",
            "SET CHARACTER SET koi8r                            | collation_connection",
            "set charset cp1251, time_zone = '+01:00'           | time_zone collation_connection",
            "set names 'latin1' collate 'latin1_bin', time_zone = '+01:00' | time_zone",
            "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED | tx_isolation",
            "set session transaction read only                  | tx_read_only",
            "SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED, READ WRITE | tx_isolation tx_read_only",
            "SET LOCAL TRANSACTION READ WRITE                   | tx_read_only",
            "SET @@session.transaction_read_only = 1            | transaction_read_only",
            "SET SESSION transaction_isolation = 'READ-COMMITTED', @@sql_select_limit = 10 | transaction_isolation sql_select_limit"})
    void trackedVariablesAreFollowedNotPinned(String sql, String variables) {
        SqlStatementInfo info = SqlClassifier.classify(sql);
        assertFalse(info.pinsSession());
        assertEquals(java.util.List.of(variables.split(" ")), info.trackedVariables());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "SET autocommit=0",
            "set @@autocommit = 1",
            "SET SESSION autocommit = 1",
            "SET @@session.autocommit = 0",
            "SET NAMES utf8mb4",
            "SET NAMES utf8mb4 COLLATE utf8mb4_bin",
            "SET CHARACTER SET utf8",
            "SET CHARSET latin1",
            "/*!40101 SET NAMES utf8 */",
            "SET GLOBAL max_connections=10",
            "SET PERSIST max_connections=10",
            "SET @@global.x=1",
            "select @@version_comment limit 1",
            "SELECT @@session.tx_isolation",
            "SELECT 'a@b'",
            "select * from t where c = '@x'",
            "select \"@x\", `@y` from t",
            "select found_rows from t",
            "select next, previous, value from t",
            "SELECT SETVAL(s, 100)",
            "select 1; select 2",
            "create table t (a int)",
            "CREATE OR REPLACE TABLE t (a int)",
            "SELECT LAST_INSERT_ID()",
            "INSERT INTO c VALUES (LAST_INSERT_ID(), 1)",
            "select * from t /* @a */",
            "select * from t -- @a",
            "SET STATEMENT max_statement_time = 1 FOR SELECT c FROM t WHERE id = 5",
            "set statement sql_mode = concat(@@sql_mode, ',ANSI'), max_statement_time = 2 for update t set c = 1"})
    void statementsThatLeaveNoStateOnTheConnectionDoNotPinIt(String sql) {
        assertFalse(SqlClassifier.classify(sql).pinsSession());
    }

    /** Only a statement that reads or writes a table clears the server's warnings; unsure counts as not. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            SELECT c FROM t WHERE id = 1                          | true
            select * from `my table`                              | true
            SELECT 1 FROM DUAL WHERE EXISTS (SELECT 1 FROM t)      | true
            SELECT (SELECT MAX(id) FROM s.t) + 1                  | true
            INSERT INTO t VALUES (1)                              | true
            UPDATE t SET c = 1                                    | true
            DELETE FROM t                                         | true
            REPLACE INTO t VALUES (1)                             | true
            SELECT 1                                              | false
            SELECT 1 FROM DUAL                                    | false
            SELECT EXTRACT(YEAR FROM CURRENT_DATE)                | false
            SELECT TRIM(LEADING 'x' FROM 'xxa'), SUBSTRING(@s FROM 2) | false
            SELECT * FROM (SELECT 1) AS d                         | false
            SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$')) AS j | false
            SELECT @@warning_count                                | false
            SET time_zone = '+01:00'                              | false
            COMMIT                                                | false
            SHOW TABLES                                           | false
            SELECT c FROM t; SELECT 1                             | false
            """)
    void statementsThatClearTheServersWarningsAreKnown(String sql, boolean usesTable) {
        assertEquals(usesTable, SqlClassifier.classify(sql).usesTable());
    }

    @Test
    void aQuotedUserVariablePinsTheSession() {
        assertTrue(SqlClassifier.classify("select @`my var`").pinsSession());
        assertTrue(SqlClassifier.classify("select @'x'").pinsSession());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            SET NAMES 'latin1'                          | latin1
            set names utf8mb4                           | utf8mb4
            SET NAMES utf8mb4 COLLATE utf8mb4_bin       | utf8mb4 COLLATE utf8mb4_bin
            set names 'latin1' collate 'latin1_bin'     | latin1 COLLATE latin1_bin
            SET time_zone = 'UTC', NAMES utf8mb4 COLLATE utf8mb4_unicode_ci | utf8mb4 COLLATE utf8mb4_unicode_ci
            set sql_mode = '', names 'latin1'           | latin1
            SET time_zone = 'UTC', CHARACTER SET koi8r  | koi8r
            SET NAMES `utf8`                            | utf8
            SET CHARACTER SET utf8                      | utf8
            set character set "gbk"                     | gbk
            SET CHARSET 'binary'                        | binary
            /*!40101 SET NAMES utf8 */                  | utf8
            """)
    void findsTheCharacterSetOfSetNames(String sql, String charset) {
        SqlStatementInfo info = SqlClassifier.classify(sql);

        assertEquals(SqlKind.SET, info.kind());
        assertEquals(charset, info.charset());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SET autocommit = 0", "SET @a = 1", "SELECT 'SET NAMES latin1'", "SET sql_mode = ''"})
    void otherStatementsHaveNoCharacterSet(String sql) {
        assertNull(SqlClassifier.classify(sql).charset());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            'abc'           | abc
            "abc"           | abc
            `abc`           | abc
            'it''s'         | it's
            `a``b`          | a`b
            ''              | ~~
            abc             | abc
            'abc            | 'abc
            'abc"           | 'abc"
            '               | '
            """)
    void unquoteStripsOneLevelOfQuotes(String token, String expected) {
        assertEquals(expected, SqlClassifier.unquote(token));
    }

    @Test
    void splitsSeveralStatementsAtTheirSemicolons() {
        assertEquals(List.of("SELECT 1", " SELECT 'a;b' /* ; */", " DO 1"),
                SqlClassifier.split("SELECT 1; SELECT 'a;b' /* ; */; DO 1;"));
        assertEquals(List.of("SELECT \"x;\"", "\n-- c;\nSELECT `y;`"),
                SqlClassifier.split("SELECT \"x;\";;\n-- c;\nSELECT `y;`"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 1",
        "SELECT 1;",
        "CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END",
        "CREATE DEFINER=root@localhost FUNCTION f() RETURNS INT BEGIN RETURN 1; END; SELECT f()",
        "BEGIN NOT ATOMIC SELECT 1; SELECT 2; END",
        "IF 1 THEN SELECT 1; END IF",
        "main: BEGIN NOT ATOMIC SELECT 1; END",
        "CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET @a = 1; SET @b = 2; END"})
    void leavesWholeWhatTheServerReadsAsOne(String sql) {
        assertNull(SqlClassifier.split(sql));
    }

    @Test
    void aTransactionsBeginIsNotACompoundStatement() {
        assertEquals(List.of("BEGIN", " SELECT 1", " COMMIT"), SqlClassifier.split("BEGIN; SELECT 1; COMMIT"));
    }
}
