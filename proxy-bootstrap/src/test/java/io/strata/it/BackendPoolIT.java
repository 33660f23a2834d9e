package io.strata.it;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendConnector;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.Transports;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.Capabilities;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The native pool on a real MariaDB: connections stay with the event loop of the client using them, because a
 * connection on another loop costs a task hand-off and a thread wake-up for every packet it relays.
 */
class BackendPoolIT {

    private static final int FLAVOR = 0;
    private static final int OTHER_FLAVOR = Capabilities.CLIENT_DEPRECATE_EOF;

    private EventLoopGroup loops;
    private EventLoop clientLoop;
    private EventLoop otherLoop;

    @BeforeEach
    void startLoops() {
        loops = Transports.eventLoopGroup(2, Thread.ofPlatform().name("pool-it-", 0).factory());
        clientLoop = loops.next();
        otherLoop = loops.next();
    }

    @AfterEach
    void stopLoops() throws InterruptedException {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    @Test
    void aPoolWithRoomOpensAConnectionOnTheClientsLoopRatherThanBorrowingAnotherLoopsIdleOne() throws Exception {
        try (BackendPool pool = pool(4)) {
            BackendConnection elsewhere = pool.acquire(FLAVOR, otherLoop).get(10, TimeUnit.SECONDS);
            pool.release(elsewhere);

            assertNull(pool.tryAcquire(FLAVOR, clientLoop), "the fast path leaves the other loop's connection alone");
            BackendConnection own = pool.acquire(FLAVOR, clientLoop).get(10, TimeUnit.SECONDS);

            assertNotSame(elsewhere, own);
            assertSame(clientLoop, own.channel().eventLoop());
            pool.release(own);
            assertSame(own, pool.tryAcquire(FLAVOR, clientLoop), "then the loop's own idle connection is reused");
        }
    }

    @Test
    void aFullPoolLendsAnotherLoopsIdleConnectionRatherThanMakingTheClientWait() throws Exception {
        try (BackendPool pool = pool(1)) {
            BackendConnection only = pool.acquire(FLAVOR, otherLoop).get(10, TimeUnit.SECONDS);
            pool.release(only);

            assertSame(only, pool.tryAcquire(FLAVOR, clientLoop));
            pool.release(only);
            assertSame(only, pool.acquire(FLAVOR, clientLoop).get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aReleasedConnectionGoesToAWaiterOnItsOwnLoopBeforeAnOlderOneElsewhere() throws Exception {
        try (BackendPool pool = pool(1)) {
            BackendConnection only = pool.acquire(FLAVOR, clientLoop).get(10, TimeUnit.SECONDS);
            CompletableFuture<BackendConnection> elsewhere = pool.acquire(FLAVOR, otherLoop);
            CompletableFuture<BackendConnection> sameLoop = pool.acquire(FLAVOR, clientLoop);
            assertEquals(2, pool.stats().waiting());

            pool.release(only);
            assertSame(only, sameLoop.get(10, TimeUnit.SECONDS), "no hand-off between threads for this one");
            assertFalse(elsewhere.isDone());

            pool.release(only);
            assertSame(only, elsewhere.get(10, TimeUnit.SECONDS), "then the older waiter");
            assertEquals(0, pool.stats().waiting());
        }
    }

    @Test
    void aWaiterElsewhereThatWaitedLongerThanTheAffinityBoundComesFirst() throws Exception {
        try (BackendPool pool = pool(1)) {
            BackendConnection only = pool.acquire(FLAVOR, clientLoop).get(10, TimeUnit.SECONDS);
            CompletableFuture<BackendConnection> elsewhere = pool.acquire(FLAVOR, otherLoop);
            Thread.sleep(50); // the bound is 20 ms
            CompletableFuture<BackendConnection> sameLoop = pool.acquire(FLAVOR, clientLoop);

            pool.release(only);
            assertSame(only, elsewhere.get(10, TimeUnit.SECONDS));
            assertFalse(sameLoop.isDone());
            pool.release(only);
            assertSame(only, sameLoop.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void waitersOfAnotherFlavorGetARoomMadeForThem() throws Exception {
        try (BackendPool pool = pool(1)) {
            BackendConnection only = pool.acquire(FLAVOR, clientLoop).get(10, TimeUnit.SECONDS);
            CompletableFuture<BackendConnection> otherFlavor = pool.acquire(OTHER_FLAVOR, otherLoop);

            pool.release(only);
            BackendConnection opened = otherFlavor.get(10, TimeUnit.SECONDS);
            assertNotSame(only, opened);
            assertEquals(OTHER_FLAVOR, opened.flavor());
            assertSame(otherLoop, opened.channel().eventLoop());
            assertEquals(1, pool.stats().total(), "the released one was closed: the pool's size still holds");
        }
    }

    private BackendPool pool(int size) {
        var server = Backend.server();
        DataSourceConfig config = DataSourceConfig.of("ds", server.jdbcUrl(Backend.SCHEMA), "strata", "strata",
                Map.of(DataSourceConfig.MAXIMUM_POOL_SIZE, size, DataSourceConfig.CONNECTION_TIMEOUT, 5_000));
        return new BackendPool(config, new BackendConnector(loops), loops);
    }
}
