package io.strata.frontend.compress;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import io.strata.protocol.ErrorCode;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import com.github.luben.zstd.Zstd;

/**
 * MySQL's compressed protocol, for a client that asked for it (CLIENT_COMPRESS: zlib;
 * CLIENT_ZSTD_COMPRESSION_ALGORITHM: zstd at the client's level), from the first packet after its login's OK. Every compressed packet has a 7-byte header (compressed length, its own sequence id, uncompressed
 * length; 0 when stored as it is) and carries any part of the plain packet stream: a plain packet may span several,
 * several may share one. The decoder hands the frame decoder the plain stream; the encoder compresses what the
 * session writes, each write its own compressed packets (a relayed run of packets is one write). Stored, not
 * compressed, below {@value #MIN_COMPRESS} bytes or when compressing does not make it smaller, as MySQL does. Only a
 * compressing client's pipeline has these handlers: the relay of everyone else is untouched.
 */
public final class CompressedProtocol {

    static final int HEADER = 7;
    /** MySQL does not compress payloads shorter than this. */
    static final int MIN_COMPRESS = 50;
    /** The largest uncompressed part one compressed packet carries (3-byte length). */
    static final int MAX_PART = 0xFFFFFF;

    private CompressedProtocol() {
    }

    /** The compressed packets' own sequence: restarted by each command the client sends, continued by the answer. */
    static final class Sequence {
        private int next;
    }

    /** How one compressed packet's payload is made and read back: each packet is compressed on its own. */
    public interface Algorithm {
        /** Compresses {@code length} bytes of {@code in} into {@code out}; returns the size, or -1 when it did not fit. */
        int compress(ByteBuffer in, byte[] out);

        /** Fills {@code out} (exactly the announced plain length) from {@code in}. */
        void decompress(ByteBuffer in, ByteBuffer out) throws DataFormatException;

        void close();
    }

    /** zlib, as CLIENT_COMPRESS means it. */
    public static Algorithm zlib() {
        Deflater deflater = new Deflater();
        Inflater inflater = new Inflater();
        return new Algorithm() {
            @Override
            public int compress(ByteBuffer in, byte[] out) {
                deflater.reset();
                deflater.setInput(in);
                deflater.finish();
                int size = 0;
                while (!deflater.finished() && size < out.length) {
                    size += deflater.deflate(out, size, out.length - size);
                }
                return deflater.finished() ? size : -1;
            }

            @Override
            public void decompress(ByteBuffer in, ByteBuffer out) throws DataFormatException {
                inflater.reset();
                inflater.setInput(in);
                while (out.hasRemaining() && !inflater.finished()) {
                    if (inflater.inflate(out) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        break;
                    }
                }
                if (out.hasRemaining()) {
                    throw new DataFormatException("inflated to " + out.position() + " of " + out.limit() + " bytes");
                }
            }

            @Override
            public void close() {
                deflater.end();
                inflater.end();
            }
        };
    }

    /** zstd at {@code level} (1..22; 0 or out of range: zstd's default, 3), as MySQL 8's zstd compression. */
    public static Algorithm zstd(int level) {
        int used = level >= 1 && level <= 22 ? level : 3;
        return new Algorithm() {
            @Override
            public int compress(ByteBuffer in, byte[] out) {
                byte[] plain = new byte[in.remaining()];
                in.get(plain);
                long size = Zstd.compressByteArray(out, 0, out.length, plain, 0, plain.length, used);
                return Zstd.isError(size) ? -1 : (int) size;
            }

            @Override
            public void decompress(ByteBuffer in, ByteBuffer out) throws DataFormatException {
                byte[] compressed = new byte[in.remaining()];
                in.get(compressed);
                byte[] plain = new byte[out.remaining()];
                long size = Zstd.decompressByteArray(plain, 0, plain.length, compressed, 0, compressed.length);
                if (Zstd.isError(size) || size != plain.length) {
                    throw new DataFormatException(Zstd.isError(size) ? Zstd.getErrorName(size)
                            : "decompressed to " + size + " of " + plain.length + " bytes");
                }
                out.put(plain);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Puts the zlib codec next to the socket (after TLS, when the session has it). */
    public static void install(ChannelPipeline pipeline) {
        install(pipeline, zlib(), zlib());
    }

    /**
     * Puts the codec next to the socket (after TLS, when the session has it): {@code inbound} reads the client's
     * packets, {@code outbound} makes Strata's (each keeps its own state).
     */
    public static void install(ChannelPipeline pipeline, Algorithm inbound, Algorithm outbound) {
        if (pipeline.get("compress") != null) {
            return; // a COM_CHANGE_USER logs in again on a session that already compresses
        }
        Sequence sequence = new Sequence();
        String after = pipeline.get("tls") != null ? "tls" : null;
        if (after != null) {
            pipeline.addAfter(after, "compress", new Encoder(sequence, outbound));
            pipeline.addAfter(after, "decompress", new Decoder(sequence, inbound));
        } else {
            pipeline.addFirst("compress", new Encoder(sequence, outbound));
            pipeline.addFirst("decompress", new Decoder(sequence, inbound));
        }
    }

    /** Compressed packets in, the plain packet stream out. */
    static final class Decoder extends ByteToMessageDecoder {
        private final Sequence sequence;
        private final Algorithm algorithm;

        Decoder(Sequence sequence, Algorithm algorithm) {
            this.sequence = sequence;
            this.algorithm = algorithm;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            while (in.readableBytes() >= HEADER) {
                int start = in.readerIndex();
                int compressed = in.getUnsignedMediumLE(start);
                int plain = in.getUnsignedMediumLE(start + 4);
                if (in.readableBytes() < HEADER + compressed) {
                    return;
                }
                sequence.next = (in.getUnsignedByte(start + 3) + 1) & 0xFF;
                in.skipBytes(HEADER);
                if (plain == 0) {
                    out.add(in.readRetainedSlice(compressed));
                    continue;
                }
                ByteBuf inflated = ctx.alloc().heapBuffer(plain);
                try {
                    algorithm.decompress(in.nioBuffer(in.readerIndex(), compressed), inflated.nioBuffer(0, plain));
                    inflated.writerIndex(plain);
                    in.skipBytes(compressed);
                    out.add(inflated);
                    inflated = null;
                } catch (DataFormatException e) {
                    throw ErrorCode.MALFORMED_PACKET.exception("a compressed packet announcing " + plain
                            + " bytes: " + e.getMessage());
                } finally {
                    if (inflated != null) {
                        inflated.release();
                    }
                }
            }
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) {
            algorithm.close();
        }
    }

    /** What the session writes, as compressed packets. */
    static final class Encoder extends MessageToByteEncoder<ByteBuf> {
        private final Sequence sequence;
        private final Algorithm algorithm;
        private byte[] scratch = new byte[0];

        Encoder(Sequence sequence, Algorithm algorithm) {
            super(false);
            this.sequence = sequence;
            this.algorithm = algorithm;
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
            while (msg.isReadable()) {
                part(msg, Math.min(msg.readableBytes(), MAX_PART), out);
            }
        }

        private void part(ByteBuf msg, int length, ByteBuf out) {
            int seq = sequence.next;
            sequence.next = (seq + 1) & 0xFF;
            if (length >= MIN_COMPRESS) {
                int bound = length + (length >> 7) + 128; // zlib's and zstd's worst case are both below
                if (scratch.length < bound) {
                    scratch = new byte[bound];
                }
                int size = algorithm.compress(msg.nioBuffer(msg.readerIndex(), length), scratch);
                if (size >= 0 && size < length) {
                    out.ensureWritable(HEADER + size);
                    out.writeMediumLE(size).writeByte(seq).writeMediumLE(length).writeBytes(scratch, 0, size);
                    msg.skipBytes(length);
                    return;
                }
            }
            out.ensureWritable(HEADER + length);
            out.writeMediumLE(length).writeByte(seq).writeMediumLE(0).writeBytes(msg, length);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
            algorithm.close();
            super.handlerRemoved(ctx);
        }
    }
}
