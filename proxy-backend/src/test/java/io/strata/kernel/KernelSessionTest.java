package io.strata.kernel;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.backend.result.UpdateResult;
import io.strata.kernel.digest.DigestStats;
import io.strata.kernel.digest.DigestTable;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.ServerStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A host without MySQL packets runs statements through the kernel: the rules route, a fake executor plays the
 * backends (it records what it was asked to run and answers as told), and the answers come back as outcomes, counted
 * under their digests as a proxy session's are.
 */
class KernelSessionTest {

    private final KernelFixture fixture = new KernelFixture();
    private final EventLoop loop = new DefaultEventLoop();
    private final FakeExecutor executor = new FakeExecutor();
    private Kernel kernel;
    private KernelSession session;

    @BeforeEach
    void open(@TempDir Path conf) throws IOException {
        kernel = new Kernel(fixture.runtime(conf, KernelFixture.SHOP), new DigestTable(100), null);
        session = new KernelSession(kernel, KernelFixture.session(kernel), SessionThread.of(loop), executor);
    }

    @AfterEach
    void close() {
        session.close();
        fixture.close();
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    @Test
    void aSelectComesBackAsRowsOfValuesAndIsCountedOnceTheyAreRead() throws Exception {
        executor.answer(new Outcome.Rows(rows(new Object[]{1L, "ann"}, new Object[]{2L, "bob"})));

        Outcome outcome = session.execute(Statement.text("SELECT id, name FROM report WHERE region = 'north'")).get();

        assertEquals("ds_1", executor.ran().get(0).route().first().dataSource(), "the query rule's data source");
        Outcome.Rows rows = assertInstanceOf(Outcome.Rows.class, outcome);
        List<Object[]> read = new ArrayList<>();
        for (Row row; (row = rows.rows().next()) != null; ) {
            read.add(((Row.Cells) row).values());
        }
        rows.rows().close();
        assertArrayEquals(new Object[]{2L, "bob"}, read.get(1));

        DigestStats.Snapshot digest = digestOf("SELECT `id` , `name` FROM `report` WHERE `region` = ?");
        assertEquals(1, digest.count());
        assertEquals(2, digest.rowsSent());
        assertEquals("Sleep", session.session().activity().command(), "the statement has ended");
    }

    @Test
    void aPreparedUpdateRunsWithItsValuesAndLeavesRowCountAndTheInsertId() throws Exception {
        executor.answer(new Outcome.Update(new UpdateResult(3, 77, ServerStatus.AUTOCOMMIT, 0, "")));

        Outcome outcome = session.execute(Statement.prepared("UPDATE t SET a = ? WHERE b = ?", List.of(1, 2))).get();

        assertEquals(List.of(1, 2), executor.ran().get(0).statement().parameters());
        assertEquals("ds_0", executor.ran().get(0).route().first().dataSource(), "the database's default");
        assertEquals(3, assertInstanceOf(Outcome.Update.class, outcome).update().affectedRows());
        assertEquals(3, session.session().state().rowCount());
        assertEquals(77, session.session().state().lastInsertId());
        assertEquals(3, digestOf("UPDATE `t` SET `a` = ? WHERE `b` = ?").rowsAffected());
    }

    @Test
    void aStatementARuleRefusesNeverReachesTheExecutor() throws Exception {
        Outcome outcome = session.execute(Statement.text("SELECT * FROM big_table")).get();

        Outcome.Failure failure = assertInstanceOf(Outcome.Failure.class, outcome);
        assertEquals(1317, failure.error().errorCode());
        assertEquals("no scans", failure.error().message());
        assertTrue(executor.ran().isEmpty());
        assertEquals(1, digestOf("SELECT * FROM `big_table`").errors());
    }

    @Test
    void anExecutorThatFailsGivesAnErrorAndTheSessionGoesOn() throws Exception {
        executor.fail(new IllegalStateException("pool closed"));
        executor.answer(new Outcome.Update(new UpdateResult(1, 0, ServerStatus.AUTOCOMMIT, 0, "")));

        Outcome failed = session.execute(Statement.text("DELETE FROM t WHERE id = 1")).get();
        Outcome next = session.execute(Statement.text("DELETE FROM t WHERE id = 2")).get();

        assertEquals(ErrorCode.INTERNAL.packet("x").errorCode(),
                assertInstanceOf(Outcome.Failure.class, failed).error().errorCode());
        assertInstanceOf(Outcome.Update.class, next);
        assertEquals(2, digestOf("DELETE FROM `t` WHERE `id` = ?").count());
    }

    @Test
    void aSessionWithoutADatabaseIsToldSo() throws Exception {
        session.session().state().use(null, null);

        Outcome outcome = session.execute(Statement.text("SELECT 1")).get();

        assertEquals(1046, assertInstanceOf(Outcome.Failure.class, outcome).error().errorCode());
    }

    private DigestStats.Snapshot digestOf(String digest) {
        return kernel.digests().snapshot().stream().filter(e -> e.getKey().digest().equals(digest)).findFirst()
                .orElseThrow(() -> new AssertionError("no digest " + digest + " in " + kernel.digests().snapshot()))
                .getValue();
    }

    private static QueryResult rows(Object[]... values) {
        Queue<Object[]> pending = new ArrayDeque<>(List.of(values));
        return new QueryResult() {
            @Override
            public List<ColumnMetadata> columns() {
                return List.of();
            }

            @Override
            public Row next() {
                Object[] row = pending.poll();
                return row == null ? null : new Row.Cells(row);
            }

            @Override
            public int statusFlags() {
                return ServerStatus.AUTOCOMMIT;
            }

            @Override
            public int warnings() {
                return 0;
            }

            @Override
            public void close() {
                pending.clear();
            }
        };
    }

    /** Answers each statement with the next outcome it was given, on another thread, as backends would. */
    /**
     * An embedded host runs every stage on its own thread: the executor hands its work off, the host runs it once
     * execute has returned, and the answer is complete then, with no other thread involved.
     */
    @Test
    void anEmbeddedSessionRunsOnTheCallersThreadWithTheWorkHandedOff() {
        io.strata.kernel.jdbc.HandOff handOff = new io.strata.kernel.jdbc.HandOff();
        List<Thread> ranOn = new ArrayList<>();
        Executor onCaller = routed -> {
            CompletableFuture<Outcome> answer = new CompletableFuture<>();
            handOff.execute(() -> {
                ranOn.add(Thread.currentThread());
                answer.complete(new Outcome.Update(new UpdateResult(1, 0, ServerStatus.AUTOCOMMIT, 0, "")));
            });
            return answer;
        };
        java.util.concurrent.ScheduledExecutorService timers = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        try (KernelSession embedded = new KernelSession(kernel, KernelFixture.session(kernel),
                SessionThread.callers(timers), onCaller)) {
            CompletableFuture<Outcome> answer = embedded.execute(Statement.text("UPDATE report SET n = 1"));
            assertTrue(!answer.isDone() && ranOn.isEmpty(), "nothing ran on a backend inside the stage");
            handOff.runPending();
            assertTrue(answer.isDone(), "answered on the caller's thread");
            assertEquals(List.of(Thread.currentThread()), ranOn);
            assertEquals(1, ((Outcome.Update) answer.join()).update().affectedRows());
        } finally {
            timers.shutdownNow();
        }
    }

    private static final class FakeExecutor implements Executor {
        private final Queue<Object> answers = new ArrayDeque<>();
        private final List<Routed> ran = new ArrayList<>();

        void answer(Outcome outcome) {
            answers.add(outcome);
        }

        void fail(Throwable error) {
            answers.add(error);
        }

        synchronized List<Routed> ran() {
            return List.copyOf(ran);
        }

        @Override
        public synchronized CompletionStage<Outcome> execute(Routed routed) {
            ran.add(routed);
            Object next = answers.remove();
            return next instanceof Throwable error ? CompletableFuture.failedFuture(error)
                    : CompletableFuture.supplyAsync(() -> (Outcome) next);
        }
    }
}
