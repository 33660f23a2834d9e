package io.strata.bootstrap.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.strata.bootstrap.reload.ConfigReloader;

/** Reloads of the configuration, applied and refused, and the version running. */
public final class ReloadMeters {

    private ReloadMeters() {
    }

    public static void bind(MeterRegistry registry, ConfigReloader reloader) {
        Counter applied = Counter.builder("strata.config.reloads").tag("outcome", "applied")
                .description("configuration reloads (RELOAD STRATA CONFIG, SIGHUP, a watched file), by outcome")
                .register(registry);
        Counter refused = Counter.builder("strata.config.reloads").tag("outcome", "refused")
                .description("configuration reloads (RELOAD STRATA CONFIG, SIGHUP, a watched file), by outcome")
                .register(registry);
        Gauge.builder("strata.config.version", reloader, r -> r.current().number())
                .description("the configuration version running: 1 at start, one more per applied reload")
                .register(registry);
        reloader.listener(ok -> (ok ? applied : refused).increment());
    }
}
