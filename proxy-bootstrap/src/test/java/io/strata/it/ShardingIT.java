package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SHARDING over two MariaDB servers, proven against one plain database: t_order and its bound t_order_item are
 * split by user_id (MOD, two data sources) and order_id (INLINE, two tables each); t_range by id (BOUNDARY_RANGE);
 * t_dict is broadcast. The same rows are loaded into a plain schema, and every query, hand-written or drawn by a
 * seeded generator, must answer there and through Strata with the same rows and the same column metadata. Where
 * the rows went is read from the servers' actual tables.
 */
class ShardingIT {

    private static final String SCHEMA_A = "sh_a";
    private static final String SCHEMA_B = "sh_b";
    private static final String PLAIN = "sh_plain";
    static final String RULES = """
            - type: SHARDING
              tables:
                t_order:
                  actualDataNodes: ds_${0..1}.t_order_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_inline } }
                t_order_item:
                  actualDataNodes: ds_${0..1}.t_order_item_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_item_inline } }
                  keyGenerateStrategy: { column: item_id, keyGeneratorName: snowflake }
                t_range:
                  actualDataNodes: ds_0.t_range_0, ds_1.t_range_1
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: id_range } }
                  tableStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: id_range } }
                t_hint:
                  actualDataNodes: ds_${0..1}.t_hint
                  databaseStrategy: { hint: { shardingAlgorithmName: hint_ds } }
                t_audit:
                  actualDataNodes: ds_${0..1}.t_audit
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: database_mod } }
                  auditStrategy: { auditorNames: [ sharding_key_required ] }
              auditors:
                sharding_key_required: { type: DML_SHARDING_CONDITIONS }
              autoTables:
                t_auto:
                  actualDataSources: ds_${0..1}
                  shardingStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: auto_mod } }
              bindingTables: [ "t_order,t_order_item" ]
              shardingAlgorithms:
                database_mod: { type: MOD, props: { sharding-count: 2 } }
                auto_mod: { type: MOD, props: { sharding-count: 4 } }
                hint_ds: { type: HINT_INLINE, props: { algorithm-expression: "ds_${value % 2}" } }
                t_order_inline: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}",
                                                          allow-range-query-with-inline-sharding: true } }
                t_item_inline: { type: INLINE, props: { algorithm-expression: "t_order_item_${order_id % 2}",
                                                         allow-range-query-with-inline-sharding: true } }
                id_range: { type: BOUNDARY_RANGE, props: { sharding-ranges: "100" } }
              keyGenerators:
                snowflake: { type: SNOWFLAKE, props: { worker-id: 1 } }
            - type: BROADCAST
              tables: [t_dict]
            """;
    static final String[] CREATE = {
            "CREATE TABLE %s (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(10), "
                    + "amount DECIMAL(10,2), note VARCHAR(10) COLLATE utf8mb4_general_ci, created DATE)",
            "CREATE TABLE %s (item_id BIGINT PRIMARY KEY, order_id BIGINT NOT NULL, user_id INT NOT NULL, qty INT)",
            "CREATE TABLE %s (id INT PRIMARY KEY, v VARCHAR(10), w VARCHAR(10) COLLATE utf8mb4_nopad_bin, "
                    + "p VARCHAR(10) COLLATE utf8mb4_bin)",
            "CREATE TABLE %s (code VARCHAR(10) PRIMARY KEY, name VARCHAR(20))",
            "CREATE TABLE %s (code VARCHAR(10) PRIMARY KEY, label VARCHAR(20))"};
    /** t_single is neither sharded nor broadcast: it lives on ds_0 alone. */
    static final String[] LOGICAL = {"t_order", "t_order_item", "t_range", "t_dict", "t_single"};
    private static final String[] STATUSES = {"new", "paid", "shipped", "Paid", null};
    private static final String[] NOTES = {"a", "B", "c", "A", "b", "C "};
    /** Values of a NO PAD column: trailing spaces make them different values. */
    private static final String[] WORDS = {"x", "x ", "x  ", "y", "x\t"};
    /** Values of a PAD SPACE column: 'x' equals 'x ', and 'x\t' sorts before both (the server pads with spaces). */
    private static final String[] PADDED = {"x", "x ", "x\t", "x\ty", "x!", "w"};

    /** Values as a case-insensitive PAD SPACE collation compares them: either of 'a' and 'A ' may stand for both. */
    static final UnaryOperator<String> CASE_AND_PADDING =
            v -> v.toLowerCase(java.util.Locale.ROOT).stripTrailing();

    private static EmbeddedMariaDb serverA;
    private static EmbeddedMariaDb serverB;
    private static Strata strata;

    @BeforeAll
    static void start() throws SQLException {
        serverA = Backend.server();
        serverA.createDatabase(SCHEMA_A, "strata", "strata");
        serverA.createDatabase(PLAIN, "strata", "strata");
        serverB = EmbeddedMariaDb.start(0);
        serverB.createDatabase(SCHEMA_B, "strata", "strata");
        strata = Strata.builder().config(config()).start();
        for (int t = 0; t < LOGICAL.length; t++) {
            direct(serverA, PLAIN, "DROP TABLE IF EXISTS " + LOGICAL[t], CREATE[t].formatted(LOGICAL[t]));
        }
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            for (int t = 0; t < LOGICAL.length; t++) {
                st.execute("DROP TABLE IF EXISTS " + LOGICAL[t]);
                st.execute(CREATE[t].formatted(LOGICAL[t])); // DDL runs on every actual table
            }
            for (String sql : load()) {
                st.executeUpdate(sql);
            }
            awaitColumnsRead(st);
        }
        direct(serverA, PLAIN, load().toArray(String[]::new));
    }

    /**
     * Strata reads a sharded table's columns a moment after DDL through it; until then a * whose columns a merge
     * needs is refused (1235). Waits until the suite's tables are read.
     */
    static void awaitColumnsRead(Statement st) throws SQLException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        for (String table : List.of("t_order", "t_order_item", "t_range")) {
            while (true) {
                try {
                    st.executeQuery("SELECT DISTINCT * FROM " + table + " LIMIT 0").close();
                    break;
                } catch (SQLException e) {
                    if (e.getErrorCode() != 1235 || System.nanoTime() > deadline) {
                        throw e;
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw new SQLException(interrupted);
                    }
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (serverB != null) {
            serverB.close();
        }
    }

    private static StrataConfig config() {
        return StrataFixture.shop(serverA, SCHEMA_A, serverB, SCHEMA_B, RULES);
    }

    /** 200 orders of 13 users, two items each, 200 ids over both ranges, a dictionary. */
    static List<String> load() {
        List<String> sql = new ArrayList<>();
        StringBuilder orders = new StringBuilder("INSERT INTO t_order (order_id, user_id, status, amount, note, "
                + "created) VALUES ");
        StringBuilder items = new StringBuilder("INSERT INTO t_order_item (item_id, order_id, user_id, qty) VALUES ");
        StringBuilder range = new StringBuilder("INSERT INTO t_range (id, v, w, p) VALUES ");
        for (int i = 1; i <= 200; i++) {
            String status = STATUSES[i % STATUSES.length];
            orders.append(i == 1 ? "" : ", ").append("(").append(i).append(", ").append(i * 7 % 13).append(", ")
                    .append(status == null ? "NULL" : "'" + status + "'").append(", ").append(i * 37 % 1000 / 10.0)
                    .append(", '").append(NOTES[i % NOTES.length]).append("', '2026-0").append(1 + i % 9)
                    .append("-1").append(i % 10).append("')");
            items.append(i == 1 ? "" : ", ").append("(").append(2 * i).append(", ").append(i).append(", ")
                    .append(i * 7 % 13).append(", ").append(i % 5).append("), (").append(2 * i + 1).append(", ")
                    .append(i).append(", ").append(i * 7 % 13).append(", ").append(i % 3).append(")");
            range.append(i == 1 ? "" : ", ").append("(").append(i).append(", 'v").append(i % 17).append("', '")
                    .append(WORDS[i % WORDS.length]).append("', '").append(PADDED[i % PADDED.length]).append("')");
        }
        sql.add(orders.toString());
        sql.add(items.toString());
        sql.add(range.toString());
        sql.add("INSERT INTO t_dict VALUES ('new', 'New'), ('paid', 'Paid'), ('shipped', 'Shipped')");
        sql.add("INSERT INTO t_single VALUES ('new', 'fresh'), ('shipped', 'gone'), ('lost', 'lost')");
        return sql;
    }

    static List<String> handWritten() {
        return List.of(
                "SELECT * FROM t_order WHERE order_id = 7 AND user_id = 10",
                "SELECT * FROM t_order WHERE user_id = 3",
                "SELECT order_id, status FROM t_order WHERE user_id IN (1, 2, 3)",
                "SELECT order_id FROM t_order WHERE order_id BETWEEN 10 AND 20",
                "SELECT order_id FROM t_order WHERE order_id > 190 OR user_id = 5",
                "SELECT * FROM t_order ORDER BY order_id",
                "SELECT * FROM t_order ORDER BY order_id DESC LIMIT 5",
                "SELECT order_id, amount FROM t_order ORDER BY amount DESC, order_id LIMIT 10, 5",
                "SELECT order_id, note FROM t_order ORDER BY note, order_id",
                "SELECT order_id, status FROM t_order ORDER BY status DESC, order_id",
                "SELECT order_id, status FROM t_order ORDER BY status, order_id DESC LIMIT 30",
                "SELECT `order_id` FROM `t_order` WHERE `user_id` = 4 ORDER BY `order_id`",
                "SELECT COUNT(*) FROM t_order",
                "SELECT COUNT(*), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM t_order",
                "SELECT COUNT(*), SUM(amount), AVG(amount) FROM t_order WHERE user_id = 99",
                "SELECT COUNT(status), MIN(note), MAX(note), MIN(created), MAX(created) FROM t_order",
                "SELECT user_id, COUNT(*) FROM t_order GROUP BY user_id",
                "SELECT user_id, COUNT(*) AS c, SUM(amount) FROM t_order GROUP BY user_id ORDER BY c DESC, user_id",
                "SELECT status, AVG(amount), COUNT(*) FROM t_order GROUP BY status",
                "SELECT note, COUNT(*) FROM t_order GROUP BY note",
                "SELECT user_id, MAX(note), MIN(status) FROM t_order GROUP BY user_id",
                "SELECT user_id, COUNT(*) FROM t_order GROUP BY user_id HAVING COUNT(*) > 15",
                "SELECT user_id, SUM(amount) AS s FROM t_order GROUP BY user_id HAVING s > 700 AND COUNT(*) < 17",
                "SELECT user_id, AVG(amount) FROM t_order GROUP BY user_id ORDER BY AVG(amount) DESC LIMIT 3",
                "SELECT DISTINCT status FROM t_order",
                "SELECT DISTINCT note FROM t_order",
                "SELECT DISTINCT user_id FROM t_order ORDER BY user_id DESC",
                "SELECT DISTINCT user_id, status FROM t_order ORDER BY user_id, status LIMIT 7",
                "SELECT o.order_id, i.item_id, i.qty FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id WHERE o.user_id = 4",
                "SELECT o.order_id, COUNT(i.item_id), SUM(i.qty) FROM t_order o JOIN t_order_item i "
                        + "ON o.order_id = i.order_id AND o.user_id = i.user_id GROUP BY o.order_id",
                "SELECT o.order_id, d.name FROM t_order o JOIN t_dict d ON o.status = d.code WHERE o.order_id < 30",
                "SELECT COUNT(*) FROM t_order WHERE user_id = 3 AND status = 'paid'",
                "SELECT * FROM t_range WHERE id < 50",
                "SELECT * FROM t_range WHERE id BETWEEN 90 AND 110 ORDER BY id",
                "SELECT v, COUNT(*) FROM t_range GROUP BY v ORDER BY v",
                "SELECT id FROM t_range ORDER BY v DESC, id LIMIT 20, 10",
                "SELECT MIN(created), MAX(created) FROM t_order",
                "SELECT COUNT(DISTINCT user_id), COUNT(DISTINCT note), SUM(DISTINCT amount), AVG(DISTINCT user_id) "
                        + "FROM t_order",
                "SELECT status, COUNT(DISTINCT user_id), SUM(amount), COUNT(*) FROM t_order GROUP BY status",
                "SELECT user_id, COUNT(DISTINCT status) AS s FROM t_order GROUP BY user_id HAVING s > 2",
                "DESCRIBE t_order",
                "SHOW COLUMNS FROM t_order_item",
                "SELECT user_id, COUNT(*) FROM t_order WHERE user_id IN (1, 2) GROUP BY user_id ORDER BY user_id "
                        + "LIMIT 1",
                "SELECT * FROM t_order WHERE order_id IN (3, 4, 5, 150) ORDER BY order_id",
                "SELECT order_id FROM t_order LIMIT 0",
                "SELECT t_order.* FROM t_order WHERE order_id < 12 ORDER BY created, order_id",
                // groups of every sharding column live on one node each: any aggregate, GROUP_CONCAT too
                "SELECT user_id, order_id, GROUP_CONCAT(item_id ORDER BY item_id DESC SEPARATOR '/'), COUNT(*) "
                        + "FROM t_order_item GROUP BY user_id, order_id ORDER BY order_id LIMIT 5, 10",
                "SELECT i.order_id, GROUP_CONCAT(DISTINCT qty), SUM(qty) FROM t_order_item i "
                        + "GROUP BY i.order_id, i.user_id HAVING SUM(qty) > 3 ORDER BY 3 DESC, 1",
                "SELECT user_id, order_id, MAX(status), COUNT(*) FROM t_order GROUP BY order_id, user_id",
                // GROUP_CONCAT over groups that span nodes: each node's tuples, joined by the merge
                "SELECT user_id, GROUP_CONCAT(order_id ORDER BY order_id DESC), COUNT(*) FROM t_order "
                        + "GROUP BY user_id ORDER BY user_id",
                "SELECT user_id, GROUP_CONCAT(DISTINCT status ORDER BY status SEPARATOR '|') FROM t_order "
                        + "GROUP BY user_id ORDER BY user_id",
                "SELECT status, GROUP_CONCAT(amount, ':', order_id ORDER BY amount DESC, order_id SEPARATOR ' ') "
                        + "FROM t_order GROUP BY status ORDER BY status",
                "SELECT GROUP_CONCAT(note ORDER BY note DESC, order_id), COUNT(DISTINCT note) FROM t_order "
                        + "WHERE user_id < 3",
                "SELECT user_id, GROUP_CONCAT(DISTINCT note ORDER BY note), SUM(amount) FROM t_order "
                        + "GROUP BY user_id ORDER BY user_id",
                "SELECT o.user_id, GROUP_CONCAT(i.qty ORDER BY i.qty, i.item_id) FROM t_order o JOIN t_order_item i "
                        + "ON o.order_id = i.order_id AND o.user_id = i.user_id GROUP BY o.user_id ORDER BY 1",
                "SELECT GROUP_CONCAT(order_id ORDER BY order_id) FROM t_order WHERE order_id < 0",
                // the columns behind * where the merge needs them one by one
                "SELECT DISTINCT * FROM t_order WHERE user_id < 4 ORDER BY 3, 1",
                "SELECT DISTINCT i.* FROM t_order_item i WHERE qty > 2",
                "SELECT DISTINCT * FROM t_range WHERE id > 90",
                "SELECT * FROM t_order ORDER BY 5 DESC, 1 LIMIT 9",
                "SELECT o.*, i.qty FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id ORDER BY 7 DESC, 1, i.item_id LIMIT 12",
                "SELECT *, amount * 2 AS twice FROM t_order GROUP BY order_id, user_id ORDER BY 7, 1 LIMIT 5");
    }

    /** Queries drawn by a seeded generator: conditions, orders, limits, groups and aggregates in combination. */
    static List<String> generated() {
        Random random = new Random(20261127);
        String[] columns = {"order_id", "user_id", "status", "amount", "note", "created"};
        String[] groups = {"user_id", "status", "note", "created"};
        List<String> queries = new ArrayList<>();
        for (int n = 0; n < 200; n++) {
            String where = random.nextInt(4) == 0 ? "" : " WHERE " + condition(random);
            if (random.nextBoolean()) {
                String group = groups[random.nextInt(groups.length)];
                String having = random.nextInt(3) == 0 ? " HAVING COUNT(*) > " + random.nextInt(20) : "";
                String order = random.nextBoolean() ? " ORDER BY 2 DESC, 1" + (random.nextBoolean()
                        ? " LIMIT " + random.nextInt(5) + ", " + (1 + random.nextInt(6)) : "") : "";
                queries.add("SELECT " + group + ", COUNT(*), SUM(amount), MIN(amount), MAX(note), AVG(amount) FROM "
                        + "t_order" + where + " GROUP BY " + group + having + order);
            } else {
                String first = columns[random.nextInt(columns.length)];
                String second = columns[random.nextInt(columns.length)];
                String order = random.nextBoolean() ? "" : " ORDER BY " + first + (random.nextBoolean() ? " DESC" : "")
                        + ", order_id" + (random.nextBoolean() ? " LIMIT " + random.nextInt(10) + ", "
                        + random.nextInt(15) : "");
                queries.add("SELECT order_id, " + first + ", " + second + " FROM t_order" + where + order);
            }
        }
        return queries;
    }

    private static String condition(Random random) {
        String one = switch (random.nextInt(7)) {
            case 0 -> "user_id = " + random.nextInt(14);
            case 1 -> "user_id IN (" + random.nextInt(13) + ", " + random.nextInt(13) + ")";
            case 2 -> "order_id BETWEEN " + random.nextInt(100) + " AND " + (100 + random.nextInt(100));
            case 3 -> "order_id < " + random.nextInt(200);
            case 4 -> "amount > " + random.nextInt(100);
            case 5 -> "status = '" + STATUSES[random.nextInt(4)] + "'";
            default -> "order_id = " + random.nextInt(210);
        };
        return switch (random.nextInt(4)) {
            case 0 -> one + " AND " + condition(random);
            case 1 -> "(" + one + " OR " + condition(random) + ")";
            default -> one;
        };
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void everyQueryAnswersAsOnePlainDatabaseWould(Driver driver, boolean binary) throws SQLException {
        List<String> queries = new ArrayList<>(handWritten());
        queries.addAll(generated());
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary)) {
            for (String sql : queries) {
                assertSameAnswer(sql, plain, sharded, binary);
            }
        }
    }

    /**
     * GROUP_CONCAT over groups on several nodes is cut at the session's group_concat_max_len as one server cuts it;
     * without an ORDER BY inside, any order of its items is the server's too, so they are compared as a multiset.
     */
    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void groupConcatOverSeveralNodesIsCutAndJoinedAsOnOneServer(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary);
             Statement p = plain.createStatement(); Statement s = sharded.createStatement()) {
            for (Statement st : List.of(p, s)) {
                st.execute("SET SESSION group_concat_max_len = 11");
            }
            for (String sql : List.of("SELECT user_id, GROUP_CONCAT(order_id ORDER BY order_id) FROM t_order "
                            + "GROUP BY user_id ORDER BY user_id",
                    "SELECT GROUP_CONCAT(status, note ORDER BY order_id SEPARATOR '--') FROM t_order")) {
                assertSameAnswer(sql, plain, sharded, binary, CASE_AND_PADDING);
            }
            for (Statement st : List.of(p, s)) {
                st.execute("SET SESSION group_concat_max_len = DEFAULT");
            }
            String unordered = "SELECT user_id, GROUP_CONCAT(order_id SEPARATOR ';') FROM t_order GROUP BY user_id "
                    + "ORDER BY user_id";
            assertEquals(concatenatedItems(p, unordered), concatenatedItems(s, unordered), unordered);
        }
    }

    /** An INSERT that names no columns (mysqldump's form) goes by the table's columns as Strata read them. */
    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void anInsertWithoutAColumnListGoesWhereItsShardingValuesSay(Driver driver, boolean binary) throws SQLException {
        int base = 7000 + 10 * (driver.ordinal() * 2 + (binary ? 1 : 0));
        try (Connection c = connect(driver, binary); Statement st = c.createStatement();
             PreparedStatement insert = c.prepareStatement("INSERT INTO t_order VALUES (?, ?, 'nc', 1.50, 'n', "
                     + "'2026-01-01'), (?, ?, 'nc', 2.50, 'n', '2026-01-02')")) {
            try {
                insert.setInt(1, base);
                insert.setInt(2, 3);
                insert.setInt(3, base + 1);
                insert.setInt(4, 4);
                assertEquals(2, insert.executeUpdate());
                assertEquals(1, st.executeUpdate("INSERT INTO t_order VALUES (" + (base + 2) + ", 5, 'nc', NULL, "
                        + "NULL, NULL)"));
                // user 3 and 5 on ds_1 (server B), user 4 on ds_0 (server A); the table by order_id % 2
                assertEquals(List.of(List.of(String.valueOf(base))), read(serverB, SCHEMA_B,
                        "SELECT order_id FROM t_order_" + base % 2 + " WHERE status = 'nc' AND user_id = 3"));
                assertEquals(List.of(List.of(String.valueOf(base + 1), "2.50")), read(serverA, SCHEMA_A,
                        "SELECT order_id, amount FROM t_order_" + (base + 1) % 2 + " WHERE status = 'nc'"));
                assertEquals(List.of(List.of(String.valueOf(base + 2))), read(serverB, SCHEMA_B,
                        "SELECT order_id FROM t_order_" + base % 2 + " WHERE status = 'nc' AND user_id = 5"));
                SQLException wrongWidth = assertThrows(SQLException.class,
                        () -> st.executeUpdate("INSERT INTO t_order VALUES (1, 2)"));
                assertEquals(1235, wrongWidth.getErrorCode(), wrongWidth.getMessage());
            } finally {
                st.executeUpdate("DELETE FROM t_order WHERE status = 'nc'");
            }
        }
    }

    /**
     * A table changed behind Strata's back (DDL straight on the backends): a * planned over the columns Strata read
     * is refused, not merged by the wrong columns; Strata reads them again and the next statement has the new one.
     */
    @Test
    void aStarOverColumnsThatChangedIsRefusedThenAnsweredWithTheNewColumns() throws Exception {
        String sql = "SELECT DISTINCT * FROM t_range WHERE id BETWEEN 95 AND 104 ORDER BY 1"; // both nodes
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            assertEquals(4, columnCount(st, sql));
            direct(serverA, SCHEMA_A, "ALTER TABLE t_range_0 ADD COLUMN extra INT DEFAULT 7");
            direct(serverB, SCHEMA_B, "ALTER TABLE t_range_1 ADD COLUMN extra INT DEFAULT 7");
            try {
                SQLException changed = assertThrows(SQLException.class, () -> columnCount(st, sql));
                assertEquals(1105, changed.getErrorCode(), changed.getMessage());
                assertTrue(changed.getMessage().contains("run the statement again"), changed.getMessage());
                awaitColumnsRead(st);
                assertEquals(5, columnCount(st, sql), "the new column, read again");
            } finally {
                direct(serverA, SCHEMA_A, "ALTER TABLE t_range_0 DROP COLUMN extra");
                direct(serverB, SCHEMA_B, "ALTER TABLE t_range_1 DROP COLUMN extra");
                st.execute("ALTER TABLE t_range COMMENT = 'read again'"); // DDL through Strata: read again
                awaitColumnsRead(st);
            }
            assertEquals(4, columnCount(st, sql));
        }
    }

    private static int columnCount(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            int rows = 0;
            while (rs.next()) {
                rows++;
            }
            assertEquals(10, rows, sql);
            return rs.getMetaData().getColumnCount();
        }
    }

    /** Each row's first column and the sorted items of its second, a GROUP_CONCAT separated by ';'. */
    private static List<String> concatenatedItems(Statement st, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> items = new ArrayList<>(List.of(rs.getString(2).split(";")));
                items.sort(null);
                rows.add(rs.getString(1) + "=" + items);
            }
        }
        return rows;
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void parametersRouteAndMergeAsLiterals(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary)) {
            String[] sqls = {"SELECT * FROM t_order WHERE user_id = ? AND order_id = ?",
                    "SELECT order_id, amount FROM t_order WHERE user_id IN (?, ?) ORDER BY amount DESC, order_id",
                    "SELECT status, COUNT(*), AVG(amount) FROM t_order WHERE order_id BETWEEN ? AND ? GROUP BY status",
                    "SELECT order_id FROM t_order WHERE note = ? ORDER BY order_id",
                    "SELECT DISTINCT note FROM t_order WHERE order_id > ? AND amount < ?",
                    "SELECT SUM(amount), MIN(created), MAX(note) FROM t_order WHERE created >= ? OR user_id = ?",
                    "SELECT order_id FROM t_order WHERE user_id <> ? ORDER BY order_id LIMIT ?",
                    "SELECT order_id, status FROM t_order WHERE status = ? OR status IS NULL ORDER BY 1",
                    "SELECT * FROM t_range WHERE id BETWEEN ? AND ? ORDER BY v, id",
                    "SELECT user_id FROM t_order WHERE order_id = ?"};
            // each statement runs twice: a driver sends the parameter types with the first execute only
            Object[][][] params = {{{10, 7}, {3, 44}}, {{1, 2}, {5, 9}}, {{20, 120}, {0, 300}}, {{"a"}, {"C"}},
                    {{17, new java.math.BigDecimal("50.5")}, {100, 1000}},
                    {{java.sql.Date.valueOf("2026-01-05"), 3}, {java.sql.Date.valueOf("2025-01-01"), 0}},
                    {{4, 9}, {7, 0}}, {{"paid"}, {null}}, {{95, 104}, {1, 3}}, {{8}, {9L}}};
            for (int q = 0; q < sqls.length; q++) {
                try (PreparedStatement p = plain.prepareStatement(sqls[q]);
                     PreparedStatement s = sharded.prepareStatement(sqls[q])) {
                    for (Object[] values : params[q]) {
                        for (int i = 0; i < values.length; i++) {
                            p.setObject(i + 1, values[i]);
                            s.setObject(i + 1, values[i]);
                        }
                        try (ResultSet expected = p.executeQuery(); ResultSet actual = s.executeQuery()) {
                            assertEquals(answer(sqls[q], expected, CASE_AND_PADDING),
                                    answer(sqls[q], actual, CASE_AND_PADDING), sqls[q] + " " + Arrays.asList(values));
                        }
                    }
                }
            }
        }
    }

    /**
     * An execute over several nodes runs on each as a prepared statement of the node's own text, with the values the
     * client sent: the server counts the executes (its text statements would count as queries).
     */
    @Test
    void executesOverSeveralNodesRunPreparedOnTheNodes() throws SQLException {
        String sql = "SELECT order_id, amount FROM t_order WHERE order_id BETWEEN ? AND ? ORDER BY amount, order_id";
        long before = status(serverB, "Com_stmt_execute");
        try (Connection plain = plain(Driver.MARIADB, true); Connection sharded = connect(Driver.MARIADB, true);
             PreparedStatement p = plain.prepareStatement(sql); PreparedStatement s = sharded.prepareStatement(sql)) {
            for (int low = 0; low < 100; low += 10) {
                for (PreparedStatement statement : List.of(p, s)) {
                    statement.setInt(1, low);
                    statement.setInt(2, low + 25);
                }
                try (ResultSet expected = p.executeQuery(); ResultSet actual = s.executeQuery()) {
                    assertEquals(answer(sql, expected, v -> v), answer(sql, actual, v -> v), "from " + low);
                }
            }
        }
        // ds_1 holds t_order_0 and t_order_1: both its nodes ran every execute
        assertTrue(status(serverB, "Com_stmt_execute") - before >= 20, "executes on ds_1");
    }

    private static long status(EmbeddedMariaDb server, String name) throws SQLException {
        return Long.parseLong(read(server, SCHEMA_B, "SHOW GLOBAL STATUS LIKE '" + name + "'").get(0).get(1));
    }

    /**
     * Results too large to merge on the client's loop (over 1,000 rows, and one node's rows filling their queue before
     * the other has answered): the merge then pulls them on a thread of its own as they arrive. 3,000 more rows of
     * t_range, all on ds_1 (the boundary is 100), merged with ds_0's 99.
     */
    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void largeResultsMergeAsTheyArriveAndAnswerAsOnePlainDatabaseWould(Driver driver, boolean binary)
            throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary);
             Statement p = plain.createStatement(); Statement s = sharded.createStatement()) {
            try {
                for (int first = 1001; first <= 4000; first += 200) { // a statement Strata parses is under 16 KiB
                    StringBuilder rows = new StringBuilder("INSERT INTO t_range (id, v) VALUES ");
                    for (int id = first; id < first + 200; id++) {
                        rows.append(id == first ? "" : ", ").append("(").append(id).append(", 'w").append(id % 211)
                                .append("')");
                    }
                    p.executeUpdate(rows.toString());
                    s.executeUpdate(rows.toString());
                }
                for (String sql : List.of("SELECT id, v FROM t_range ORDER BY v, id",
                        "SELECT v, COUNT(*), MIN(id), MAX(id) FROM t_range GROUP BY v ORDER BY v",
                        "SELECT DISTINCT v FROM t_range ORDER BY v",
                        "SELECT id FROM t_range WHERE id > 50 ORDER BY id DESC LIMIT 10, 2500",
                        "SELECT id, v FROM t_range")) {
                    assertSameAnswer(sql, plain, sharded, binary);
                }
            } finally {
                p.executeUpdate("DELETE FROM t_range WHERE id > 1000");
                s.executeUpdate("DELETE FROM t_range WHERE id > 1000");
            }
        }
    }

    @Test
    void rowsLandOnTheNodesTheirShardingValuesName() throws SQLException {
        for (int ds = 0; ds < 2; ds++) {
            EmbeddedMariaDb server = ds == 0 ? serverA : serverB;
            String schema = ds == 0 ? SCHEMA_A : SCHEMA_B;
            for (int t = 0; t < 2; t++) {
                List<List<String>> rows = read(server, schema, "SELECT user_id, order_id FROM t_order_" + t);
                assertTrue(rows.size() > 10, "each node holds rows");
                for (List<String> row : rows) {
                    assertEquals(ds, Integer.parseInt(row.get(0)) % 2, "user_id picks the data source");
                    assertEquals(t, Long.parseLong(row.get(1)) % 2, "order_id picks the table");
                }
            }
            assertEquals(1, read(server, schema, "SELECT COUNT(*) FROM t_range_" + ds).size());
            assertEquals(3, read(server, schema, "SELECT * FROM t_dict").size(), "broadcast on both");
        }
        assertEquals(List.of(List.of("99")), read(serverA, SCHEMA_A, "SELECT COUNT(*) FROM t_range_0"));
        assertEquals(List.of(List.of("101")), read(serverB, SCHEMA_B, "SELECT COUNT(*) FROM t_range_1"));
    }

    @Test
    void showTablesListsLogicalTables() throws SQLException {
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW TABLES")) {
            assertEquals("Tables_in_shop", rs.getMetaData().getColumnLabel(1));
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            assertTrue(names.containsAll(List.of("t_dict", "t_order", "t_order_item", "t_range")), names.toString());
            assertTrue(names.stream().noneMatch(n -> n.matches("t_order(_item)?_[01]|t_range_[01]")), names.toString());
        }
    }

    @Test
    void writesReachOnlyTheirShardsAndCountOnce() throws SQLException {
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS t_w LIKE t_dict"); // an unsharded table stays on ds_0
            assertEquals(3, st.executeUpdate("INSERT INTO t_order_item (order_id, user_id, qty) VALUES "
                    + "(1001, 1, 9), (1002, 2, 9), (1003, 3, 9)"), "rows split over nodes, counts summed");
            assertEquals(3, count(serverA, SCHEMA_A, "t_order_item_0", "qty = 9")
                    + count(serverA, SCHEMA_A, "t_order_item_1", "qty = 9")
                    + count(serverB, SCHEMA_B, "t_order_item_0", "qty = 9")
                    + count(serverB, SCHEMA_B, "t_order_item_1", "qty = 9"), "generated keys, one row each");
            assertEquals(1, count(serverB, SCHEMA_B, "t_order_item_1", "order_id = 1001"));
            String firstKey = read(serverB, SCHEMA_B, "SELECT item_id FROM t_order_item_1 WHERE order_id = 1001")
                    .get(0).get(0);
            try (ResultSet rs = st.executeQuery("SELECT LAST_INSERT_ID()")) {
                assertTrue(rs.next());
                assertEquals(firstKey, rs.getString(1), "the first generated key, as AUTO_INCREMENT's first id");
            }
            assertEquals(1, count(serverA, SCHEMA_A, "t_order_item_0", "order_id = 1002"));
            assertEquals(3, st.executeUpdate("UPDATE t_order_item SET qty = 8 WHERE qty = 9"));
            assertEquals(1, st.executeUpdate("DELETE FROM t_order_item WHERE order_id = 1001 AND user_id = 1"));
            assertEquals(2, st.executeUpdate("DELETE FROM t_order_item WHERE qty = 8"));
            SQLException refused = assertThrows(SQLException.class,
                    () -> st.executeUpdate("UPDATE t_order SET user_id = 3 WHERE order_id = 1"));
            assertTrue(refused.getMessage().contains("sharding column user_id"), refused.getMessage());
            refused = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (5000, NULL)"));
            assertTrue(refused.getMessage().contains("NULL"), refused.getMessage());
            refused = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM t_order o "
                    + "JOIN t_range r ON o.order_id = r.id"));
            assertTrue(refused.getMessage().contains("not bound"), refused.getMessage());
            refused = assertThrows(SQLException.class, () -> st.executeQuery("SELECT user_id FROM t_order "
                    + "GROUP BY user_id ORDER BY GROUP_CONCAT(status)"));
            assertTrue(refused.getMessage().contains("ORDER BY on a GROUP_CONCAT"), refused.getMessage());
            refused = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM t_order WHERE "
                    + "order_id IN (SELECT order_id FROM t_order_item)"));
            assertTrue(refused.getMessage().contains("t_order and t_order_item are not joined on equal sharding "
                    + "columns"), refused.getMessage());
            refused = assertThrows(SQLException.class, () -> st.executeUpdate("DELETE FROM t_order LIMIT 1"));
            assertTrue(refused.getMessage().contains("LIMIT"), refused.getMessage());
            try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE SELECT * FROM t_order WHERE user_id = 3")) {
                List<String> sqls = new ArrayList<>();
                while (rs.next()) {
                    sqls.add(rs.getString("data_source") + ": " + rs.getString("sql"));
                }
                assertEquals(List.of("ds_1: SELECT * FROM `t_order_0` WHERE user_id = 3",
                        "ds_1: SELECT * FROM `t_order_1` WHERE user_id = 3"), sqls);
            }
            // a key the first answer showed is a number (DECIMAL amount, BIGINT order_id) is merged without a weight
            String numbers = "SELECT order_id, amount FROM t_order WHERE amount > 5 ORDER BY amount DESC, order_id";
            st.executeQuery(numbers).close();
            try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE " + numbers)) {
                while (rs.next()) {
                    assertTrue(!rs.getString("sql").contains("WEIGHT_STRING"), rs.getString("sql"));
                }
            }
            // the merge column says what the merge does, per kind of statement; each unit's note names its node
            Map<String, String> merges = Map.of(
                    "SELECT order_id FROM t_order ORDER BY order_id DESC LIMIT 5", "ordered merge by #1 DESC; LIMIT 5",
                    "SELECT COUNT(*), AVG(amount) FROM t_order", "aggregate: COUNT #1, AVG #2",
                    "SELECT user_id, COUNT(*) FROM t_order GROUP BY user_id HAVING COUNT(*) > 2",
                    "grouped by #1 (streamed): COUNT #2; HAVING",
                    "SELECT DISTINCT status FROM t_order", "DISTINCT",
                    "SELECT user_id, SUM(amount) FROM t_order GROUP BY user_id ORDER BY 2 DESC LIMIT 1, 2",
                    "sorted in memory by #2 DESC; LIMIT 1, 2",
                    "SELECT * FROM t_order", "CONCATENATE");
            for (Map.Entry<String, String> merge : merges.entrySet()) {
                try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE " + merge.getKey())) {
                    int units = 0;
                    while (rs.next()) {
                        units++;
                        assertTrue(rs.getString("merge").contains(merge.getValue()),
                                merge.getKey() + ": " + rs.getString("merge"));
                        String notes = rs.getString("notes");
                        assertEquals(1, notes.split("->", -1).length - 1, notes);
                        assertTrue(notes.contains(rs.getString("data_source")) && rs.getString("sql")
                                .contains(notes.substring(notes.indexOf("-> ") + 3).split("[ ;]")[0]), notes);
                    }
                    assertEquals(4, units, merge.getKey());
                }
            }
        }
    }

    @Test
    void anAutoTableLaysOutItsTablesAndRowsAsShardingSphereDoes() throws SQLException {
        // t_auto: MOD 4 dealt over ds_0, ds_1: t_auto_0 and t_auto_2 on ds_0, t_auto_1 and t_auto_3 on ds_1
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS t_auto");
            st.execute("CREATE TABLE t_auto (id INT PRIMARY KEY, v VARCHAR(10))");
            StringBuilder insert = new StringBuilder("INSERT INTO t_auto (id, v) VALUES ");
            for (int id = 1; id <= 20; id++) {
                insert.append(id == 1 ? "" : ", ").append('(').append(id).append(", 'v").append(id).append("')");
            }
            assertEquals(20, st.executeUpdate(insert.toString()));
            for (int t = 0; t < 4; t++) {
                EmbeddedMariaDb server = t % 2 == 0 ? serverA : serverB;
                String schema = t % 2 == 0 ? SCHEMA_A : SCHEMA_B;
                List<List<String>> rows = read(server, schema, "SELECT id FROM t_auto_" + t);
                assertEquals(5, rows.size(), "t_auto_" + t + " holds a quarter of the rows");
                for (List<String> row : rows) {
                    assertEquals(t, Integer.parseInt(row.get(0)) % 4, "id mod 4 picks the table");
                }
            }
            assertTrue(read(serverA, SCHEMA_A, "SHOW TABLES LIKE 't_auto_1'").isEmpty(), "t_auto_1 is on ds_1 alone");
            try (ResultSet rs = st.executeQuery("SELECT v FROM t_auto WHERE id = 7")) {
                assertTrue(rs.next());
                assertEquals("v7", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(id) FROM t_auto WHERE id BETWEEN 3 AND 10")) {
                assertTrue(rs.next());
                assertEquals(8, rs.getInt(1));
                assertEquals(52, rs.getInt(2));
            }
            Map<String, List<String>> layout = new java.util.HashMap<>();
            try (ResultSet rs = st.executeQuery("SHOW STRATA SHARDING TABLES")) {
                while (rs.next()) {
                    layout.put(rs.getString("table"), Arrays.asList(rs.getString("data_nodes"),
                            rs.getString("database_strategy"), rs.getString("table_strategy"),
                            rs.getString("binding_tables")));
                }
            }
            assertEquals(List.of("ds_0.t_auto_0, ds_1.t_auto_1, ds_0.t_auto_2, ds_1.t_auto_3", "none",
                    "standard on id by auto_mod", ""), layout.get("t_auto"));
            assertEquals(List.of("ds_0.t_order_0, ds_0.t_order_1, ds_1.t_order_0, ds_1.t_order_1",
                    "standard on user_id by database_mod", "standard on order_id by t_order_inline",
                    "t_order, t_order_item"), layout.get("t_order"));
            try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE SELECT v FROM t_auto WHERE id = 6")) {
                assertTrue(rs.next());
                assertEquals("ds_0", rs.getString("data_source"));
                assertEquals("SELECT v FROM `t_auto_2` WHERE id = 6", rs.getString("sql"));
            }
            st.execute("DROP TABLE t_auto");
        }
    }

    @Test
    void aHintCommentPlacesTheRowsOfAHintShardedTable() throws SQLException {
        String ds1 = "/* SHARDINGSPHERE_HINT: t_hint.SHARDING_DATABASE_VALUE=1 */ ";
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS t_hint");
            st.execute("CREATE TABLE t_hint (id INT PRIMARY KEY, v VARCHAR(10))"); // on both data sources
            assertEquals(2, st.executeUpdate(ds1 + "INSERT INTO t_hint (id, v) VALUES (1, 'a'), (2, 'b')"));
            assertEquals(List.of(List.of("2")), read(serverB, SCHEMA_B, "SELECT COUNT(*) FROM t_hint"));
            assertEquals(List.of(List.of("0")), read(serverA, SCHEMA_A, "SELECT COUNT(*) FROM t_hint"));
            try (ResultSet rs = st.executeQuery(ds1 + "SELECT v FROM t_hint WHERE id = 2")) {
                assertTrue(rs.next());
                assertEquals("b", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("/* SHARDINGSPHERE_HINT: t_hint.SHARDING_DATABASE_VALUE=4 */ "
                    + "SELECT v FROM t_hint")) {
                assertTrue(!rs.next(), "ds_0 holds none of them");
            }
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t_hint")) { // no hint: every data source
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
            st.execute("DROP TABLE t_hint");
        }
    }

    @Test
    void anAuditorRefusesAScanOfItsTableUnlessAHintLetsItThrough() throws SQLException {
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            SQLException refused = assertThrows(SQLException.class,
                    () -> st.executeQuery("SELECT * FROM t_audit WHERE v = 'x'"));
            assertEquals(1235, refused.getErrorCode());
            assertTrue(refused.getMessage().contains("auditor sharding_key_required of t_audit "
                    + "(DML_SHARDING_CONDITIONS)"), refused.getMessage());
            List<String> routed = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE /* SHARDINGSPHERE_HINT: "
                    + "DISABLE_AUDIT_NAMES=sharding_key_required */ SELECT * FROM t_audit WHERE v = 'x'")) {
                while (rs.next()) {
                    routed.add(rs.getString("data_source"));
                }
            }
            assertEquals(List.of("ds_0", "ds_1"), routed, "the hint lets the scan through to every shard");
        }
    }

    @Test
    void bulkLoadsPastWhatTheParserReadsLandRowByRow() throws SQLException {
        // rows of item_id from..from+n-1: user_id = item_id % 13, order_id = item_id, qty = the load's mark
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            StringBuilder text = new StringBuilder("INSERT INTO t_order_item (item_id, order_id, user_id, qty) "
                    + "VALUES ");
            for (int id = 100_000; id < 103_000; id++) {
                text.append(id == 100_000 ? "" : ", ").append('(').append(id).append(", ").append(id).append(", ")
                        .append(id % 13).append(", 7)");
            }
            assertTrue(text.length() > 64 * 1024, "a mysqldump-sized statement");
            assertEquals(3000, st.executeUpdate(text.toString()), "one count over every node");
            assertRowsOnTheirNodes(3000, 7);
            // a driver's batch, rewritten into one text statement of many rows
            java.util.Properties rewrite = new java.util.Properties();
            rewrite.setProperty("rewriteBatchedStatements", "true");
            try (Connection mysql = Driver.MYSQL.connect(strata.port(), "shop", "root", "root", rewrite);
                 PreparedStatement ps = mysql.prepareStatement("INSERT INTO t_order_item (item_id, order_id, user_id, "
                         + "qty) VALUES (?, ?, ?, ?)")) {
                batch(ps, 200_000, 3000, 8);
            }
            assertRowsOnTheirNodes(3000, 8);
            // prepared on the server: one statement of 1500 rows of ?, executed with 6000 values
            try (Connection binary = connect(Driver.MARIADB, true)) {
                StringBuilder rows = new StringBuilder("INSERT INTO t_order_item (item_id, order_id, user_id, qty) "
                        + "VALUES ");
                for (int i = 0; i < 1500; i++) {
                    rows.append(i == 0 ? "(?, ?, ?, ?)" : ", (?, ?, ?, ?)");
                }
                try (PreparedStatement ps = binary.prepareStatement(rows.toString())) {
                    for (int i = 0; i < 1500; i++) {
                        long id = 300_000 + i;
                        ps.setLong(4 * i + 1, id);
                        ps.setLong(4 * i + 2, id);
                        ps.setInt(4 * i + 3, (int) (id % 13));
                        ps.setInt(4 * i + 4, 9);
                    }
                    assertEquals(1500, ps.executeUpdate());
                }
            }
            assertRowsOnTheirNodes(1500, 9);
            SQLException refused = assertThrows(SQLException.class, () -> st.executeUpdate(
                    text.toString().replace("(101500, 101500, 9, 7)", "(101500, 101500, NULL, 7)")));
            assertTrue(refused.getMessage().contains("NULL as sharding column user_id of t_order_item (row 1501)"),
                    refused.getMessage());
            assertRowsOnTheirNodes(3000, 7); // refused before any node ran a row
        } finally {
            try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM t_order_item WHERE qty IN (7, 8, 9)");
            }
        }
    }

    private static void batch(PreparedStatement ps, long from, int rows, int qty) throws SQLException {
        for (long id = from; id < from + rows; id++) {
            ps.setLong(1, id);
            ps.setLong(2, id);
            ps.setInt(3, (int) (id % 13));
            ps.setInt(4, qty);
            ps.addBatch();
        }
        int[] counts = ps.executeBatch();
        assertEquals(rows, counts.length);
    }

    /** Read on the servers: {@code rows} rows of {@code qty}, each on the node its user_id and order_id name. */
    private static void assertRowsOnTheirNodes(int rows, int qty) throws SQLException {
        int found = 0;
        for (int ds = 0; ds < 2; ds++) {
            for (int t = 0; t < 2; t++) {
                List<List<String>> read = read(ds == 0 ? serverA : serverB, ds == 0 ? SCHEMA_A : SCHEMA_B,
                        "SELECT user_id, order_id FROM t_order_item_" + t + " WHERE qty = " + qty);
                for (List<String> row : read) {
                    assertEquals(ds, Integer.parseInt(row.get(0)) % 2, "user_id picks the data source");
                    assertEquals(t, Long.parseLong(row.get(1)) % 2, "order_id picks the table");
                }
                found += read.size();
            }
        }
        assertEquals(rows, found);
    }

    /** The wrong answers and their node-local counterparts: each answers as the plain database or is refused. */
    static List<String> joinShapes() {
        return List.of(
                "SELECT a.order_id, b.order_id FROM t_order a JOIN t_order b ON a.user_id = b.user_id "
                        + "AND a.order_id < b.order_id",
                "SELECT o.order_id, i.item_id FROM t_order o JOIN t_order_item i ON o.user_id = i.user_id",
                "SELECT d.code, o.order_id FROM t_dict d LEFT JOIN t_order o ON o.status = d.code",
                "SELECT d.code, o.order_id FROM t_order o RIGHT JOIN t_dict d ON o.status = d.code",
                "SELECT COUNT(*), COUNT(DISTINCT a.order_id) FROM t_order a JOIN t_order b ON a.status = b.status",
                "SELECT a.order_id, b.order_id FROM t_order a JOIN t_order b ON a.user_id + 0 = b.user_id "
                        + "AND a.order_id = b.order_id",
                "SELECT * FROM t_order WHERE user_id = 3 AND order_id = 1 AND amount < (SELECT AVG(amount) "
                        + "FROM t_order)",
                "SELECT o.order_id FROM t_order o WHERE o.user_id = 7 AND o.order_id = 1 AND o.status IN "
                        + "(SELECT d.code FROM t_dict d JOIN t_order x ON x.status = d.code WHERE x.amount > 50)");
    }

    /** Shapes whose rows meet on one node: they must be answered, as the plain database answers them. */
    static List<String> nodeLocalJoins() {
        return List.of(
                "SELECT a.order_id, b.order_id FROM t_order a JOIN t_order b ON a.user_id = b.user_id "
                        + "AND a.order_id = b.order_id",
                "SELECT o.order_id, i.item_id, i.qty FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id",
                "SELECT o.user_id, COUNT(*), SUM(i.qty) FROM t_order o JOIN t_order_item i USING (user_id, order_id) "
                        + "GROUP BY o.user_id",
                "SELECT o.order_id, d.name FROM t_order o LEFT JOIN t_dict d ON o.status = d.code",
                "SELECT o.order_id, d.name FROM t_dict d RIGHT JOIN t_order o ON o.status = d.code",
                "SELECT d.code, o.order_id FROM t_dict d LEFT JOIN t_order o ON o.status = d.code "
                        + "WHERE o.user_id = 7 AND o.order_id = 1",
                "SELECT a.order_id, b.order_id FROM t_order a JOIN t_order b ON a.status = b.status "
                        + "WHERE a.user_id = 7 AND a.order_id = 1 AND b.user_id = 7 AND b.order_id = 1",
                "SELECT o.order_id FROM t_order o WHERE o.user_id = 7 AND o.order_id = 1 AND NOT EXISTS "
                        + "(SELECT 1 FROM t_order_item i WHERE i.user_id = o.user_id AND i.order_id = o.order_id "
                        + "AND i.qty > 3)",
                "SELECT DISTINCT d.name FROM t_order o JOIN t_dict d ON d.code = o.status ORDER BY d.name");
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void joinsAnswerAsOnePlainDatabaseOrAreRefused(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary)) {
            for (String sql : joinShapes()) {
                assertSameAnswerOrRefused(sql, plain, sharded, binary);
            }
            for (String sql : nodeLocalJoins()) {
                assertSameAnswer(sql, plain, sharded, binary);
            }
        }
    }

    /**
     * Joins drawn by a seeded generator: pairs of sharded, bound, broadcast and single tables (or one table twice),
     * inner, outer and comma joins on random columns, with and without conditions that pick one node. None may
     * answer differently from the plain database; some are answered and some refused.
     */
    @Test
    void generatedJoinsAnswerAsOnePlainDatabaseOrAreRefused() throws SQLException {
        Random random = new Random(20261128);
        int answered = 0;
        int refused = 0;
        try (Connection plain = plain(Driver.MARIADB, false); Connection sharded = connect(Driver.MARIADB, false)) {
            for (int n = 0; n < 150; n++) {
                String sql = generatedJoin(random);
                if (assertSameAnswerOrRefused(sql, plain, sharded, false)) {
                    answered++;
                } else {
                    refused++;
                }
            }
        }
        assertTrue(answered >= 30 && refused >= 30, answered + " answered, " + refused + " refused: the generator "
                + "should draw both kinds");
    }

    /** The tables a generated join draws from, with their integer and text columns. */
    private record JoinTable(String name, List<String> numbers, List<String> texts) {
    }

    private static final List<JoinTable> JOIN_TABLES = List.of(
            new JoinTable("t_order", List.of("order_id", "user_id"), List.of("status")),
            new JoinTable("t_order", List.of("order_id", "user_id"), List.of("status")),
            new JoinTable("t_order_item", List.of("order_id", "user_id", "qty"), List.of()),
            new JoinTable("t_range", List.of("id"), List.of("v")),
            new JoinTable("t_dict", List.of(), List.of("code", "name")),
            new JoinTable("t_single", List.of(), List.of("code", "label")));

    private static String generatedJoin(Random random) {
        JoinTable a = JOIN_TABLES.get(random.nextInt(JOIN_TABLES.size()));
        JoinTable b = JOIN_TABLES.get(random.nextInt(JOIN_TABLES.size()));
        List<String> on = new ArrayList<>();
        boolean sharded = a.numbers().contains("user_id") && b.numbers().contains("user_id");
        if (sharded && random.nextInt(3) == 0) { // the binding's own columns, sometimes only one of them
            on.add("a.user_id = b.user_id");
            if (random.nextInt(4) > 0) {
                on.add("a.order_id = b.order_id");
            }
        } else {
            boolean numbers = !a.numbers().isEmpty() && !b.numbers().isEmpty()
                    && (a.texts().isEmpty() || b.texts().isEmpty() || random.nextBoolean());
            List<String> left = numbers ? a.numbers() : a.texts();
            List<String> right = numbers ? b.numbers() : b.texts();
            if (left.isEmpty() || right.isEmpty()) {
                left = a.texts().isEmpty() ? a.numbers() : a.texts();
                right = b.texts().isEmpty() ? b.numbers() : b.texts();
                on.add("CAST(a." + left.get(0) + " AS CHAR) = CAST(b." + right.get(0) + " AS CHAR)");
            } else {
                on.add("a." + pick(random, left) + " = b." + pick(random, right)
                        + (numbers && random.nextInt(5) == 0 ? " + 0" : ""));
            }
        }
        if (a.numbers().contains("order_id") && b.numbers().contains("order_id") && random.nextInt(3) == 0) {
            on.add("a.order_id < b.order_id + 3");
        }
        String where = "";
        if (a.numbers().contains("user_id") && random.nextInt(3) == 0) {
            int order = 1 + random.nextInt(200);
            where = " WHERE a.user_id = " + order * 7 % 13 + " AND a.order_id = " + order
                    + (b.numbers().contains("user_id") && random.nextBoolean()
                    ? " AND b.user_id = " + order * 7 % 13 + " AND b.order_id = " + order : "");
        }
        String columns = "a." + first(a) + ", b." + first(b);
        String select = random.nextInt(4) == 0 ? "COUNT(*), COUNT(b." + first(b) + ")" : columns;
        String from = a.name() + " a";
        String join = switch (random.nextInt(4)) {
            case 0 -> from + " LEFT JOIN " + b.name() + " b ON " + String.join(" AND ", on);
            case 1 -> from + " RIGHT JOIN " + b.name() + " b ON " + String.join(" AND ", on);
            case 2 -> from + ", " + b.name() + " b";
            default -> from + " JOIN " + b.name() + " b ON " + String.join(" AND ", on);
        };
        if (join.contains(", ")) {
            where = (where.isEmpty() ? " WHERE " : where + " AND ") + String.join(" AND ", on);
        }
        return "SELECT " + select + " FROM " + join + where;
    }

    private static String first(JoinTable table) {
        return table.numbers().isEmpty() ? table.texts().get(0) : table.numbers().get(0);
    }

    private static String pick(Random random, List<String> columns) {
        return columns.get(random.nextInt(columns.size()));
    }

    /**
     * Asserts the sharded answer is the plain one, unless Strata refused the statement as one it cannot answer
     * exactly (1235); returns whether it answered.
     */
    private static boolean assertSameAnswerOrRefused(String sql, Connection plain, Connection sharded,
                                                     boolean binary) throws SQLException {
        List<List<String>> expected = answer(plain, sql, binary, CASE_AND_PADDING);
        List<List<String>> actual;
        try {
            actual = answer(sharded, sql, binary, CASE_AND_PADDING);
        } catch (SQLException e) {
            assertEquals(1235, e.getErrorCode(), sql + ": " + e.getMessage());
            return false;
        }
        assertEquals(expected, actual, sql);
        return true;
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void stringsMergeByTheirCollationsPadding(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary)) {
            for (String sql : List.of("SELECT w, COUNT(*) FROM t_range GROUP BY w",
                    "SELECT DISTINCT w FROM t_range",
                    "SELECT COUNT(DISTINCT w), MIN(w), MAX(w) FROM t_range",
                    "SELECT id, w FROM t_range WHERE id % 10 < 5 ORDER BY w DESC, id",
                    "SELECT w, MIN(id) FROM t_range GROUP BY w ORDER BY w")) {
                assertSameAnswer(sql, plain, sharded, binary, v -> v); // NO PAD: 'x', 'x ' and 'x  ' apart
            }
            for (String sql : List.of("SELECT p, COUNT(*) FROM t_range GROUP BY p ORDER BY p",
                    "SELECT DISTINCT p FROM t_range ORDER BY p DESC",
                    "SELECT COUNT(DISTINCT p), MIN(p), MAX(p) FROM t_range",
                    "SELECT id, p FROM t_range WHERE id % 10 < 5 ORDER BY p, id")) {
                assertSameAnswer(sql, plain, sharded, binary, v -> v.replaceAll(" +$", "")); // PAD SPACE
            }
        }
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void showCreateTableAndShowIndexNameTheLogicalTable(Driver driver, boolean binary) throws SQLException {
        showCreateTableAndShowIndex(driver, binary);
    }

    /**
     * An index made through Strata is named per actual table as ShardingSphere names it (idx_status_t_order_0 on
     * t_order_0, read on the servers), a hint naming the logical index reaches it on every node, and SHOW INDEX and
     * SHOW CREATE TABLE speak of the logical index, as the plain database does of its own.
     */
    @Test
    void indexesAreNamedPerActualTableAndHintsFindThem() throws SQLException {
        try (Connection sharded = connect(Driver.MARIADB, false); Statement st = sharded.createStatement()) {
            st.execute("CREATE INDEX idx_status ON t_order (status)");
            direct(serverA, PLAIN, "CREATE INDEX idx_status ON t_order (status)");
            try {
                for (var node : List.of(Map.entry(serverA, SCHEMA_A), Map.entry(serverB, SCHEMA_B))) {
                    for (String table : List.of("t_order_0", "t_order_1")) {
                        assertEquals(List.of(List.of("idx_status_" + table)), read(node.getKey(), node.getValue(),
                                "SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = "
                                        + "DATABASE() AND TABLE_NAME = '" + table + "' AND INDEX_NAME <> 'PRIMARY'"));
                    }
                }
                try (Connection plain = plain(Driver.MARIADB, false)) {
                    assertSameAnswer("SELECT order_id, status FROM t_order FORCE INDEX (idx_status) WHERE status = "
                            + "'paid' ORDER BY order_id", plain, sharded, false);
                    assertSameAnswer("SELECT o.order_id FROM t_order o USE INDEX (idx_status, PRIMARY) JOIN "
                            + "t_order_item i ON i.order_id = o.order_id AND i.user_id = o.user_id WHERE o.status = "
                            + "'new' ORDER BY o.order_id", plain, sharded, false);
                }
                showCreateTableAndShowIndex(Driver.MARIADB, false);
            } finally {
                st.execute("DROP INDEX idx_status ON t_order");
                direct(serverA, PLAIN, "DROP INDEX idx_status ON t_order");
            }
            assertEquals(List.of(), read(serverB, SCHEMA_B, "SELECT INDEX_NAME FROM information_schema.STATISTICS "
                    + "WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME LIKE 'idx_status%'"), "dropped on every node");
        }
    }

    private static void showCreateTableAndShowIndex(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = plain(driver, binary); Connection sharded = connect(driver, binary)) {
            for (String sql : List.of("SHOW CREATE TABLE t_order", "SHOW CREATE TABLE `t_order_item`")) {
                assertSameAnswer(sql, plain, sharded, binary, v -> v);
            }
            // qualified by the logical database, which the plain database is not called
            assertEquals(answer(plain, "SHOW CREATE TABLE t_order", binary, v -> v),
                    answer(sharded, "SHOW CREATE TABLE shop.t_order", binary, v -> v));
            assertEquals(answer(plain, "DESCRIBE t_order", binary, v -> v),
                    answer(sharded, "DESCRIBE `shop`.`t_order`", binary, v -> v));
            for (String sql : List.of("SHOW INDEX FROM t_order", "SHOW KEYS IN t_order_item")) {
                // the first actual table holds a part of the rows: its index statistics are its own
                List<List<String>> expected = answer(plain, sql, binary, v -> v);
                List<List<String>> actual = answer(sharded, sql, binary, v -> v);
                int cardinality = expected.get(0).indexOf("Cardinality:-5:0");
                assertTrue(cardinality > 0, expected.get(0).toString());
                for (List<List<String>> answer : List.of(expected, actual)) {
                    answer.subList(1, answer.size()).forEach(row -> row.set(cardinality, "?"));
                }
                assertEquals(expected, actual, sql);
                assertEquals(List.of("t_order", "t_order_item").get(sql.contains("item") ? 1 : 0),
                        actual.get(1).get(0), sql);
            }
        }
    }

    private static void assertSameAnswer(String sql, Connection plain, Connection sharded, boolean binary)
            throws SQLException {
        assertSameAnswer(sql, plain, sharded, binary, CASE_AND_PADDING);
    }

    /**
     * @param normal the values compared for each value read: where the collation finds 'a' and 'A ' equal either may
     *               stand for their group or DISTINCT value
     */
    private static void assertSameAnswer(String sql, Connection plain, Connection sharded, boolean binary,
                                         UnaryOperator<String> normal) throws SQLException {
        List<List<String>> expected = answer(plain, sql, binary, normal);
        List<List<String>> actual;
        try {
            actual = answer(sharded, sql, binary, normal);
        } catch (SQLException e) {
            throw new AssertionError(sql + ": " + e.getMessage(), e);
        }
        assertEquals(expected, actual, sql);
    }

    /** The answer to {@code sql} as a text statement, or a prepared one in the binary protocol. */
    private static List<List<String>> answer(Connection c, String sql, boolean binary, UnaryOperator<String> normal)
            throws SQLException {
        if (binary) {
            try (PreparedStatement p = c.prepareStatement(sql); ResultSet rs = p.executeQuery()) {
                return answer(sql, rs, normal);
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return answer(sql, rs, normal);
        }
    }

    /**
     * The column metadata (label, type, scale) then the rows as text: in order where the query orders them
     * completely, else sorted (a multiset).
     */
    private static List<List<String>> answer(String sql, ResultSet rs, UnaryOperator<String> normal)
            throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            header.add(meta.getColumnLabel(i) + ":" + meta.getColumnType(i) + ":" + meta.getScale(i));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                String value = rs.getString(i);
                row.add(value == null ? null : normal.apply(value));
            }
            rows.add(row);
        }
        boolean ordered = sql.contains("ORDER BY") && (sql.contains("order_id") || sql.contains("ORDER BY id")
                || sql.contains(", 1") || sql.contains(", id") || sql.contains("ORDER BY user_id")
                || sql.contains("ORDER BY v") || sql.contains("ORDER BY w") || sql.contains("ORDER BY p"));
        if (!ordered) {
            rows.sort((a, b) -> String.valueOf(a).compareTo(String.valueOf(b)));
        }
        List<List<String>> answer = new ArrayList<>();
        answer.add(header);
        answer.addAll(rows);
        return answer;
    }

    /** The plain database, through the same driver and protocol as the sharded one it is compared with. */
    private static Connection plain(Driver driver, boolean binary) throws SQLException {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(binary));
        return driver.connect(serverA.port(), PLAIN, "strata", "strata", props);
    }

    private static Connection connect(Driver driver, boolean binary) throws SQLException {
        return StrataFixture.connect(strata.port(), "shop", driver, binary);
    }

    private static void direct(EmbeddedMariaDb server, String schema, String... statements) throws SQLException {
        server.execute(schema, "strata", "strata", statements);
    }

    private static int count(EmbeddedMariaDb server, String schema, String table, String where) throws SQLException {
        return Integer.parseInt(read(server, schema, "SELECT COUNT(*) FROM " + table + " WHERE " + where)
                .get(0).get(0));
    }

    static List<List<String>> read(EmbeddedMariaDb server, String schema, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
