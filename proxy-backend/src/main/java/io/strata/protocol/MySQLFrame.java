package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One logical MySQL packet: the payload with the 0xFFFFFF-continuations joined, and the sequence ids of its first and
 * last physical packet (a reply continues from {@code lastSequenceId + 1}). Whoever receives a frame releases it.
 */
public final class MySQLFrame extends DefaultByteBufHolder {

    private final int sequenceId;
    private final int lastSequenceId;

    public MySQLFrame(int sequenceId, int lastSequenceId, ByteBuf payload) {
        super(payload);
        this.sequenceId = sequenceId;
        this.lastSequenceId = lastSequenceId;
    }

    public MySQLFrame(int sequenceId, ByteBuf payload) {
        this(sequenceId, sequenceId, payload);
    }

    public int sequenceId() {
        return sequenceId;
    }

    public int lastSequenceId() {
        return lastSequenceId;
    }

    public ByteBuf payload() {
        return content();
    }

    @Override
    public MySQLFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public MySQLFrame replace(ByteBuf content) {
        return new MySQLFrame(sequenceId, lastSequenceId, content);
    }
}
