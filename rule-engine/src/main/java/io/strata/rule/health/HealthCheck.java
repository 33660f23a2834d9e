package io.strata.rule.health;

/**
 * How the health monitor checks a rule's data sources.
 *
 * @param intervalMillis            time between checks of one data source
 * @param timeoutMillis             connect and query timeout of one check: a data source slower than this is down
 * @param maxReplicationLagSeconds  a replica further behind than this leaves the rotation
 * @param username                  the account checks log in with; null: the data source's own
 * @param password                  its password (with {@code username})
 */
public record HealthCheck(long intervalMillis, long timeoutMillis, long maxReplicationLagSeconds, String username,
                          String password) {
}
