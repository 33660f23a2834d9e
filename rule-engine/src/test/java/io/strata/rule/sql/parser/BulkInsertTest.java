package io.strata.rule.sql.parser;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class BulkInsertTest {

    @Test
    void cutsRowsAtTheirBracketsAsTheServerReadsThem() {
        BulkInsert bulk = BulkInsert.cut("INSERT IGNORE INTO t (a, b, c) VALUES (1, 'x, (y)', NOW()),"
                + " /* (9, 9) */ (-2, \"it''s \\\\ \", CONCAT('(', ')')) ON DUPLICATE KEY UPDATE c = VALUES(c)");
        assertEquals(2, bulk.rows());
        assertEquals(3, bulk.width(1));
        assertEquals("INSERT IGNORE INTO t (a, b, c) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE c = VALUES(c)",
                bulk.shape());
        assertEquals(new Value.Known(1L), bulk.value(0, 0));
        assertEquals(new Value.Known("x, (y)"), bulk.value(0, 1));
        assertEquals(new Value.Unreadable("NOW()"), bulk.value(0, 2));
        assertEquals(new Value.Known(-2L), bulk.value(1, 0));
        assertEquals(new Value.Known("it's \\ "), bulk.value(1, 1));
        assertEquals(new Value.Unreadable("CONCAT('(', ')')"), bulk.value(1, 2));
    }

    @Test
    void readsNumbersStringsAndNull() {
        BulkInsert bulk = BulkInsert.cut("REPLACE INTO t (a, b, c, d) VALUE (12.50, NULL, 99999999999999999999, "
                + "a + 1)");
        assertEquals(new Value.Known(new BigDecimal("12.50")), bulk.value(0, 0));
        assertEquals(new Value.Known(null), bulk.value(0, 1));
        assertEquals(new Value.Known(new java.math.BigInteger("99999999999999999999")), bulk.value(0, 2));
        assertEquals(new Value.Unreadable("a + 1"), bulk.value(0, 3));
    }

    @Test
    void keepsTheChosenRowsAsWrittenAndAddsAKeyColumn() {
        BulkInsert bulk = BulkInsert.cut("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'),(3,'z') AS new");
        assertEquals("INSERT INTO t (a, b) VALUES (1, 'x'),(3,'z') AS new",
                bulk.withRows(List.of(0, 2), null, null, s -> s));
        assertEquals("INSERT INTO u (a, b, `id`) VALUES (2, 'y', 7),(3,'z', 'k''s') AS new",
                bulk.withRows(List.of(1, 2), "id", java.util.Arrays.asList(5L, 7L, "k's"),
                        s -> s.replace("INTO t ", "INTO u ")), "the head and tail renamed, the rows as written");
    }

    /** Seeded random INSERTs short enough to parse: the cut must find the parser's rows and read the same values. */
    @Test
    void readsRowsAndValuesAsTheParserDoes() {
        java.util.Random random = new java.util.Random(28);
        SqlParser parser = new SqlParser();
        String[] cells = {"1", "-7", "42.50", "NULL", "'a, (b)'", "'it''s'", "'x\\'y'", "\"q,\"", "NOW()",
                "CONCAT('(', ')')", "1 + 2", "/* c, ( */ 5", "''", "'))'", "0"};
        for (int statement = 0; statement < 300; statement++) {
            int width = 1 + random.nextInt(4);
            int rows = 1 + random.nextInt(5);
            StringBuilder sql = new StringBuilder("INSERT INTO t (");
            for (int c = 0; c < width; c++) {
                sql.append(c == 0 ? "" : ", ").append("c").append(c);
            }
            sql.append(") VALUES ");
            for (int r = 0; r < rows; r++) {
                sql.append(r == 0 ? "(" : random.nextBoolean() ? ", (" : ",(");
                for (int c = 0; c < width; c++) {
                    sql.append(c == 0 ? "" : random.nextBoolean() ? ", " : ",")
                            .append(cells[random.nextInt(cells.length)]);
                }
                sql.append(')');
            }
            if (random.nextBoolean()) {
                sql.append(" ON DUPLICATE KEY UPDATE c0 = VALUES(c0)");
            }
            String text = sql.toString();
            StatementValues.Rows parsed = StatementValues.insertRows(parser.parse(text), List.of());
            BulkInsert bulk = BulkInsert.cut(text);
            assertEquals(parsed.rows().size(), bulk.rows(), text);
            for (int r = 0; r < bulk.rows(); r++) {
                assertEquals(width, bulk.width(r), text);
                for (int c = 0; c < width; c++) {
                    Value expected = parsed.rows().get(r).get(c);
                    Value actual = bulk.value(r, c);
                    if (expected instanceof Value.Known known) {
                        assertEquals(known, actual, text + " row " + r + " cell " + c);
                    } else {
                        assertEquals(Value.Unreadable.class, actual.getClass(), text + " row " + r + " cell " + c);
                    }
                }
            }
            assertEquals(StatementValues.insertRows(parser.parse(bulk.shape()), List.of()).columns(), parsed.columns());
        }
    }

    @Test
    void leavesOtherFormsToTheParser() {
        assertNull(BulkInsert.cut("INSERT INTO t SET a = 1"));
        assertNull(BulkInsert.cut("INSERT INTO t (a) SELECT a FROM u"));
        assertNull(BulkInsert.cut("INSERT INTO t (a) VALUES (1), ((SELECT MAX(a) FROM u))"), "a subquery in a row");
        assertNull(BulkInsert.cut("INSERT INTO t (a) VALUES ROW(1)"));
        assertNull(BulkInsert.cut("INSERT INTO t (a) VALUES (1), 2"));
        assertNull(BulkInsert.cut("INSERT INTO t (a) VALUES (1"));
        assertNull(BulkInsert.cut("UPDATE t SET a = 1"));
    }
}
