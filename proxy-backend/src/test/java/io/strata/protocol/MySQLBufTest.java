package io.strata.protocol;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.hex;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MySQLBufTest {

    @ParameterizedTest(name = "{0} <-> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0                   | 00
            250                 | fa
            251                 | fc fb 00
            65535               | fc ff ff
            65536               | fd 00 00 01
            16777215            | fd ff ff ff
            16777216            | fe 00 00 00 01 00 00 00 00
            9223372036854775807 | fe ff ff ff ff ff ff ff 7f
            """)
    void lengthEncodedIntegersRoundTripAtEveryBoundary(long value, String encoded) {
        assertEquals(encoded, Wire.hex(written(out -> MySQLBuf.writeIntLenenc(out, value))));

        ByteBuf in = buf(encoded);
        assertEquals(value, MySQLBuf.readIntLenenc(in));
        assertFalse(in.isReadable());
    }

    @Test
    void theNullMarkerOfTextRowsReadsAsMinusOne() {
        assertEquals(-1, MySQLBuf.readIntLenenc(buf("fb")));
    }

    @Test
    void fixedLengthIntegersAreLittleEndian() {
        ByteBuf in = buf("""
                01                        # int<1> 1
                02 01                     # int<2> 0x0102
                03 02 01                  # int<3> 0x010203
                ff ff ff ff               # int<4> 0xFFFFFFFF, unsigned
                08 07 06 05 04 03 02 01   # int<8> 0x0102030405060708
                """);

        assertEquals(1, MySQLBuf.readInt1(in));
        assertEquals(0x0102, MySQLBuf.readInt2(in));
        assertEquals(0x010203, MySQLBuf.readInt3(in));
        assertEquals(0xFFFFFFFFL, MySQLBuf.readInt4(in));
        assertEquals(0x0102030405060708L, MySQLBuf.readInt8(in));
        assertFalse(in.isReadable());

        assertEquals("01 02 01 03 02 01 ff ff ff ff 08 07 06 05 04 03 02 01", Wire.hex(written(out -> {
            MySQLBuf.writeInt1(out, 1);
            MySQLBuf.writeInt2(out, 0x0102);
            MySQLBuf.writeInt3(out, 0x010203);
            MySQLBuf.writeInt4(out, 0xFFFFFFFFL);
            MySQLBuf.writeInt8(out, 0x0102030405060708L);
        })));
    }

    @Test
    void stringsOfEachKindRoundTrip() {
        byte[] bytes = written(out -> {
            MySQLBuf.writeStringNul(out, "root");
            MySQLBuf.writeStringLenenc(out, "gr\u00fc\u00df");
            MySQLBuf.writeBytesLenenc(out, new byte[300]);
            MySQLBuf.writeBytesNul(out, hex("01 02"));
            MySQLBuf.writeStringEof(out, "the rest");
        });
        ByteBuf in = Unpooled.wrappedBuffer(bytes);

        assertEquals("root", MySQLBuf.readStringNul(in));
        assertEquals("gr\u00fc\u00df", MySQLBuf.readStringLenenc(in));
        assertArrayEquals(new byte[300], MySQLBuf.readBytesLenenc(in));
        assertArrayEquals(hex("01 02"), MySQLBuf.readBytesNul(in));
        assertEquals("the rest", MySQLBuf.readStringEof(in));
        assertFalse(in.isReadable());
    }

    @Test
    void aNulStringWithoutItsTerminatorRunsToTheEnd() {
        ByteBuf in = buf("61 62 63");

        assertEquals("abc", MySQLBuf.readStringNul(in));
        assertFalse(in.isReadable());
        assertArrayEquals(hex("61 62"), MySQLBuf.readBytesNul(buf("61 62")));
    }

    @Test
    void skipLenencSkipsLengthAndData() {
        ByteBuf in = buf("03 61 62 63  fb  00  05");

        MySQLBuf.skipLenenc(in); // "abc"
        MySQLBuf.skipLenenc(in); // NULL
        MySQLBuf.skipLenenc(in); // ""
        assertEquals(5, MySQLBuf.readInt1(in));
    }
}
