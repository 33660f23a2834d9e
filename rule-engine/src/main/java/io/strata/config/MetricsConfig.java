package io.strata.config;

import java.util.Objects;

/**
 * The Prometheus endpoint: when enabled, {@code http://host:port/metrics} serves Strata's metrics in the Prometheus
 * text format.
 *
 * @param port 0 picks a free port (tests, embedding); a file must name a real one
 */
public record MetricsConfig(boolean enabled, String host, int port) {

    public static final String DEFAULT_HOST = "0.0.0.0";
    /** Beside mysqld_exporter's 9104, the usual neighbour of a MySQL proxy. */
    public static final int DEFAULT_PORT = 9105;
    public static final MetricsConfig DISABLED = new MetricsConfig(false, DEFAULT_HOST, DEFAULT_PORT);

    public MetricsConfig {
        Objects.requireNonNull(host, "host");
    }

    public static MetricsConfig on(String host, int port) {
        return new MetricsConfig(true, host, port);
    }
}
