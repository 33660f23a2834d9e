package io.strata.bootstrap.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.strata.kernel.StatementTimer;
import io.strata.rule.sql.SqlKind;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Statement latency as Prometheus histograms ({@code strata_statements_seconds_bucket}), by logical database, data
 * source, statement kind and outcome. Fifteen fixed buckets from 250 us to 10 s, not Micrometer's percentile
 * histogram (about seventy buckets per series): enough for histogram_quantile at the tail, and few series however
 * long Strata runs. A statement finds its timer by two map lookups and an array index, allocating nothing.
 */
public final class StatementTimers implements StatementTimer {

    private static final Duration[] BUCKETS = {Duration.ofNanos(250_000), Duration.ofNanos(500_000),
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
        Duration.ofSeconds(10)};
    private static final SqlKind[] KINDS = SqlKind.values();

    private final MeterRegistry registry;
    /** database, then data source, then kind and outcome: kind.ordinal() * 2 + (failed ? 1 : 0). */
    private final Map<String, Map<String, Timer[]>> timers = new ConcurrentHashMap<>();

    public StatementTimers(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void ended(String database, String dataSource, SqlKind kind, boolean failed, long nanos) {
        Timer[] byKind = timers.computeIfAbsent(database, d -> new ConcurrentHashMap<>())
                .computeIfAbsent(dataSource, d -> new Timer[KINDS.length * 2]);
        int index = kind.ordinal() * 2 + (failed ? 1 : 0);
        Timer timer = byKind[index];
        if (timer == null) {
            timer = Timer.builder("strata.statements")
                    .tags("database", database, "data_source", dataSource, "kind", kind.name().toLowerCase(),
                            "outcome", failed ? "error" : "ok")
                    .serviceLevelObjectives(BUCKETS)
                    .description("Statements from their start to their answer, by logical database, data source, "
                            + "kind and outcome")
                    .register(registry); // the registry returns the same timer to a racing second caller
            byKind[index] = timer;
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
