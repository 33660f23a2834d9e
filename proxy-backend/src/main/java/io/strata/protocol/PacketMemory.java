package io.strata.protocol;

import io.netty.util.internal.PlatformDependent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory all client connections together may fill with packets still arriving. A packet is held whole before
 * Strata acts on it, so without a bound a few clients announcing max_allowed_packet each and sending it slowly (or
 * sending most of it and stopping) would take the direct memory every other session needs. Each packet above
 * {@link #UNCOUNTED} bytes takes its announced size from here when its header arrives and gives it back once whole
 * (a packet joined from several 16 MiB parts keeps every part until the last); a packet the rest does not fit in gets
 * 1041 and its connection closes, and everyone else goes on.
 */
public final class PacketMemory {

    /** Packets this small are not counted: every connection may hold one anyway, and most packets are. */
    public static final int UNCOUNTED = 64 * 1024;

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit bytes in all; 0 for half of the direct memory Netty may allocate */
    public PacketMemory(long limit) {
        this.limit = limit > 0 ? limit : Math.max(64L << 20, PlatformDependent.maxDirectMemory() / 2);
    }

    /** Takes {@code bytes} if they fit, else takes nothing and says so. */
    boolean reserve(long bytes) {
        long now;
        do {
            now = used.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    public long used() {
        return used.get();
    }

    public long limit() {
        return limit;
    }
}
