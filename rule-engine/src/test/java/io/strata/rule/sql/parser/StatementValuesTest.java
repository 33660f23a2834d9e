package io.strata.rule.sql.parser;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

class StatementValuesTest {

    private final SqlParser parser = new SqlParser();

    private StatementValues.Rows rows(String sql, Object... params) {
        return StatementValues.insertRows(parser.parse(sql), Arrays.asList(params));
    }

    private Condition where(String sql, Object... params) {
        return StatementValues.where(parser.parse(sql), Arrays.asList(params));
    }

    private static Value known(Object value) {
        return new Value.Known(value);
    }

    @Test
    void insertRowsGiveEachColumnsValuePerRow() {
        StatementValues.Rows rows = rows("INSERT INTO t (id, name) VALUES (1, 'a'), (2, ?), (-3, NULL)", "b");

        assertEquals(List.of("id", "name"), rows.columns());
        assertEquals(List.of(known(1L), known(2L), known(-3L)), rows.column("ID"));
        assertEquals(List.of(known("a"), known("b"), known(null)), rows.column("name"));
        assertEquals(List.of(), rows.column("other"));
    }

    @Test
    void aSingleRowAndTheSetFormReadAlike() {
        assertEquals(List.of(known(7L)), rows("INSERT INTO t (`id`, v) VALUES (7, 'x')").column("id"));
        assertEquals(List.of(known(7L)), rows("INSERT INTO t SET v = 'x', id = 7").column("id"));
        assertEquals(List.of(known(7L)), rows("REPLACE INTO t (id) VALUE (7)").column("id"));
    }

    @Test
    void literalsReadAsMySqlReadsThem() {
        StatementValues.Rows rows = rows("INSERT INTO t (a, b, c, d, e, f) VALUES ('it''s', 'a\\'b\\n', 1.50, "
                + "0x4142, 18446744073709551615, +4)");

        assertEquals(List.of(known("it's")), rows.column("a"));
        assertEquals(List.of(known("a'b\n")), rows.column("b"));
        assertEquals(List.of(known(new BigDecimal("1.50"))), rows.column("c"));
        assertArrayEquals("AB".getBytes(), (byte[]) ((Value.Known) rows.column("d").get(0)).value());
        assertEquals(List.of(known(new BigInteger("18446744073709551615"))), rows.column("e"));
        assertEquals(List.of(known(4L)), rows.column("f"));
    }

    @Test
    void whatIsNotALiteralIsUnreadable() {
        StatementValues.Rows rows = rows("INSERT INTO t (a, b, c) VALUES (NOW(), 1 + 1, ?)");

        assertInstanceOf(Value.Unreadable.class, rows.column("a").get(0));
        assertInstanceOf(Value.Unreadable.class, rows.column("b").get(0));
        assertEquals(new Value.Unbound(1), rows.column("c").get(0), "no value bound for ? yet: a prepare");
    }

    @Test
    void anInsertWithoutColumnsOrFromASelectHasNoRows() {
        assertNull(rows("INSERT INTO t VALUES (1, 2)"));
        assertNull(rows("INSERT INTO t (a) SELECT a FROM s"));
        assertNull(rows("SELECT 1"));
    }

    @Test
    void whereConditionsKeepTheirShape() {
        Condition condition = where("SELECT * FROM t WHERE a = 1 AND (b IN (2, ?) OR o.c LIKE 'x%') AND 5 < d "
                + "AND e BETWEEN 1 AND 9 AND f(x) = 1", 3);

        Condition.And and = assertInstanceOf(Condition.And.class, condition);
        List<Condition> parts = flatten(and);
        assertEquals(new Condition.Compare(null, "a", Condition.Op.EQ, List.of(known(1L))), parts.get(0));
        Condition.Or or = assertInstanceOf(Condition.Or.class, parts.get(1));
        assertEquals(new Condition.Compare(null, "b", Condition.Op.IN, List.of(known(2L), known(3))),
                or.parts().get(0));
        assertEquals(new Condition.Compare("o", "c", Condition.Op.LIKE, List.of(known("x%"))), or.parts().get(1));
        assertEquals(new Condition.Compare(null, "d", Condition.Op.GT, List.of(known(5L))), parts.get(2));
        assertEquals(new Condition.Compare(null, "e", Condition.Op.BETWEEN, List.of(known(1L), known(9L))),
                parts.get(3));
        assertInstanceOf(Condition.Opaque.class, parts.get(4));
    }

    @Test
    void updatesAndDeletesHaveWheresToo() {
        assertEquals(new Condition.Compare(null, "id", Condition.Op.EQ, List.of(known(4L))),
                where("UPDATE t SET v = 1 WHERE id = 4"));
        assertEquals(new Condition.Compare(null, "id", Condition.Op.EQ, List.of(known("k"))),
                where("DELETE FROM t WHERE id = ?", "k"));
        assertNull(where("DELETE FROM t"));
    }

    private static List<Condition> flatten(Condition condition) {
        if (condition instanceof Condition.And and) {
            return and.parts().stream().flatMap(part -> flatten(part).stream()).toList();
        }
        return List.of(condition);
    }
}
