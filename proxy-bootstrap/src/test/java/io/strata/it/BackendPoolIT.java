package io.strata.it;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendConnector;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.Transports;
import io.strata.config.DataSourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The native pool on a real MariaDB: connections stay with the event loop of the client using them, because a
 * connection on another loop costs a task hand-off and a thread wake-up for every packet it relays.
 */
class BackendPoolIT {

    private static final int FLAVOR = 0;

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

    private BackendPool pool(int size) {
        var server = Backend.server();
        DataSourceConfig config = DataSourceConfig.of("ds", server.jdbcUrl(Backend.SCHEMA), "strata", "strata",
                Map.of(DataSourceConfig.MAXIMUM_POOL_SIZE, size, DataSourceConfig.CONNECTION_TIMEOUT, 5_000));
        return new BackendPool(config, new BackendConnector(loops), loops);
    }
}
