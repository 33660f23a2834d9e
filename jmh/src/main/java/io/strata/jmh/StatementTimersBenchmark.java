package io.strata.jmh;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.strata.bootstrap.metrics.StatementTimers;
import io.strata.rule.sql.SqlKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What the latency histograms cost a statement: one {@link StatementTimers#ended} (the timer found, the histogram
 * updated) into Micrometer's Prometheus registry, as every statement does when server.metrics is on; on one thread
 * and on two (the event loops of a 2-core machine, updating the same series).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class StatementTimersBenchmark {

    private StatementTimers timers;

    @Setup
    public void setUp() {
        timers = new StatementTimers(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @Benchmark
    public void oneThread() {
        timers.ended("sbtest", "ds_0", SqlKind.SELECT, false, 180_000);
    }

    @Benchmark
    @Threads(2)
    public void twoThreads() {
        timers.ended("sbtest", "ds_0", SqlKind.SELECT, false, 180_000);
    }
}
