package io.strata.backend.merge;

import io.strata.rule.RenamedTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.strata.backend.merge.TestRows.string;
import static io.strata.backend.merge.TestRows.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RenamedTableResultTest {

    private static final RenamedTable T_ORDER = new RenamedTable("t_order_0", "t_order");

    private final Buffers buffers = new Buffers();

    @AfterEach
    void everyPacketReleased() {
        buffers.assertAllReleased();
    }

    @Test
    void showCreateTableNamesTheLogicalTableHoweverItIsQuoted() throws InterruptedException {
        FakeUnit answer = FakeUnit.withColumns(string("Table"), string("Create Table")).text(buffers,
                text("t_order_0", "CREATE TABLE `t_order_0` (\n  `id` int(11) NOT NULL\n)"),
                text("t_order_0", "CREATE TABLE \"t_order_0\" (id int)"),
                text("t_order_0", "CREATE TABLE t_order_0 (id int)"));
        assertEquals(List.of(text("t_order", "CREATE TABLE `t_order` (\n  `id` int(11) NOT NULL\n)"),
                        text("t_order", "CREATE TABLE \"t_order\" (id int)"),
                        text("t_order", "CREATE TABLE t_order (id int)")),
                Client.packets(new RenamedTableResult(answer, T_ORDER)));
    }

    @Test
    void showIndexNamesTheLogicalTableInItsFirstColumnOnly() throws InterruptedException {
        // an index, a column and a comment that happen to bear the actual table's name keep it
        FakeUnit answer = FakeUnit.withColumns(string("Table"), string("Key_name"), string("Column_name"),
                string("Comment")).text(buffers, text("t_order_0", "PRIMARY", "id", null),
                text("t_order_0", "t_order_0", "t_order_0", "CREATE TABLE t_order_0 (x int)"));
        assertEquals(List.of(text("t_order", "PRIMARY", "id", null),
                        text("t_order", "t_order_0", "t_order_0", "CREATE TABLE t_order_0 (x int)")),
                Client.packets(new RenamedTableResult(answer, T_ORDER)));
    }

    @Test
    void otherTablesAndLongerNamesStayAsTheyAre() throws InterruptedException {
        FakeUnit answer = FakeUnit.withColumns(string("Table"), string("Create Table")).text(buffers,
                text("t_order_01", "CREATE TABLE `t_order_01` (id int)"),
                text("t_order_0x", "CREATE TABLE t_order_0x (id int)"));
        assertEquals(List.of(text("t_order_01", "CREATE TABLE `t_order_01` (id int)"),
                        text("t_order_0x", "CREATE TABLE t_order_0x (id int)")),
                Client.packets(new RenamedTableResult(answer, T_ORDER)));
    }
}
