package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;

/** Writes the generic responses to a client channel. Each method returns the next free sequence id. */
public final class Responses {

    private Responses() {
    }

    public static int ok(Channel channel, int sequenceId, OkPacket ok) {
        ByteBuf out = channel.alloc().buffer(16 + ok.info().length());
        ok.encode(out);
        channel.writeAndFlush(new MySQLFrame(sequenceId, out));
        return sequenceId + 1;
    }

    public static int err(Channel channel, int sequenceId, ErrPacket err) {
        ByteBuf out = channel.alloc().buffer(16 + err.message().length() * 3);
        err.encode(out);
        channel.writeAndFlush(new MySQLFrame(sequenceId, out));
        return sequenceId + 1;
    }

    /** EOF for classic clients, an OK with the 0xFE header for CLIENT_DEPRECATE_EOF clients (as MySQL does). */
    public static int eof(Channel channel, int sequenceId, boolean deprecateEof, int statusFlags, boolean flush) {
        ByteBuf out = channel.alloc().buffer(16);
        if (deprecateEof) {
            new OkPacket(OkPacket.EOF_HEADER, 0, 0, statusFlags, 0, "").encode(out);
        } else {
            new EofPacket(0, statusFlags).encode(out);
        }
        MySQLFrame frame = new MySQLFrame(sequenceId, out);
        if (flush) {
            channel.writeAndFlush(frame);
        } else {
            channel.write(frame);
        }
        return sequenceId + 1;
    }
}
