package io.strata.rule.sql.parser;

import static io.strata.rule.sql.parser.StatementType.ALTER_TABLE;
import static io.strata.rule.sql.parser.StatementType.CREATE_INDEX;
import static io.strata.rule.sql.parser.StatementType.CREATE_TABLE;
import static io.strata.rule.sql.parser.StatementType.DELETE;
import static io.strata.rule.sql.parser.StatementType.DROP_INDEX;
import static io.strata.rule.sql.parser.StatementType.DROP_TABLE;
import static io.strata.rule.sql.parser.StatementType.INSERT;
import static io.strata.rule.sql.parser.StatementType.LOAD_DATA;
import static io.strata.rule.sql.parser.StatementType.RENAME_TABLE;
import static io.strata.rule.sql.parser.StatementType.REPLACE;
import static io.strata.rule.sql.parser.StatementType.SELECT;
import static io.strata.rule.sql.parser.StatementType.TRUNCATE_TABLE;
import static io.strata.rule.sql.parser.StatementType.UPDATE;
import static io.strata.rule.sql.parser.TableName.read;
import static io.strata.rule.sql.parser.TableName.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The type of each statement form a rule meets, and the tables it names: which it reads, which it writes. */
class TablesOfStatementsTest {

    private final SqlParser parser = new SqlParser();

    static Stream<Arguments> queries() {
        return Stream.of(
                arguments("point select", "SELECT c FROM sbtest1 WHERE id = ?", List.of(read("sbtest1"))),
                arguments("3-table join", "SELECT a.x, b.y, c.z FROM t1 a JOIN t2 b ON a.id = b.aid"
                        + " LEFT JOIN t3 c ON c.bid = b.id WHERE a.k = ? AND c.z > 3",
                        List.of(read("t1"), read("t2"), read("t3"))),
                arguments("comma join and nested join brackets",
                        "SELECT * FROM t1, t2 LEFT JOIN (t3 JOIN t4 ON t3.id = t4.id) ON t2.id = t3.id",
                        List.of(read("t1"), read("t2"), read("t3"), read("t4"))),
                arguments("subqueries in WHERE", "SELECT * FROM t1 WHERE id IN (SELECT tid FROM t2 WHERE x = 1)"
                        + " AND EXISTS (SELECT 1 FROM t3) AND a > ANY (SELECT b FROM t4)",
                        List.of(read("t1"), read("t2"), read("t3"), read("t4"))),
                arguments("derived table in FROM, aliased as a table's name", "SELECT * FROM (SELECT * FROM t) AS t"
                        + " JOIN u ON u.id = t.id", List.of(read("t"), read("u"))),
                arguments("subqueries in the select list, GROUP BY, HAVING and ORDER BY",
                        "SELECT (SELECT MAX(x) FROM u) AS m FROM t GROUP BY (SELECT 1 FROM v)"
                        + " HAVING COUNT(*) > (SELECT 1 FROM w) ORDER BY (SELECT 2 FROM z)",
                        List.of(read("u"), read("t"), read("v"), read("w"), read("z"))),
                arguments("UNION", "SELECT a FROM t1 UNION ALL SELECT a FROM t2 UNION (SELECT a FROM t1)",
                        List.of(read("t1"), read("t2"))),
                arguments("WITH: CTE names are not tables",
                        "WITH c AS (SELECT * FROM t1), d AS (SELECT * FROM c JOIN t2) SELECT * FROM c JOIN d",
                        List.of(read("t1"), read("t2"))),
                arguments("WITH RECURSIVE reads itself", "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL"
                        + " SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r JOIN t ON t.id = r.n", List.of(read("t"))),
                arguments("a CTE shadows a table only in its scope",
                        "SELECT * FROM c WHERE x IN (WITH c AS (SELECT 1 FROM t) SELECT * FROM c)",
                        List.of(read("c"), read("t"))),
                arguments("FOR UPDATE is a locking read", "SELECT * FROM t WHERE id = 1 FOR UPDATE",
                        List.of(read("t"))),
                arguments("LOCK IN SHARE MODE", "SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE",
                        List.of(read("t"))),
                arguments("index hints, several per table, with FOR", "SELECT * FROM t FORCE INDEX (i1, i2)"
                        + " USE KEY FOR ORDER BY (i3) JOIN u IGNORE INDEX FOR JOIN (PRIMARY) ON t.id = u.id"
                        + " JOIN v AS x USE INDEX () ON x.id = u.id", List.of(read("t"), read("u"), read("v"))),
                arguments("backquoted names: schema, spaces, keywords, doubled backquotes",
                        "SELECT `a b`.`select` FROM `my db`.`a b` JOIN `order` ON `order`.`id` = `a b`.id"
                        + " JOIN `x``y` ON 1 WHERE `from` = 1",
                        List.of(read("a b").in("my db"), read("order"), read("x`y"))),
                arguments("qualified names", "SELECT * FROM db1.t1 JOIN db2.t1 ON 1 JOIN t1 ON 1",
                        List.of(read("t1").in("db1"), read("t1").in("db2"), read("t1"))),
                arguments("parameters in every position", "SELECT ?, c FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?",
                        List.of(read("t"))),
                arguments("DUAL is no table", "SELECT NOW() FROM DUAL", List.of()),
                arguments("no table", "SELECT 1 + 1", List.of()),
                arguments("TABLE statement", "TABLE t", List.of(read("t"))),
                arguments("LATERAL and JSON_TABLE", "SELECT * FROM t, LATERAL (SELECT * FROM u WHERE u.id = t.id) l,"
                        + " JSON_TABLE(t.j, '$[*]' COLUMNS (a INT PATH '$.a')) AS jt", List.of(read("t"), read("u"))),
                arguments("MySQL strings: backslash escapes, double quotes, # comments",
                        "SELECT * FROM t WHERE a = 'it\\'s' AND b = \"q\" # JOIN u\n AND c = 'x''y'",
                        List.of(read("t"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void queriesReadTheirTables(String form, String sql, List<TableName> tables) {
        assertTables(sql, SELECT, tables);
    }

    static Stream<Arguments> writes() {
        return Stream.of(
                arguments("INSERT ... VALUES, several rows", INSERT, "INSERT INTO t (a, b) VALUES (1, 2), (3, 4), (?, ?)",
                        List.of(written("t"))),
                arguments("INSERT ... SET", INSERT, "INSERT INTO t SET a = 1, b = 'x'", List.of(written("t"))),
                arguments("INSERT IGNORE", INSERT, "INSERT IGNORE INTO `db`.`t` (`a`, `key`) VALUES (1, 2)",
                        List.of(written("t").in("db"))),
                arguments("INSERT IGNORE without INTO", INSERT, "INSERT IGNORE t (a) VALUES (1)",
                        List.of(written("t"))),
                arguments("INSERT with a subquery among the values", INSERT,
                        "INSERT INTO t (a) VALUES ((SELECT MAX(a) FROM u))", List.of(written("t"), read("u"))),
                arguments("ON DUPLICATE KEY UPDATE", INSERT, "INSERT INTO t (a, b) VALUES (1, 2)"
                        + " ON DUPLICATE KEY UPDATE b = VALUES(b), a = (SELECT MAX(a) FROM u)",
                        List.of(written("t"), read("u"))),
                arguments("INSERT ... SELECT reads its source", INSERT,
                        "INSERT INTO db.t (a) SELECT x FROM s JOIN u ON s.id = u.id WHERE s.k = ?",
                        List.of(written("t").in("db"), read("s"), read("u"))),
                arguments("INSERT ... SELECT from itself", INSERT, "INSERT INTO t SELECT * FROM t",
                        List.of(written("t"))),
                arguments("REPLACE ... VALUES", REPLACE, "REPLACE INTO t (a, b) VALUES (1, 2)", List.of(written("t"))),
                arguments("REPLACE ... SET", REPLACE, "REPLACE t SET a = (SELECT 1 FROM u)",
                        List.of(written("t"), read("u"))),
                arguments("REPLACE LOW_PRIORITY ... SELECT", REPLACE, "REPLACE LOW_PRIORITY INTO t SELECT * FROM s",
                        List.of(written("t"), read("s"))),
                arguments("UPDATE ... ORDER BY ... LIMIT", UPDATE,
                        "UPDATE t SET a = 1 WHERE b IN (SELECT b FROM u) ORDER BY id LIMIT 10",
                        List.of(written("t"), read("u"))),
                arguments("UPDATE with an index hint", UPDATE, "UPDATE `db`.`t` FORCE INDEX (i) SET `desc` = 1",
                        List.of(written("t").in("db"))),
                arguments("multi-table UPDATE writes the tables its SET assigns", UPDATE,
                        "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = t2.b WHERE t2.c = 1",
                        List.of(written("t1"), read("t2"))),
                arguments("multi-table UPDATE through aliases", UPDATE,
                        "UPDATE t1 a INNER JOIN t2 b ON a.id = b.id JOIN t3 c ON c.id = b.id SET a.x = 1, b.y = c.z",
                        List.of(written("t1"), written("t2"), read("t3"))),
                arguments("multi-table UPDATE, comma form", UPDATE, "UPDATE t1, t2 SET t2.a = t1.b WHERE t1.id = t2.id",
                        List.of(read("t1"), written("t2"))),
                arguments("multi-table UPDATE with an unqualified column writes every table it joins", UPDATE,
                        "UPDATE t1 JOIN t2 ON t1.id = t2.id SET a = 1", List.of(written("t1"), written("t2"))),
                arguments("multi-table UPDATE joining a derived table", UPDATE,
                        "UPDATE t1 JOIN (SELECT * FROM t2) d ON d.id = t1.id SET t1.a = d.b",
                        List.of(written("t1"), read("t2"))),
                arguments("DELETE ... ORDER BY ... LIMIT", DELETE,
                        "DELETE FROM t WHERE id IN (SELECT id FROM u) ORDER BY id LIMIT 10",
                        List.of(written("t"), read("u"))),
                arguments("DELETE t1 FROM t1 JOIN t2", DELETE, "DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id WHERE t2.c = 1",
                        List.of(written("t1"), read("t2"))),
                arguments("DELETE FROM t1 USING t1 JOIN t2", DELETE,
                        "DELETE FROM t1 USING t1 JOIN t2 ON t1.id = t2.id WHERE t2.c = 1",
                        List.of(written("t1"), read("t2"))),
                arguments("DELETE of two tables of three, USING form", DELETE,
                        "DELETE LOW_PRIORITY FROM t1, t2 USING t1 INNER JOIN t2 INNER JOIN t3"
                        + " WHERE t1.id = t2.id AND t2.id = t3.id", List.of(written("t1"), written("t2"), read("t3"))),
                arguments("DELETE through aliases with .* targets", DELETE,
                        "DELETE a.*, b.* FROM db.t1 AS a JOIN t2 AS b ON a.id = b.id JOIN t3 ON 1",
                        List.of(written("t1").in("db"), written("t2"), read("t3"))),
                arguments("DELETE FROM ... USING a comma list", DELETE,
                        "DELETE FROM t1 USING t1, t2 WHERE t1.id = t2.id", List.of(written("t1"), read("t2"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void writesNameTheirTargets(String form, StatementType type, String sql, List<TableName> tables) {
        assertTables(sql, type, tables);
    }

    static Stream<Arguments> ddl() {
        return Stream.of(
                arguments("CREATE TABLE", CREATE_TABLE, "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                        + " c VARCHAR(10) NOT NULL DEFAULT '', KEY k (c)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                        List.of(written("t"))),
                arguments("CREATE TABLE IF NOT EXISTS", CREATE_TABLE, "CREATE TABLE IF NOT EXISTS `db`.`t` (id INT)",
                        List.of(written("t").in("db"))),
                arguments("CREATE TABLE ... LIKE reads its model", CREATE_TABLE, "CREATE TABLE t2 LIKE db.t1",
                        List.of(written("t2"), read("t1").in("db"))),
                arguments("CREATE TABLE ... AS SELECT", CREATE_TABLE, "CREATE TABLE t2 AS SELECT * FROM t1",
                        List.of(written("t2"), read("t1"))),
                arguments("ALTER TABLE", ALTER_TABLE, "ALTER TABLE t ADD COLUMN x INT AFTER id, ADD INDEX i (x)",
                        List.of(written("t"))),
                arguments("ALTER TABLE ... RENAME TO", ALTER_TABLE, "ALTER TABLE `db`.t RENAME TO `u`",
                        List.of(written("t").in("db"), written("u"))),
                arguments("DROP TABLE", DROP_TABLE, "DROP TABLE t", List.of(written("t"))),
                arguments("DROP TABLE IF EXISTS, several", DROP_TABLE, "DROP TEMPORARY TABLE IF EXISTS t1, `db`.t2, t3",
                        List.of(written("t1"), written("t2").in("db"), written("t3"))),
                arguments("TRUNCATE TABLE", TRUNCATE_TABLE, "TRUNCATE TABLE t", List.of(written("t"))),
                arguments("TRUNCATE without TABLE", TRUNCATE_TABLE, "TRUNCATE `db`.`t`",
                        List.of(written("t").in("db"))),
                arguments("RENAME TABLE", RENAME_TABLE, "RENAME TABLE a TO b", List.of(written("a"), written("b"))),
                arguments("RENAME TABLE, several", RENAME_TABLE, "RENAME TABLE a TO b, db.c TO db.d",
                        List.of(written("a"), written("b"), written("c").in("db"), written("d").in("db"))),
                arguments("CREATE INDEX", CREATE_INDEX, "CREATE INDEX i ON t (a, b)", List.of(written("t"))),
                arguments("CREATE UNIQUE INDEX", CREATE_INDEX, "CREATE UNIQUE INDEX i USING BTREE ON db.t (a(10))",
                        List.of(written("t").in("db"))),
                arguments("DROP INDEX", DROP_INDEX, "DROP INDEX i ON t", List.of(written("t"))),
                arguments("DROP INDEX, backquoted", DROP_INDEX, "DROP INDEX `i` ON `my db`.`t`",
                        List.of(written("t").in("my db"))),
                arguments("LOAD DATA", LOAD_DATA, "LOAD DATA INFILE '/tmp/into table x' INTO TABLE t",
                        List.of(written("t"))),
                arguments("LOAD DATA LOCAL ... REPLACE", LOAD_DATA, "LOAD DATA LOW_PRIORITY LOCAL INFILE 'x.csv'"
                        + " REPLACE INTO TABLE `db`.`t` FIELDS TERMINATED BY ',' (a, b)",
                        List.of(written("t").in("db"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ddl")
    void ddlWritesItsTables(String form, StatementType type, String sql, List<TableName> tables) {
        assertTables(sql, type, tables);
    }

    private void assertTables(String sql, StatementType type, List<TableName> tables) {
        ParsedStatement statement = parser.parse(sql);
        assertEquals(null, statement.unparsedReason(), sql);
        assertEquals(type, statement.type(), sql);
        assertEquals(tables, statement.tables(), sql);
    }
}
