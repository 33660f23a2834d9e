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

/**
 * MySQL's compressed protocol (CLIENT_COMPRESS, zlib), for a client that asked for it, from the first packet after
 * its login's OK. Every compressed packet has a 7-byte header (compressed length, its own sequence id, uncompressed
 * length; 0 when stored as it is) and carries any part of the plain packet stream: a plain packet may span several,
 * several may share one. The decoder hands the frame decoder the plain stream; the encoder compresses what the
 * session writes, each write its own compressed packets (a relayed run of packets is one write). Stored, not
 * compressed, below {@value #MIN_COMPRESS} bytes or when zlib does not make it smaller, as MySQL does. Only a
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

    /** Puts the codec next to the socket (after TLS, when the session has it). */
    public static void install(ChannelPipeline pipeline) {
        if (pipeline.get("compress") != null) {
            return; // a COM_CHANGE_USER logs in again on a session that already compresses
        }
        Sequence sequence = new Sequence();
        String after = pipeline.get("tls") != null ? "tls" : null;
        if (after != null) {
            pipeline.addAfter(after, "compress", new Encoder(sequence));
            pipeline.addAfter(after, "decompress", new Decoder(sequence));
        } else {
            pipeline.addFirst("compress", new Encoder(sequence));
            pipeline.addFirst("decompress", new Decoder(sequence));
        }
    }

    /** Compressed packets in, the plain packet stream out. */
    static final class Decoder extends ByteToMessageDecoder {
        private final Sequence sequence;
        private final Inflater inflater = new Inflater();

        Decoder(Sequence sequence) {
            this.sequence = sequence;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws DataFormatException {
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
                ByteBuf inflated = ctx.alloc().buffer(plain);
                try {
                    inflater.reset();
                    inflater.setInput(in.nioBuffer(in.readerIndex(), compressed));
                    ByteBuffer target = inflated.nioBuffer(0, plain);
                    while (target.hasRemaining() && !inflater.finished()) {
                        if (inflater.inflate(target) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                            break;
                        }
                    }
                    if (target.hasRemaining()) {
                        throw ErrorCode.MALFORMED_PACKET.exception("a compressed packet that inflates to "
                                + target.position() + " of its announced " + plain + " bytes");
                    }
                    inflated.writerIndex(plain);
                    in.skipBytes(compressed);
                    out.add(inflated);
                    inflated = null;
                } finally {
                    if (inflated != null) {
                        inflated.release();
                    }
                }
            }
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) {
            inflater.end();
        }
    }

    /** What the session writes, as compressed packets. */
    static final class Encoder extends MessageToByteEncoder<ByteBuf> {
        private final Sequence sequence;
        private final Deflater deflater = new Deflater();
        private byte[] scratch = new byte[0];

        Encoder(Sequence sequence) {
            super(false);
            this.sequence = sequence;
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
            while (msg.isReadable()) {
                int length = Math.min(msg.readableBytes(), MAX_PART);
                part(msg, length, out);
            }
        }

        private void part(ByteBuf msg, int length, ByteBuf out) {
            int seq = sequence.next;
            sequence.next = (seq + 1) & 0xFF;
            if (length >= MIN_COMPRESS) {
                deflater.reset();
                deflater.setInput(msg.nioBuffer(msg.readerIndex(), length));
                deflater.finish();
                int bound = length + (length >> 12) + (length >> 14) + (length >> 25) + 64;
                if (scratch.length < bound) {
                    scratch = new byte[bound];
                }
                int size = 0;
                while (!deflater.finished() && size < scratch.length) {
                    size += deflater.deflate(scratch, size, scratch.length - size);
                }
                if (deflater.finished() && size < length) {
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
            deflater.end();
            super.handlerRemoved(ctx);
        }
    }
}
