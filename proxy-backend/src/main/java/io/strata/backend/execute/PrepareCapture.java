package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.connection.BackendStatement;

import java.io.ByteArrayOutputStream;

/**
 * Watches a COM_STMT_PREPARE response go by: keeps a copy of its packets (for the backend connection's statement
 * cache) and, when relaying to a client, replaces the backend's statement id in STMT_PREPARE_OK with the client's.
 */
final class PrepareCapture {

    private static final int HEADER = 4;
    private final long clientId;
    private final ByteArrayOutputStream packets = new ByteArrayOutputStream(256);
    private boolean first = true;
    private long backendId = -1;
    private int columns;
    private int params;

    /** @param clientId the id to show the client, or -1 when the response is not relayed */
    PrepareCapture(long clientId) {
        this.clientId = clientId;
    }

    ByteBuf tap(ByteBuf packet) {
        int start = packet.readerIndex();
        boolean ok = first && packet.getUnsignedByte(start + HEADER) == 0x00;
        if (ok) {
            backendId = packet.getUnsignedIntLE(start + HEADER + 1);
            columns = packet.getUnsignedShortLE(start + HEADER + 5);
            params = packet.getUnsignedShortLE(start + HEADER + 7);
        }
        first = false;
        byte[] copy = new byte[packet.readableBytes()];
        packet.getBytes(start, copy);
        packets.writeBytes(copy);
        if (ok && clientId >= 0) {
            packet.setIntLE(start + HEADER + 1, (int) clientId);
        }
        return packet;
    }

    BackendStatement statement() {
        return new BackendStatement(backendId, params, columns, packets.toByteArray());
    }

    /** A cached prepare response, as a client sees it: framed packets with the client's statement id. */
    static ByteBuf forClient(BackendStatement statement, long clientId, io.netty.buffer.ByteBufAllocator alloc) {
        byte[] response = statement.prepareResponse();
        ByteBuf out = alloc.buffer(response.length).writeBytes(response);
        out.setIntLE(HEADER + 1, (int) clientId);
        return out;
    }
}
