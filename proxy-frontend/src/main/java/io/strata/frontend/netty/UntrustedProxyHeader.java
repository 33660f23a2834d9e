package io.strata.frontend.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * With server.proxyProtocol on, a peer outside its trustedNetworks must not name another client's address: a
 * connection whose first bytes are a PROXY protocol header (v1's "PROXY ", v2's signature) is refused with a MySQL
 * error naming why, and closed. Anything else passes on untouched, and this handler leaves the pipeline.
 */
final class UntrustedProxyHeader extends ByteToMessageDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(UntrustedProxyHeader.class);
    private static final byte[] V1 = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D};

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < V1.length) {
            return;
        }
        if (startsWith(in, V1) || startsWith(in, V2)) {
            in.skipBytes(in.readableBytes());
            LOG.warn("{} sent a PROXY protocol header but is not in server.proxyProtocol.trustedNetworks: refused",
                    ctx.channel().remoteAddress());
            ErrPacket error = ErrorCode.HANDSHAKE.packet("a PROXY protocol header from " + ctx.channel().remoteAddress()
                    + ", which server.proxyProtocol.trustedNetworks does not trust");
            ByteBuf payload = ctx.alloc().buffer(128);
            error.encode(payload);
            ctx.channel().writeAndFlush(new MySQLFrame(1, payload)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.pipeline().remove(this); // hands what it holds to the MySQL frame decoder
    }

    private static boolean startsWith(ByteBuf in, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (in.getByte(in.readerIndex() + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
