package io.strata.rule.sql;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameSetTest {

    private final NameSet orders = new NameSet(List.of("t_order", "T_Order_Item"));

    private boolean named(String sql) {
        return orders.mayBeIn(SqlClassifier.classify(sql));
    }

    @Test
    void aNameAsAWordOrQuotedInAnyCase() {
        assertTrue(named("SELECT * FROM t_order WHERE id = 1"));
        assertTrue(named("select * from T_ORDER_ITEM"));
        assertTrue(named("SELECT * FROM `t_order` o"));
        assertTrue(named("SELECT * FROM shop.t_order"));
        assertTrue(named("SELECT * FROM \"t_order\"")); // a name under ANSI_QUOTES
        assertTrue(named("UPDATE t_order SET a = 1; SELECT 1")); // several statements
    }

    @Test
    void wordsThatOnlyContainANameAreNotIt() {
        assertFalse(named("SELECT * FROM t_orders"));
        assertFalse(named("SELECT * FROM my_t_order"));
        assertFalse(named("SELECT t_order_id FROM other"));
    }

    @Test
    void stringsCommentsAndVariablesAreNotNames() {
        assertFalse(named("SELECT 't_order' FROM other"));
        assertFalse(named("SELECT 1 /* t_order */ FROM other"));
        assertFalse(named("SELECT 1 FROM other -- t_order"));
        assertFalse(named("SELECT @t_order, @`t_order`, @@t_order FROM other"));
    }

    @Test
    void aQuoteInsideAStringOrCommentHidesNoNameAfterIt() {
        assertTrue(named("SELECT 'it''s `odd' FROM t_order"));
        assertTrue(named("SELECT 'a\\'b' FROM t_order"));
        assertTrue(named("SELECT /* don't */ c FROM t_order"));
        assertTrue(named("SELECT c -- don't\nFROM t_order"));
        assertTrue(named("SELECT /*!50000 c */ FROM t_order"));
    }

    @Test
    void longStatementsAreReadToTheEnd() {
        String values = String.join(", ", IntStream.range(0, 2000).mapToObj(i -> "(" + i + ", 'x')").toList());
        assertTrue(named("INSERT INTO other VALUES " + values + "; DELETE FROM t_order"));
        assertFalse(named("INSERT INTO other VALUES " + values));
    }

    @Test
    void manyNamesAreLookedUp() {
        NameSet many = new NameSet(IntStream.range(0, 40).mapToObj(i -> "t_" + i).toList());
        assertTrue(many.mayBeIn(SqlClassifier.classify("SELECT * FROM T_39")));
        assertFalse(many.mayBeIn(SqlClassifier.classify("SELECT * FROM t_40")));
    }
}
