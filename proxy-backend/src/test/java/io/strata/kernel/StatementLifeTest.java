package io.strata.kernel;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.strata.kernel.digest.DigestKey;
import io.strata.kernel.digest.DigestStats;
import io.strata.kernel.digest.DigestTable;
import io.strata.protocol.ErrorCode;
import io.strata.rule.RouteResult;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlStatementInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stages of a statement's life in the kernel, with no host and no backend: the rule chain routes, the kernel
 * counts, times and records, and the test plays the executor (it answers, or it does not in time).
 */
class StatementLifeTest {

    private static final String SHOP = KernelFixture.SHOP;

    private final KernelFixture fixture = new KernelFixture();
    private final EventLoop loop = new DefaultEventLoop();

    @AfterEach
    void stopLoops() {
        fixture.close();
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    @Test
    void aStatementIsRoutedCountedOnItsDataSourceAndRecordedUnderItsDigest(@TempDir Path conf) throws Exception {
        Kernel kernel = new Kernel(runtime(conf, SHOP), new DigestTable(100), null);
        Session session = session(kernel);
        StatementLife life = new StatementLife(kernel, session, SessionThread.of(loop));

        SqlStatementInfo select = SqlClassifier.classify("SELECT name FROM report WHERE id = 7");
        onLoop(() -> {
            life.starts("Query", select.sql());
            life.statementIs(select, "shop", null);
            RouteResult route = life.route(routing(session, select), true, null);

            assertEquals("ds_1", route.first().dataSource());
            assertEquals(1, kernel.runtime().health().status("shop", "ds_1").active(), "running on ds_1");
            assertEquals("ds_1", session.activity().runningOn());
            assertEquals("Query", session.activity().command());

            session.state().counted(-1, 1); // the executor answered one row
            life.ends();
        });

        assertEquals(0, kernel.runtime().health().status("shop", "ds_1").active(), "no longer running");
        assertEquals("Sleep", session.activity().command());
        Map.Entry<DigestKey, DigestStats.Snapshot> digest = kernel.digests().snapshot().get(0);
        assertEquals("SELECT `name` FROM `report` WHERE `id` = ?", digest.getKey().digest());
        assertEquals("app", digest.getKey().user());
        assertEquals("ds_1", digest.getKey().dataSource());
        assertEquals(1, digest.getValue().count());
        assertEquals(1, digest.getValue().rowsSent());
    }

    @Test
    void aCommandKeepsTheRuntimeItStartedWithWhileTheNextOneTakesASwappedOne(@TempDir Path conf) throws Exception {
        StrataRuntime first = runtime(conf.resolve("first"), SHOP);
        StrataRuntime second = runtime(conf.resolve("second"), SHOP.replace("dataSource: ds_1", "dataSource: ds_0"));
        Kernel kernel = new Kernel(first, null, null);
        Session session = session(kernel);
        StatementLife life = new StatementLife(kernel, session, SessionThread.of(loop));
        SqlStatementInfo select = SqlClassifier.classify("SELECT * FROM report");

        onLoop(() -> {
            life.starts("Query", select.sql());
            assertSame(first, kernel.swap(second), "the swap hands back what it replaced");
            assertEquals("ds_1", life.route(routing(session, select), true, null).first().dataSource(),
                    "routed by the rules it started with");
            life.ends();

            life.starts("Query", select.sql());
            assertSame(second, life.runtime());
            assertEquals("ds_0", life.route(routing(session, select), true, null).first().dataSource());
            life.ends();
        });
    }

    @Test
    void aQueryRulesTimeLimitCancelsAStatementStillRunningWithTheServersOwnError(@TempDir Path conf)
            throws Exception {
        Kernel kernel = new Kernel(runtime(conf, SHOP), null, null);
        Session session = session(kernel);
        StatementLife life = new StatementLife(kernel, session, SessionThread.of(loop));
        SqlStatementInfo slow = SqlClassifier.classify("SELECT SLEEP(10) FROM report");
        CountDownLatch cancelled = new CountDownLatch(1);

        onLoop(() -> {
            life.starts("Query", slow.sql());
            session.state().running(() -> {
                cancelled.countDown();
                return CompletableFuture.completedFuture(null);
            });
            life.route(routing(session, slow), true, null);
        });

        assertTrue(cancelled.await(5, TimeUnit.SECONDS), "the executor was told to cancel");
        assertEquals(ErrorCode.QUERY_TIMEOUT.packet().errorCode(), session.state().interruption().errorCode(),
                "a backend that never greeted as MariaDB gets MySQL's max_execution_time error");
    }

    @Test
    void aStatementAnsweredInTimeIsNotCancelledLater(@TempDir Path conf) throws Exception {
        Kernel kernel = new Kernel(runtime(conf, SHOP), null, null);
        Session session = session(kernel);
        StatementLife life = new StatementLife(kernel, session, SessionThread.of(loop));
        SqlStatementInfo quick = SqlClassifier.classify("SELECT 1 FROM report");
        AtomicBoolean cancelled = new AtomicBoolean();

        onLoop(() -> {
            life.starts("Query", quick.sql());
            session.state().running(() -> {
                cancelled.set(true);
                return CompletableFuture.completedFuture(null);
            });
            life.route(routing(session, quick), true, null);
            life.ends();
        });
        Thread.sleep(150);

        assertFalse(cancelled.get());
        assertNull(session.state().interruption());
    }

    private StrataRuntime runtime(Path conf, String database) throws IOException {
        return fixture.runtime(conf, database);
    }

    private static Session session(Kernel kernel) {
        return KernelFixture.session(kernel);
    }

    private static StatementContext routing(Session session, SqlStatementInfo info) {
        return new StatementContext("shop", info, false, Map.of(), false, session.routeState());
    }

    /** Runs {@code steps} on the session's loop, as a host runs its commands, and waits for them. */
    private void onLoop(Runnable steps) throws Exception {
        loop.submit(steps).get(10, TimeUnit.SECONDS);
    }
}
