package io.strata.rule.sql.parser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What shows the current database shows the logical one (shop), whatever the backend's schema is called. */
class CurrentDatabaseTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT DATABASE(), 1|SELECT 'shop' AS `DATABASE()`, 1",
            "select 1, schema()|select 1, 'shop' AS `schema()`",
            "SELECT DATABASE() AS db|SELECT 'shop' AS db",
            "SELECT DATABASE() db|SELECT 'shop' db",
            "SELECT CONCAT(DATABASE(), '.t') FROM dual|SELECT CONCAT('shop', '.t') AS `CONCAT(DATABASE(), '.t')` "
                    + "FROM dual",
            "SELECT (SELECT DATABASE())|SELECT (SELECT 'shop' AS `DATABASE()`) AS `(SELECT DATABASE())`",
            "SELECT x.d FROM (SELECT DATABASE() AS d) x|SELECT x.d FROM (SELECT 'shop' AS d) x",
            "SELECT 1 UNION SELECT DATABASE()|SELECT 1 UNION SELECT 'shop' AS `DATABASE()`",
            // a filter keeps the backend's meaning: the backend's tables are what it looks for
            "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()|"
                    + "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()",
            "SELECT COUNT(*) FROM t WHERE db IN (SELECT DATABASE())|"
                    + "SELECT COUNT(*) FROM t WHERE db IN (SELECT DATABASE())",
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = DATABASE()|"
                    + "SELECT IF(table_schema = DATABASE(), 'shop', table_schema) AS `table_schema`, table_name "
                    + "FROM information_schema.tables WHERE table_schema = DATABASE()",
            "SELECT t.TABLE_SCHEMA AS s FROM INFORMATION_SCHEMA.TABLES t|SELECT IF(t.TABLE_SCHEMA = DATABASE(), "
                    + "'shop', t.TABLE_SCHEMA) AS s FROM INFORMATION_SCHEMA.TABLES t",
            "SELECT 'DATABASE()' FROM t|SELECT 'DATABASE()' FROM t",
            "SELECT my.database() FROM t|SELECT my.database() FROM t"})
    void showsTheLogicalDatabaseWhereTheBackendsWouldShow(String sql, String expected) {
        assertEquals(expected, CurrentDatabase.rewrite(sql, "shop"));
    }

    @Test
    void showTablesIsAskedOfInformationSchemaUnderTheLogicalHeading() {
        assertEquals("SELECT * FROM (SELECT table_name AS `Tables_in_shop` FROM information_schema.tables WHERE "
                + "table_schema = DATABASE()) AS strata_tables ORDER BY 1", CurrentDatabase.rewrite("SHOW TABLES",
                "shop"));
        assertEquals("SELECT * FROM (SELECT table_name AS `Tables_in_shop (t%)`, table_type AS `Table_type` FROM "
                + "information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 't%') AS "
                + "strata_tables ORDER BY 1", CurrentDatabase.rewrite("show full tables like 't%'", "shop"));
        assertTrue(CurrentDatabase.rewrite("SHOW TABLES WHERE Tables_in_shop <> 'x'", "shop")
                .endsWith(") AS strata_tables WHERE Tables_in_shop <> 'x' ORDER BY 1"));
        String other = "SHOW TABLES FROM mysql";
        assertSame(other, CurrentDatabase.rewrite(other, "shop"), "another database's tables: the backend's words");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT DATABASE()", "select Schema(), 1", "SHOW TABLES", "show full tables",
            "SELECT table_name FROM INFORMATION_SCHEMA.tables"})
    void aStatementThatMayShowADatabaseIsRead(String sql) {
        assertTrue(CurrentDatabase.mayShow(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT * FROM sbtest1 WHERE id = 1", "UPDATE t SET c = 1", "SELECT 1"})
    void aStatementThatShowsNoDatabaseIsLeftAlone(String sql) {
        assertFalse(CurrentDatabase.mayShow(sql));
        assertSame(sql, CurrentDatabase.rewrite(sql, "shop"));
    }
}
