package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.HexFormat;
import java.util.Random;
import java.util.function.Consumer;

/** Builds MySQL wire bytes by hand for tests: annotated hex, physical packets, payloads written by codecs. */
public final class Wire {

    private Wire() {
    }

    /**
     * The bytes of hex text such as {@code "0a 35 2e  # protocol 10, then "5."}: whitespace is ignored and a
     * {@code #} comments out the rest of its line, so fixtures can be annotated field by field.
     */
    public static byte[] hex(String annotated) {
        StringBuilder digits = new StringBuilder();
        for (String line : annotated.split("\n")) {
            int comment = line.indexOf('#');
            digits.append((comment < 0 ? line : line.substring(0, comment)).replaceAll("\\s", ""));
        }
        return HexFormat.of().parseHex(digits);
    }

    public static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    public static ByteBuf buf(String annotatedHex) {
        return Unpooled.wrappedBuffer(hex(annotatedHex));
    }

    /** What a codec writes, as bytes. */
    public static byte[] written(Consumer<ByteBuf> writer) {
        ByteBuf buf = Unpooled.buffer();
        try {
            writer.accept(buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** One physical packet: 3-byte little-endian payload length, sequence id, payload. */
    public static ByteBuf packet(int sequenceId, byte[] payload) {
        return Unpooled.buffer(PacketFrameDecoder.HEADER_SIZE + payload.length)
                .writeMediumLE(payload.length).writeByte(sequenceId).writeBytes(payload);
    }

    public static byte[] packetBytes(int sequenceId, byte[] payload) {
        ByteBuf packet = packet(sequenceId, payload);
        try {
            return ByteBufUtil.getBytes(packet);
        } finally {
            packet.release();
        }
    }

    /** Reproducible bytes that are not all alike, so a misplaced fragment shows. */
    public static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    public static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }
}
