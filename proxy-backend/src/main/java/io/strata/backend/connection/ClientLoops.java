package io.strata.backend.connection;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorChooserFactory;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the event loop of each new client connection (its backend connections then live on the same loop). A few
 * clients share the first loops, one per CPU: a loop woken for one client's packet then often finds another's ready
 * too, where a loop of its own per client sleeps and wakes twice for every query (sysbench with 4 clients on 2 CPUs:
 * 2.05 context switches per query with 4 loops, 1.47 with 2, and 7-12% less CPU per query). Once each of those loops
 * has {@link #PACKED_CLIENTS}, a new client goes to the loop with the fewest, so many clients spread over every loop
 * (with hundreds of clients more loops serve them better: 5-8% more QPS at 512).
 *
 * <p>Only connections accepted by the server are counted (the chooser is asked on the acceptor's thread); anything
 * else asking the group for a loop gets one in turn. The server reports each client's close.
 */
public final class ClientLoops implements EventExecutorChooserFactory {

    /** Clients each packed loop takes before new clients spread over every loop. */
    static final int PACKED_CLIENTS = 8;

    private final int packedLoops;
    private final EventLoopGroup acceptor;
    private final AtomicInteger turn = new AtomicInteger();
    /** Set once, when the group is built; read by any thread asking for a loop. */
    private volatile EventExecutor[] loops;
    private int[] clients;

    /**
     * @param packedLoops how many loops few clients share (the CPU count)
     * @param acceptor    the group accepting clients: choices made on its thread are client connections
     */
    public ClientLoops(int packedLoops, EventLoopGroup acceptor) {
        this.packedLoops = Math.max(1, packedLoops);
        this.acceptor = acceptor;
    }

    @Override
    public synchronized EventExecutorChooser newChooser(EventExecutor[] executors) {
        loops = executors.clone();
        clients = new int[executors.length];
        return this::next;
    }

    private EventExecutor next() {
        if (!acceptor.next().inEventLoop()) {
            return loops[Math.floorMod(turn.getAndIncrement(), loops.length)];
        }
        return forClient();
    }

    /** The loop for a newly accepted client, counted until {@link #closed}. */
    private synchronized EventExecutor forClient() {
        int pick = fewest(Math.min(packedLoops, loops.length));
        if (clients[pick] >= PACKED_CLIENTS) {
            pick = fewest(loops.length);
        }
        clients[pick]++;
        return loops[pick];
    }

    /** A client connection on {@code loop} closed. */
    public synchronized void closed(EventLoop loop) {
        for (int i = 0; i < loops.length; i++) {
            if (loops[i] == loop && clients[i] > 0) {
                clients[i]--;
                return;
            }
        }
    }

    /** Index of the loop with the fewest clients among the first {@code count}; the first of equals. */
    private int fewest(int count) {
        int best = 0;
        for (int i = 1; i < count; i++) {
            if (clients[i] < clients[best]) {
                best = i;
            }
        }
        return best;
    }
}
