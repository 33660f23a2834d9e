package io.strata.backend.health;

import io.strata.config.DataSourceConfig;
import io.strata.config.StrataConfig;
import io.strata.rule.health.HealthRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks every data source a rule registered, each on its own virtual thread at the rule's interval, and keeps its
 * status current: a data source that fails a check leaves the rotation at once and comes back at its first good check.
 */
public final class HealthMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HealthMonitor.class);

    private final List<Thread> threads = new ArrayList<>();
    private final List<DataSourceCheck> checks = new ArrayList<>();
    private volatile boolean closed;

    private HealthMonitor() {
    }

    /** What to do with a replica's running statements when a check finds it unreachable. */
    @FunctionalInterface
    public interface OnUnreachable {
        /** Statements that have waited {@code patienceMillis} (the check's timeout) without an answer should go. */
        void replica(String database, String dataSource, long patienceMillis, String why);
    }

    /**
     * Starts checking what {@code registry} holds, telling {@code onUnreachable} of each failed replica check; nothing
     * runs when no rule asked for checks.
     */
    public static HealthMonitor start(StrataConfig config, HealthRegistry registry, OnUnreachable onUnreachable) {
        HealthMonitor monitor = new HealthMonitor();
        for (HealthRegistry.Watch watch : registry.watches()) {
            DataSourceConfig dataSource = config.databases().get(watch.status().database()).dataSources()
                    .get(watch.status().name());
            DataSourceCheck check = new DataSourceCheck(dataSource, watch, onUnreachable);
            monitor.checks.add(check);
            monitor.threads.add(Thread.ofVirtual().name("strata-health-" + watch.status().database() + "/"
                    + watch.status().name()).start(() -> monitor.loop(check, watch.check().intervalMillis())));
        }
        return monitor;
    }

    private void loop(DataSourceCheck check, long intervalMillis) {
        while (!closed) {
            try {
                check.run();
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("health check of {} failed in Strata", check.name(), e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        checks.forEach(DataSourceCheck::retire);
    }
}
