package io.strata.bootstrap.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.strata.config.MetricsConfig;
import io.strata.frontend.FrontendContext;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} in the Prometheus text format: Strata's own meters ({@link StrataMeters}), HikariCP's pools
 * when the JDBC executor is on (HikariCP's own Micrometer tracker), and the JVM's memory, GC, threads and CPU. Served
 * by the JDK's HTTP server on its own thread, away from the event loops.
 *
 * <pre>{@code
 * MetricsEndpoint metrics = MetricsEndpoint.create(MetricsConfig.on("127.0.0.1", 0));
 * new JdbcDataSources(config, metrics.hikariTracker());    // before the pools exist
 * metrics.start(context);                                   // once the frontend is built
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {

    static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final MetricsConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private HttpServer http;
    private DigestMeters digestMeters;
    private StrataMeters strataMeters;

    private MetricsEndpoint(MetricsConfig config) {
        this.config = config;
    }

    public static MetricsEndpoint create(MetricsConfig config) {
        return new MetricsEndpoint(config);
    }

    /** Where HikariCP pools report; pass it to them before they are created. */
    public MetricsTrackerFactory hikariTracker() {
        return new MicrometerMetricsTrackerFactory(registry);
    }

    /**
     * Binds the meters and listens.
     *
     * @throws IllegalStateException naming the address when the port cannot be bound
     */
    public void start(FrontendContext context) {
        strataMeters = new StrataMeters(context);
        strataMeters.bindTo(registry);
        context.kernel().timer(new StatementTimers(registry));
        digestMeters = new DigestMeters(context::digests, registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        try {
            http = HttpServer.create(new InetSocketAddress(config.host(), config.port()), 0);
        } catch (IOException e) {
            throw new IllegalStateException("the metrics endpoint cannot listen on " + config.host() + ":"
                    + config.port() + " (server.metrics in server.yaml): " + e.getMessage(), e);
        }
        http.createContext("/", this::handle);
        http.start();
    }

    /** Where other parts of Strata register their meters (statement timers, reload counters). */
    public MeterRegistry registry() {
        return registry;
    }

    /** The port it listens on (the actual one when the configuration asked for port 0). */
    public int port() {
        return http.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                reply(exchange, 404, "Strata serves its metrics at " + PATH + "\n");
            } else if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                reply(exchange, 405, "GET only\n");
            } else {
                exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
                strataMeters.refresh();
                digestMeters.refresh();
                reply(exchange, 200, registry.scrape());
            }
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        if (http != null) {
            http.stop(0);
        }
        gc.close();
        registry.close();
    }
}
