package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.strata.backend.Backends;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.StateSync;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.CommandType;
import io.strata.protocol.ServerStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Copies of statements sent to another data source (a query rule's {@code mirror}): each runs on a pooled connection
 * of that data source in its own schema and with autocommit, its answer read and dropped; the client's answer never
 * waits for it. At most {@link #MAX_IN_FLIGHT} copies run at once: beyond, a copy is dropped and counted, so a slow
 * mirror cannot take the proxy's memory or the primary's pace.
 */
public final class Mirrors {

    public static final int MAX_IN_FLIGHT = 64;
    private static final Logger LOG = LoggerFactory.getLogger(Mirrors.class);

    private final Backends backends;
    /** The HikariCP pools copies take their connections from where there are no native ones (embedded), else null. */
    private final JdbcDataSources jdbc;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder sent = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    public Mirrors(Backends backends) {
        this.backends = backends;
        this.jdbc = null;
    }

    /** Copies over HikariCP connections, each on a virtual thread: the embedded driver has no native pools. */
    public Mirrors(JdbcDataSources jdbc) {
        this.backends = null;
        this.jdbc = jdbc;
    }

    /**
     * Runs {@code sql} on {@code dataSource} of {@code database}, without waiting for it.
     *
     * @param loop the client's event loop, whose connections come first (null over HikariCP)
     */
    public void run(String database, String dataSource, String sql, int flavor, EventLoop loop) {
        if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
            inFlight.decrementAndGet();
            dropped.increment();
            return;
        }
        sent.increment();
        if (jdbc != null) {
            Thread.ofVirtual().name("strata-mirror").start(() -> runOverJdbc(database, dataSource, sql));
            return;
        }
        BackendPool pool = backends.pool(database, dataSource);
        pool.acquire(flavor, loop).whenComplete((connection, error) -> {
            if (error != null) {
                finished(dataSource, error);
                return;
            }
            ByteBuf payload = StateSync.command(connection.channel().alloc(), CommandType.COM_QUERY, sql);
            connection.execute(payload, ResponseKind.QUERY, new Discard(pool, connection, dataSource));
        });
    }

    /** A copy on a pooled HikariCP connection, in autocommit; its answer is dropped. */
    private void runOverJdbc(String database, String dataSource, String sql) {
        try (Connection connection = jdbc.get(database, dataSource, true).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
            finished(dataSource, null);
        } catch (SQLException | RuntimeException e) {
            finished(dataSource, e);
        }
    }

    private void finished(String dataSource, Throwable error) {
        inFlight.decrementAndGet();
        if (error != null) {
            failed.increment();
            LOG.debug("mirror to {} failed: {}", dataSource, error.getMessage());
        }
    }

    /** Copies sent (started) since the start. */
    public long sent() {
        return sent.sum();
    }

    /** Copies that failed: the mirror's error, or no connection to it. */
    public long failed() {
        return failed.sum();
    }

    /** Copies not sent because {@link #MAX_IN_FLIGHT} were running. */
    public long dropped() {
        return dropped.sum();
    }

    /** Reads a copy's answer to its end and drops it; the connection goes back unless the copy left it in a transaction. */
    private final class Discard implements ResponseListener {
        private final BackendPool pool;
        private final BackendConnection connection;
        private final String dataSource;

        Discard(BackendPool pool, BackendConnection connection, String dataSource) {
            this.pool = pool;
            this.connection = connection;
            this.dataSource = dataSource;
        }

        @Override
        public void onPacket(ByteBuf packet) {
            packet.release();
        }

        @Override
        public void onComplete(ResponseSummary summary) {
            if (summary.statusFlags() > 0 && (summary.statusFlags() & ServerStatus.IN_TRANS) != 0) {
                pool.discard(connection); // a BEGIN copied: nothing else may run in its transaction
            } else {
                pool.release(connection);
            }
            finished(dataSource, summary.failed() ? new IllegalStateException(summary.error().message()) : null);
        }

        @Override
        public void onFailure(Throwable cause) {
            pool.discard(connection);
            finished(dataSource, cause);
        }
    }
}
