package io.strata.rule.sql.parser;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Index names are written per actual table as ShardingSphere writes them: {@code idx} of {@code t_order_0} is
 * {@code idx_t_order_0}, in DDL and in index hints; PRIMARY, foreign keys and unnamed indexes stay.
 */
class IndexNamesTest {

    private static String renamed(String sql) {
        return TableRenamer.rename(sql, Map.of("t_order", "t_order_0", "t_order_item", "t_order_item_1"), "shop");
    }

    private static String ddl(String sql) {
        return TableRenamer.rename(sql, Map.of("t_order", "t_order_0"), "shop");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "CREATE INDEX idx ON t_order (status)|CREATE INDEX `idx_t_order_0` ON `t_order_0` (status)",
            "create unique index `uk` on t_order (a, b)|create unique index `uk_t_order_0` on `t_order_0` (a, b)",
            "DROP INDEX idx ON t_order|DROP INDEX `idx_t_order_0` ON `t_order_0`",
            "ALTER TABLE t_order ADD INDEX idx (status), ADD UNIQUE KEY uk USING BTREE (a), ADD INDEX (b)|"
                    + "ALTER TABLE `t_order_0` ADD INDEX `idx_t_order_0` (status), ADD UNIQUE KEY `uk_t_order_0` "
                    + "USING BTREE (a), ADD INDEX (b)",
            "ALTER TABLE t_order DROP INDEX idx, DROP PRIMARY KEY|ALTER TABLE `t_order_0` DROP INDEX `idx_t_order_0`, "
                    + "DROP PRIMARY KEY",
            "ALTER TABLE t_order RENAME INDEX a TO b|ALTER TABLE `t_order_0` RENAME INDEX `a_t_order_0` TO `b_t_order_0`",
            "CREATE TABLE t_order (id INT PRIMARY KEY, s INT, KEY idx (s), CONSTRAINT fk FOREIGN KEY (s) "
                    + "REFERENCES x (id))|CREATE TABLE `t_order_0` (id INT PRIMARY KEY, s INT, KEY `idx_t_order_0` (s), "
                    + "CONSTRAINT fk FOREIGN KEY (s) REFERENCES x (id))"})
    void ddlNamesTheActualTablesIndexes(String sql, String expected) {
        assertEquals(expected, ddl(sql));
    }

    @org.junit.jupiter.api.Test
    void aTextWithoutIndexOrKeyIsNotRead() {
        org.junit.jupiter.api.Assertions.assertTrue(IndexNames.mayHold("SELECT * FROM t FORCE InDeX (a)"));
        org.junit.jupiter.api.Assertions.assertTrue(IndexNames.mayHold("ALTER TABLE t ADD KEY (a)"));
        org.junit.jupiter.api.Assertions.assertFalse(IndexNames.mayHold("SELECT c FROM sbtest1 WHERE id = 7"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT * FROM t_order FORCE INDEX (idx) WHERE a = 1|SELECT * FROM `t_order_0` FORCE INDEX "
                    + "(`idx_t_order_0`) WHERE a = 1",
            "SELECT * FROM t_order o USE INDEX FOR ORDER BY (a, PRIMARY) JOIN t_order_item i IGNORE KEY (b) ON 1|"
                    + "SELECT * FROM `t_order_0` o USE INDEX FOR ORDER BY (`a_t_order_0`, PRIMARY) JOIN "
                    + "`t_order_item_1` i IGNORE KEY (`b_t_order_item_1`) ON 1",
            "INSERT INTO t_order (id) VALUES (1) ON DUPLICATE KEY UPDATE id = 2|INSERT INTO `t_order_0` (id) VALUES "
                    + "(1) ON DUPLICATE KEY UPDATE id = 2"})
    void hintsNameTheIndexesOfTheTableBeforeThem(String sql, String expected) {
        assertEquals(expected, renamed(sql));
    }
}
