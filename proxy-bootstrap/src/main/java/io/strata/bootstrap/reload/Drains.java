package io.strata.bootstrap.reload;

import com.zaxxer.hikari.HikariDataSource;
import io.strata.backend.connection.BackendPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The pools reloads retired, until they close. A native pool closes itself once nothing is lent
 * ({@link BackendPool#drain}); a HikariCP pool, whose idle connections are already evicted, is closed here once its
 * last lent connection is back, checked every {@value #CHECK_MILLIS} ms. A session that keeps a connection for
 * good (temporary tables, user variables on it) keeps its pool draining until it ends.
 */
final class Drains implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Drains.class);
    static final long CHECK_MILLIS = 200;

    private final List<BackendPool> nativePools = new CopyOnWriteArrayList<>();
    private final List<HikariDataSource> hikariPools = new CopyOnWriteArrayList<>();
    private volatile Thread checker;
    private volatile boolean closed;

    void nativePools(List<BackendPool> pools) {
        nativePools.addAll(pools);
        pools.forEach(pool -> LOG.info("{}: the old pool drains ({} connections lent)",
                pool.config().describe(), pool.stats().active()));
        start();
    }

    void hikariPools(List<HikariDataSource> pools) {
        hikariPools.addAll(pools);
        start();
    }

    /** What still drains, by pool name. */
    List<String> draining() {
        List<String> names = new ArrayList<>();
        nativePools.forEach(pool -> names.add(pool.config().describe() + " (" + pool.stats().active() + " lent)"));
        hikariPools.forEach(pool -> names.add(pool.getPoolName() + " (jdbc)"));
        return names;
    }

    private synchronized void start() {
        if (checker == null && !closed) {
            checker = Thread.ofVirtual().name("strata-pool-drains").start(this::loop);
        }
    }

    private void loop() {
        while (!closed) {
            nativePools.removeIf(BackendPool::closed);
            for (HikariDataSource pool : hikariPools) {
                if (idle(pool)) {
                    pool.close();
                    hikariPools.remove(pool);
                    LOG.info("JDBC pool {} drained and closed", pool.getPoolName());
                }
            }
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A HikariCP pool closes once nothing is lent. */
    private static boolean idle(HikariDataSource pool) {
        return pool.getHikariPoolMXBean() == null || pool.getHikariPoolMXBean().getActiveConnections() == 0;
    }

    @Override
    public void close() {
        closed = true;
        Thread running = checker;
        if (running != null) {
            running.interrupt();
        }
        nativePools.forEach(BackendPool::close);
        hikariPools.forEach(HikariDataSource::close);
    }
}
