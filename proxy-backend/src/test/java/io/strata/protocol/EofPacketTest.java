package io.strata.protocol;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class EofPacketTest {

    @Test
    void decodesARealEof() {
        ByteBuf payload = buf("""
                fe      # header: EOF
                01 00   # warnings: 1
                22 00   # status: AUTOCOMMIT | NO_INDEX_USED
                """);

        assertEquals(new EofPacket(1, ServerStatus.AUTOCOMMIT | ServerStatus.NO_INDEX_USED), EofPacket.decode(payload));
        assertFalse(payload.isReadable());
    }

    @Test
    void roundTrips() {
        var eof = new EofPacket(65535, ServerStatus.AUTOCOMMIT | ServerStatus.MORE_RESULTS_EXISTS);

        assertEquals("fe ff ff 0a 00", Wire.hex(written(eof::encode)));
        assertEquals(eof, EofPacket.decode(Unpooled.wrappedBuffer(written(eof::encode))));
    }

    @Test
    void onlyAShort0xFePacketEndsAResultSet() {
        assertTrue(EofPacket.isEofOrOkEof(buf("fe 00 00 02 00")), "EOF");
        assertTrue(EofPacket.isEofOrOkEof(buf("fe 00 00 02 00 00 00")), "OK with the EOF header");
        assertFalse(EofPacket.isEofOrOkEof(buf("00 00 00 02 00 00 00")), "OK");
        assertFalse(EofPacket.isEofOrOkEof(Unpooled.EMPTY_BUFFER), "empty row");

        ByteBuf longRow = Unpooled.buffer(PacketFrameDecoder.MAX_PAYLOAD).writeByte(0xFE)
                .writeZero(PacketFrameDecoder.MAX_PAYLOAD - 1);
        try {
            assertFalse(EofPacket.isEofOrOkEof(longRow), "a row of 0xFFFFFF bytes whose first column is long");
        } finally {
            longRow.release();
        }
    }
}
