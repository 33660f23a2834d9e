package io.strata.bootstrap.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.strata.kernel.digest.DigestKey;
import io.strata.kernel.digest.DigestStats;
import io.strata.kernel.digest.DigestTable;

import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;

/**
 * The top statements by total time, from the query digests, as two gauges per statement (total seconds, calls),
 * refreshed before each scrape. Bounded to {@value #TOP} statements, so the series Prometheus stores stay few
 * whatever the applications send; SHOW STRATA DIGESTS has the rest.
 */
final class DigestMeters {

    static final int TOP = 20;
    /** Prometheus label values are kept short; the id tells the full text apart in SHOW STRATA DIGESTS. */
    private static final int TEXT_LABEL = 160;

    /** The digests of this moment: a reload may switch them on, off, or to a new table. */
    private final Supplier<DigestTable> digests;
    private final MultiGauge seconds;
    private final MultiGauge calls;

    DigestMeters(Supplier<DigestTable> digests, MeterRegistry registry) {
        this.digests = digests;
        this.seconds = MultiGauge.builder("strata.digest.time").baseUnit("seconds")
                .description("total time of the statements of a digest, for the top " + TOP + " by total time")
                .register(registry);
        this.calls = MultiGauge.builder("strata.digest.calls")
                .description("statements of a digest, for the top " + TOP + " by total time").register(registry);
    }

    void refresh() {
        DigestTable table = digests.get();
        List<Map.Entry<DigestKey, DigestStats.Snapshot>> top = table == null ? List.of() : table.snapshot().stream()
                .sorted(Comparator.comparingLong((Map.Entry<DigestKey, DigestStats.Snapshot> e) ->
                        e.getValue().sumMicros()).reversed())
                .limit(TOP).toList();
        seconds.register(top.stream().map(e -> MultiGauge.Row.of(tags(e.getKey()),
                e.getValue().sumMicros() / 1e6)).toList(), true);
        calls.register(top.stream().map(e -> MultiGauge.Row.of(tags(e.getKey()),
                (double) e.getValue().count())).toList(), true);
    }

    private static Tags tags(DigestKey key) {
        String text = key.digest().length() > TEXT_LABEL ? key.digest().substring(0, TEXT_LABEL) + "..."
                : key.digest();
        return Tags.of("digest", key.id(), "digest_text", text, "user", key.user(), "database", key.database(),
                "data_source", key.dataSource());
    }
}
