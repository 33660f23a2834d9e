package io.strata.protocol;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OkPacketTest {

    @Test
    void decodesTheOkOfAnInsertOfOneRow() {
        ByteBuf payload = buf("""
                00      # header: OK
                01      # affected rows: 1 (lenenc)
                00      # last insert id: 0 (lenenc)
                02 00   # status: SERVER_STATUS_AUTOCOMMIT
                00 00   # warnings: 0
                """);

        OkPacket ok = OkPacket.decode(payload);

        assertEquals(new OkPacket(1, 0, ServerStatus.AUTOCOMMIT, 0), ok);
        assertFalse(payload.isReadable());
    }

    @Test
    void encodesTheSameBytes() {
        assertEquals("00 01 00 02 00 00 00", Wire.hex(written(new OkPacket(1, 0, ServerStatus.AUTOCOMMIT, 0)::encode)));
    }

    @Test
    void decodesAnOkWithALargeInsertIdAndAnInfoString() {
        ByteBuf payload = buf("""
                00                      # header: OK
                03                      # affected rows: 3
                fc 10 27                # last insert id: 10000 (0xFC + int<2>)
                03 00                   # status: IN_TRANS | AUTOCOMMIT
                01 00                   # warnings: 1
                52 65 63 6f 72 64 73 3a 20 33   # info: "Records: 3"
                """);

        assertEquals(new OkPacket(0x00, 3, 10_000, ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT, 1, "Records: 3"),
                OkPacket.decode(payload));
    }

    @Test
    void aShortOkWithoutStatusOrWarningsDecodesThemAsZero() {
        assertEquals(new OkPacket(0, 0, 0, 0), OkPacket.decode(buf("00 00 00")));
    }

    @ParameterizedTest(name = "header {0}, affected {1}, insert id {2}, status {3}, warnings {4}, info ''{5}''")
    @CsvSource(delimiter = '|', textBlock = """
            0   | 0                   | 0          | 2     | 0     | ''
            0   | 1                   | 42         | 3     | 1     | Rows matched: 1  Changed: 1  Warnings: 1
            0   | 251                 | 65536      | 16386 | 65535 | ''
            0   | 9223372036854775807 | 16777216   | 0     | 0     | x
            254 | 0                   | 0          | 34    | 2     | ''
            """)
    void roundTrips(int header, long affectedRows, long lastInsertId, int status, int warnings, String info) {
        OkPacket ok = new OkPacket(header, affectedRows, lastInsertId, status, warnings, info);
        ByteBuf payload = Unpooled.wrappedBuffer(written(ok::encode));

        assertEquals(ok, OkPacket.decode(payload));
        assertFalse(payload.isReadable());
    }
}
