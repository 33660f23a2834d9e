package io.strata.config;

import java.util.Map;
import java.util.Objects;

/** Everything Strata needs to start: the front end it serves and the logical databases behind it. */
public record StrataConfig(ServerConfig server, Map<String, DatabaseConfig> databases) {

    /** @param databases keyed by {@link DatabaseConfig#databaseName()}; iteration order is kept */
    public StrataConfig {
        Objects.requireNonNull(server, "server");
        databases = Immutable.orderedMap(databases);
    }
}
