package io.strata.backend.connection;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Where new clients land: few share the first loops, many spread over all of them. */
class ClientLoopsTest {

    private final EventLoopGroup acceptor = Transports.eventLoopGroup(1, new DefaultThreadFactory("test-accept"));
    private final ClientLoops clientLoops = new ClientLoops(2, acceptor);
    private final EventLoopGroup workers = Transports.eventLoopGroup(4, new DefaultThreadFactory("test-io"),
            clientLoops);
    private final List<EventExecutor> order = new ArrayList<>();

    @AfterEach
    void stop() {
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The loop the server would give its next client (asked on the acceptor's thread, as Netty's acceptor does). */
    private EventExecutor accept() throws Exception {
        return acceptor.submit(() -> workers.next()).get(10, TimeUnit.SECONDS);
    }

    private Map<EventExecutor, Integer> accept(int clients) throws Exception {
        Map<EventExecutor, Integer> counts = new HashMap<>();
        for (int i = 0; i < clients; i++) {
            EventExecutor loop = accept();
            order.add(loop);
            counts.merge(loop, 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void fewClientsShareThePackedLoops() throws Exception {
        Map<EventExecutor, Integer> counts = accept(4);

        assertEquals(2, counts.size(), "4 clients on 2 loops: " + counts);
        assertEquals(List.of(2, 2), List.copyOf(counts.values()));
    }

    @Test
    void manyClientsSpreadOverEveryLoop() throws Exception {
        Map<EventExecutor, Integer> counts = accept(64);

        assertEquals(4, counts.size());
        counts.values().forEach(count -> assertEquals(16, count, counts::toString));
    }

    @Test
    void aClosedClientsPlaceIsTakenAgain() throws Exception {
        accept(2 * ClientLoops.PACKED_CLIENTS); // both packed loops full
        EventExecutor first = order.get(0);
        clientLoops.closed((EventLoop) first);

        assertEquals(first, accept(), "the packed loop with room again");
        assertNotEquals(first, accept(), "then the packed loops are full: another loop");
    }

    @Test
    void loopsAskedForOutsideTheAcceptorAreNotCountedAsClients() throws Exception {
        for (int i = 0; i < 100; i++) {
            workers.next(); // timers, connections opened for the pool itself
        }

        assertEquals(2, accept(4).size(), "still packed");
    }
}
