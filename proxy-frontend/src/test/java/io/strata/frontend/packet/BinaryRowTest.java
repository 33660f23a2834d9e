package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BinaryRowTest {

    private static ColumnMetadata column(int type) {
        return new ColumnMetadata("s", "t", "t", "c", "c", ColumnType.BINARY_COLLATION, 0, type, 0, 0, null, null,
                false);
    }

    private static String row(Object[] cells, int... types) {
        ByteBuf out = Unpooled.buffer();
        List<ColumnMetadata> columns = java.util.Arrays.stream(types).mapToObj(BinaryRowTest::column).toList();
        BinaryRow.write(out, cells, columns, StandardCharsets.UTF_8);
        return ByteBufUtil.hexDump(out);
    }

    @Test
    void numbersAtTheirTypesWidthAndNullsInTheBitmap() {
        // header, bitmap (bit 2 + index: the second cell is NULL), TINY -1, LONGLONG 2, FLOAT 1.5, DOUBLE -2
        assertEquals("00" + "08" + "ff" + "0200000000000000" + "0000c03f" + "00000000000000c0",
                row(new Object[] {-1L, null, 2L, 1.5f, -2.0d}, ColumnType.TINY, ColumnType.LONG,
                        ColumnType.LONGLONG, ColumnType.FLOAT, ColumnType.DOUBLE));
    }

    @Test
    void datesTakeTheShortestFormHoldingTheirFields() {
        assertEquals("00" + "00" + "04e807021d", row(new Object[] {"2024-02-29"}, ColumnType.DATE));
        assertEquals("00" + "00" + "04e807021d", row(new Object[] {"2024-02-29 00:00:00"}, ColumnType.DATETIME));
        assertEquals("00" + "00" + "07e807021d173b3b", row(new Object[] {"2024-02-29 23:59:59.000000"},
                ColumnType.DATETIME));
        assertEquals("00" + "00" + "0be807021d173b3b40e20100", row(new Object[] {"2024-02-29 23:59:59.123456"},
                ColumnType.TIMESTAMP));
        assertEquals("00" + "00" + "0be807021d173b3b58020000", row(new Object[] {"2024-02-29 23:59:59.0006"},
                ColumnType.DATETIME));
        assertEquals("00" + "00" + "00", row(new Object[] {"0000-00-00 00:00:00"}, ColumnType.DATETIME));
    }

    @Test
    void timesCarryTheirSignAndDays() {
        assertEquals("00" + "00" + "08" + "01" + "22000000" + "16" + "3b" + "3b",
                row(new Object[] {"-838:59:59"}, ColumnType.TIME));
        assertEquals("00" + "00" + "0c" + "00" + "00000000" + "01" + "02" + "03" + "20a10700",
                row(new Object[] {"01:02:03.5"}, ColumnType.TIME));
        assertEquals("00" + "00" + "00", row(new Object[] {"00:00:00"}, ColumnType.TIME));
    }

    @Test
    void everythingElseIsALengthEncodedString() {
        assertEquals("00" + "00" + "0568c3a96c6c" + "02ff00" + "04312e3530",
                row(new Object[] {"héll", new byte[] {-1, 0}, "1.50"}, ColumnType.VAR_STRING, ColumnType.BLOB,
                        ColumnType.NEWDECIMAL));
    }
}
