package io.strata.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A data source written as ShardingSphere writes one, read as Strata's, so that a ShardingSphere file's
 * {@code dataSources} work unchanged: {@code jdbcUrl} (ShardingSphere-JDBC's) for {@code url}; ShardingSphere-Proxy's
 * pool keys for HikariCP's ({@code connectionTimeoutMilliseconds}, {@code idleTimeoutMilliseconds},
 * {@code maxLifetimeMilliseconds}, {@code maxPoolSize}, {@code minPoolSize}); {@code dataSourceClassName} accepted
 * when it is HikariCP's, which Strata pools with anyway, and {@code driverClassName} left out: Strata reaches MariaDB
 * and MySQL with its own drivers.
 */
final class ShardingSphereDataSource {

    private static final Map<String, String> ALIASES = Map.of("jdbcUrl", "url",
            "connectionTimeoutMilliseconds", "connectionTimeout", "idleTimeoutMilliseconds", "idleTimeout",
            "maxLifetimeMilliseconds", "maxLifetime", "maxPoolSize", "maximumPoolSize", "minPoolSize", "minimumIdle");
    private static final Set<String> LEFT_OUT = Set.of("dataSourceClassName", "driverClassName");
    private static final String HIKARI = "com.zaxxer.hikari.HikariDataSource";

    private ShardingSphereDataSource() {
    }

    /** The entry with ShardingSphere's keys as Strata's (itself when it has none). */
    static YamlMap read(YamlMap entry) {
        if (entry.keys().stream().noneMatch(key -> ALIASES.containsKey(key) || LEFT_OUT.contains(key))) {
            return entry;
        }
        Object className = entry.value("dataSourceClassName");
        if (className != null && !HIKARI.equals(className)) {
            throw entry.error("dataSourceClassName", HIKARI + " (Strata's pools are HikariCP), or no such key",
                    className);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (String key : entry.keys()) {
            if (LEFT_OUT.contains(key)) {
                continue;
            }
            String strata = ALIASES.getOrDefault(key, key);
            if (!strata.equals(key) && entry.keys().contains(strata)) {
                throw entry.error(key, "either " + key + " (ShardingSphere's) or " + strata + ", not both",
                        entry.value(key));
            }
            values.put(strata, entry.value(key));
        }
        return entry.with(values);
    }
}
