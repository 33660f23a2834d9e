package io.strata.backend.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundInvoker;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLException;

import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Forwards a backend response to the client as it is read, untouched (the backend connection shares the
 * client's flavor, so its bytes and sequence ids are what the client expects). Runs on the backend event loop; the
 * outcome is handed to the client's event loop.
 */
public final class RelayListener implements ResponseListener {

    private final Channel client;
    /** Where relayed packets are written from: past the client's encoder (see PacketEncoder.wire). */
    private final ChannelOutboundInvoker clientWire;
    private final UnaryOperator<ByteBuf> tap;
    private final Consumer<ResponseSummary> onComplete;
    private final Consumer<Throwable> onFailure;
    private final Consumer<ResponseSummary> onShutdown;
    private final Consumer<RelayListener> onLocalInfile;
    /** An error the client gets in place of the backend's, when the answer is one; null for none. */
    private final Supplier<ErrPacket> errorInstead;
    /** The sequence id of the last packet relayed to the client (backend loop only). */
    private int lastSequenceId = -1;
    /**
     * While the client sends its file and until the server answers: the sequence id of the client's last packet,
     * which an error then follows; else -1. Kept apart so relaying pays no volatile write.
     */
    private volatile int clientLastSequenceId = -1;
    private boolean heldBack;
    /** LOAD DATA LOCAL INFILE: the client is sending its file (set on the backend's loop, cleared on the client's). */
    private volatile boolean clientSending;
    /** The server answered while the client was still sending its file (backend loop only). */
    private boolean answeredEarly;

    /**
     * @param clientWire where packets for the client are written from (the client channel's encoder context)
     * @param tap        sees (and may patch) each packet before it goes to the client; null for none
     * @param onShutdown for a command that may go elsewhere: called instead of {@code onComplete} when the backend
     *                   answered only that it is shutting down (or killed the connection), which the client then
     *                   never sees; null to relay such errors like any other
     * @param onLocalInfile when the server asks for the client's file (LOAD DATA LOCAL INFILE): starts sending it;
     *                      null where no file can be asked for
     * @param errorInstead when the answer is an error, asked for one to send in its place (null: the backend's goes)
     */
    public RelayListener(Channel client, ChannelOutboundInvoker clientWire, UnaryOperator<ByteBuf> tap,
                  Consumer<ResponseSummary> onComplete, Consumer<Throwable> onFailure,
                  Consumer<ResponseSummary> onShutdown, Consumer<RelayListener> onLocalInfile,
                  Supplier<ErrPacket> errorInstead) {
        this.client = client;
        this.clientWire = clientWire;
        this.tap = tap;
        this.onComplete = onComplete;
        this.onFailure = onFailure;
        this.onShutdown = onShutdown;
        this.onLocalInfile = onLocalInfile;
        this.errorInstead = errorInstead;
    }

    @Override
    public void onPacket(ByteBuf packet) {
        int sequenceId = packet.getUnsignedByte(packet.readerIndex() + 3);
        onPackets(tap.apply(packet), sequenceId);
    }

    /** Without a tap, the backend's reads go to the client as they came, one write each. */
    @Override
    public boolean takesRuns() {
        return tap == null;
    }

    @Override
    public void onPackets(ByteBuf packets, int lastSequenceId) {
        if (clientSending) {
            // The client reads nothing before its file ends: this answer goes to it as an error after the file.
            answeredEarly = true;
            packets.release();
            return;
        }
        if (onShutdown != null && this.lastSequenceId < 0 && isShutdownError(packets)) {
            heldBack = true;
            packets.release();
            return;
        }
        if (errorInstead != null) {
            packets = replaced(packets); // an interrupted statement's error may end a result set's run
        }
        this.lastSequenceId = lastSequenceId;
        if (clientLastSequenceId >= 0) {
            clientLastSequenceId = -1; // the server's answer to the file: its packets come last now
        }
        clientWire.write(packets, client.voidPromise());
    }

    private static boolean isError(ByteBuf packet) {
        return packet.readableBytes() > 4 && packet.getUnsignedByte(packet.readerIndex() + 4) == ErrPacket.HEADER;
    }

    /**
     * The run with its last packet, when that is an error (an error ends a response), replaced by the one
     * {@code errorInstead} gives, if it gives one. Asked once per run (a volatile read or two), and only an
     * interrupted statement's answer has one: walking the run's packets is for that rare case. (The server's buffer
     * may hold a result set's header and the error that cut it short in one run.)
     */
    private ByteBuf replaced(ByteBuf packets) {
        ErrPacket instead = errorInstead.get();
        if (instead == null) {
            return packets;
        }
        int last = packets.readerIndex();
        for (int at = last; at + 4 <= packets.writerIndex(); at += 4 + packets.getUnsignedMediumLE(at)) {
            last = at;
        }
        if (!isError(packets.slice(last, packets.writerIndex() - last))) {
            return packets;
        }
        ByteBuf out = client.alloc().buffer();
        out.writeBytes(packets, packets.readerIndex(), last - packets.readerIndex());
        int header = out.writerIndex();
        out.writeMediumLE(0).writeByte(packets.getUnsignedByte(last + 3));
        instead.encode(out);
        out.setMediumLE(header, out.writerIndex() - header - 4);
        packets.release();
        return out;
    }

    /**
     * The first packet is ER_SERVER_SHUTDOWN (1053) or ER_CONNECTION_KILLED (1927): the whole answer (an ERR ends a
     * response), and the statement never ran.
     */
    private static boolean isShutdownError(ByteBuf packet) {
        int start = packet.readerIndex();
        if (packet.readableBytes() < 7 || packet.getUnsignedByte(start + 4) != 0xFF) {
            return false;
        }
        int code = packet.getUnsignedShortLE(start + 5);
        return code == 1053 || code == 1927;
    }

    /** The request itself went to the client with the packets before it; its file comes next. */
    @Override
    public void onLocalInfileRequest() {
        if (onLocalInfile == null) {
            ResponseListener.super.onLocalInfileRequest(); // throws: the connection is closed
            return;
        }
        clientSending = true;
        clientWire.flush();
        onLocalInfile.accept(this);
    }

    /**
     * A packet of the client's file is going to the backend: an answer or error now follows it in the sequence.
     * Called before the packet is sent, so the flag is down before the server can answer the last one.
     */
    public void clientSent(int sequenceId, boolean last) {
        clientLastSequenceId = sequenceId;
        if (last) {
            clientSending = false;
        }
    }

    /** Reading the client's file goes on (it paused while the backend's socket was full). */
    @Override
    public void onBackendWritable() {
        if (clientSending) {
            client.config().setAutoRead(true);
        }
    }

    @Override
    public boolean writable() {
        return client.isWritable();
    }

    @Override
    public void onReadComplete() {
        clientWire.flush();
    }

    /**
     * The last packet is written but not yet flushed: the session gives the backend connection back first, so a
     * client that has its answer never finds the connection still taken.
     */
    @Override
    public void onComplete(ResponseSummary summary) {
        if (answeredEarly) {
            // A server that answers in the middle of a file (it was killed, say) is in no state to reuse.
            onFailure(summary.failed() ? new MySQLException(summary.error())
                    : new IllegalStateException("the server answered before the end of the LOCAL INFILE data"));
            return;
        }
        Runnable complete = () -> {
            (heldBack ? onShutdown : onComplete).accept(summary);
            clientWire.flush();
        };
        if (client.eventLoop().inEventLoop()) {
            complete.run(); // the backend connection lives on the client's loop: no hand-off
        } else {
            client.eventLoop().execute(complete);
        }
    }

    @Override
    public void onFailure(Throwable cause) {
        clientWire.flush();
        int fromClient = clientLastSequenceId;
        int sequenceId = fromClient >= 0 ? fromClient : lastSequenceId;
        client.eventLoop().execute(() -> onFailure.accept(new RelayFailure(cause, sequenceId)));
    }

    /** A broken backend response and the sequence id of the last packet the client already got (-1: none). */
    public static final class RelayFailure extends RuntimeException {
        public final int lastSequenceId;

        RelayFailure(Throwable cause, int lastSequenceId) {
            super(cause.getMessage(), cause, false, false);
            this.lastSequenceId = lastSequenceId;
        }
    }
}
