package io.strata.frontend.compress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compressed protocol's framing: what the encoder writes, the decoder reads back, whatever its size. */
class CompressedProtocolTest {

    @Test
    void smallWritesAreStoredAndLargeOnesCompressedWithTheSequenceContinuingTheClients() {
        EmbeddedChannel channel = new EmbeddedChannel();
        CompressedProtocol.install(channel.pipeline());
        channel.writeInbound(frame(0, new byte[] {3, 0, 0, 0, 0x0E}, false)); // the client's command: sequence 0
        ByteBuf plain = channel.readInbound();
        assertEquals(5, plain.readableBytes());
        plain.release();

        channel.writeOutbound(Unpooled.wrappedBuffer(new byte[] {7, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}));
        ByteBuf small = channel.readOutbound();
        assertEquals(11, small.getUnsignedMediumLE(0));
        assertEquals(1, small.getUnsignedByte(3), "the answer continues the client's compressed sequence");
        assertEquals(0, small.getUnsignedMediumLE(4), "below 50 bytes: stored as it is");
        small.release();

        byte[] text = "a row of text that compresses well ".repeat(100).getBytes();
        channel.writeOutbound(Unpooled.wrappedBuffer(text));
        ByteBuf large = channel.readOutbound();
        assertEquals(2, large.getUnsignedByte(3));
        assertEquals(text.length, large.getUnsignedMediumLE(4));
        assertTrue(large.getUnsignedMediumLE(0) < text.length / 10, "compressed");
        large.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void whatTheEncoderWritesTheDecoderReadsBackAcrossThe16MiBLimitAndInPieces() {
        byte[] data = new byte[CompressedProtocol.MAX_PART + 1000];
        new Random(7).nextBytes(data); // incompressible: stored parts
        for (int i = 0; i < data.length / 2; i++) {
            data[i] = (byte) (i % 7); // and a compressible half
        }
        EmbeddedChannel server = new EmbeddedChannel();
        CompressedProtocol.install(server.pipeline());
        server.writeOutbound(Unpooled.wrappedBuffer(data));
        ByteBuf wire = Unpooled.buffer();
        ByteBuf part;
        int parts = 0;
        while ((part = server.readOutbound()) != null) {
            wire.writeBytes(part);
            part.release();
            parts++;
        }
        assertEquals(1, parts, "one write, one buffer of compressed packets");

        EmbeddedChannel client = new EmbeddedChannel();
        CompressedProtocol.install(client.pipeline());
        ByteBuf received = Unpooled.buffer();
        while (wire.isReadable()) {
            client.writeInbound(wire.readRetainedSlice(Math.min(wire.readableBytes(), 65_536)));
            ByteBuf plain;
            while ((plain = client.readInbound()) != null) {
                received.writeBytes(plain);
                plain.release();
            }
        }
        byte[] back = new byte[received.readableBytes()];
        received.readBytes(back);
        assertArrayEquals(data, back);
        wire.release();
        received.release();
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
    }

    /** One compressed packet as a client writes it. */
    private static ByteBuf frame(int sequence, byte[] payload, boolean compress) {
        ByteBuf out = Unpooled.buffer();
        if (!compress) {
            out.writeMediumLE(payload.length).writeByte(sequence).writeMediumLE(0).writeBytes(payload);
            return out;
        }
        Deflater deflater = new Deflater();
        deflater.setInput(payload);
        deflater.finish();
        byte[] buffer = new byte[payload.length + 64];
        int size = deflater.deflate(buffer);
        out.writeMediumLE(size).writeByte(sequence).writeMediumLE(payload.length).writeBytes(buffer, 0, size);
        return out;
    }
}
