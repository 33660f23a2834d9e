package io.strata.protocol;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class ErrPacketTest {

    private static final String NO_SUCH_TABLE = """
            ff                              # header: ERR
            7a 04                           # error code: 1146 (ER_NO_SUCH_TABLE)
            23                              # SQL state marker '#'
            34 32 53 30 32                  # SQL state "42S02"
            54 61 62 6c 65 20 27 74 65 73 74 2e 6e 6f 70 65 27 20 64 6f 65 73 6e 27 74 20 65 78 69 73 74
                                            # message "Table 'test.nope' doesn't exist"
            """;

    @Test
    void decodesARealError() {
        ByteBuf payload = buf(NO_SUCH_TABLE);

        assertEquals(new ErrPacket(1146, "42S02", "Table 'test.nope' doesn't exist"), ErrPacket.decode(payload));
        assertFalse(payload.isReadable());
    }

    @Test
    void encodesTheSameBytes() {
        var err = new ErrPacket(1146, "42S02", "Table 'test.nope' doesn't exist");

        assertEquals(Wire.hex(Wire.hex(NO_SUCH_TABLE)), Wire.hex(written(err::encode)));
    }

    @Test
    void anErrorWithoutSqlStateMarkerHasTheGeneralState() {
        // What a server sends before the handshake, e.g. when it has no connection left.
        ByteBuf payload = buf("ff 10 04  54 6f 6f 20 6d 61 6e 79 20 63 6f 6e 6e 65 63 74 69 6f 6e 73");

        assertEquals(new ErrPacket(1040, "HY000", "Too many connections"), ErrPacket.decode(payload));
    }

    @Test
    void roundTripsStrataOwnErrors() {
        for (ErrorCode code : ErrorCode.values()) {
            ErrPacket err = code.packet("a", "b", "c");

            assertEquals(err, ErrPacket.decode(Unpooled.wrappedBuffer(written(err::encode))), code.name());
        }
    }
}
