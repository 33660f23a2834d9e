package io.strata.kernel;

import io.strata.backend.jdbc.TableCheck;
import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.rule.DataSourceNames;
import io.strata.rule.RoutingRule;
import io.strata.rule.RuleChain;
import io.strata.rule.broadcast.BroadcastRule;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sharding.ShardingRule;
import io.strata.rule.sharding.WorkerIds;
import io.strata.rule.single.SingleRule;
import io.strata.rule.single.SingleRuleFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What every host does with a configuration before it serves a statement: each logical database's rule chain, its
 * SINGLE tables found on their data sources, and warnings of what will fail later (a broadcast table missing on a
 * data source, a password that looks like a mistyped hash). The proxy and the embedded driver start the same way.
 */
public final class Startup {

    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);
    /** How long a data source may take to answer a start-up question. */
    private static final int PROBE_SECONDS = 5;

    private Startup() {
    }

    /** Each logical database's rule chain, its data sources known to {@code health}. */
    public static Map<String, RuleChain> ruleChains(StrataConfig config, HealthRegistry health) {
        return ruleChains(config, health, WorkerIds.CONFIGURED);
    }

    /** @param workerIds where SNOWFLAKE key generators take their worker ids (a cluster member's lease) */
    public static Map<String, RuleChain> ruleChains(StrataConfig config, HealthRegistry health, WorkerIds workerIds) {
        Map<String, RuleChain> chains = new LinkedHashMap<>();
        for (DatabaseConfig database : config.databases().values()) {
            chains.put(database.databaseName(), RuleChain.of(database, "config-" + database.databaseName() + ".yaml",
                    health, BuiltInRules.factories(workerIds)));
            database.dataSources().keySet().forEach(name -> health.status(database.databaseName(), name));
        }
        return chains;
    }

    /**
     * What the rules learn of the data sources' tables. SINGLE rules' tables, found on their data sources before any
     * client is served: each table a pattern names and no other rule claims (a sharded table's logical and actual
     * names, a broadcast table) lives where it is found. One found on several data sources stops the start, naming
     * it and them; a data source that cannot be asked is reported, its tables then unknown (statements naming them
     * go where the other rules send them). Sharded tables' columns, read from each table's first node in the
     * background (and again whenever the rule asks: after DDL through Strata, or an answer with other columns).
     */
    public static void readTables(StrataConfig config, Map<String, RuleChain> chains) {
        chains.forEach((database, chain) -> {
            DatabaseConfig databaseConfig = config.databases().get(database);
            Set<String> claimed = new HashSet<>();
            for (RoutingRule rule : chain.routingRules()) {
                if (rule instanceof BroadcastRule broadcast) {
                    broadcast.tables().forEach(t -> claimed.add(t.toLowerCase(Locale.ROOT)));
                } else if (rule instanceof ShardingRule sharding) {
                    readColumns(database, databaseConfig, sharding);
                    sharding.tables().tables().forEach(t -> {
                        claimed.add(t.logicalName().toLowerCase(Locale.ROOT));
                        t.nodes().forEach(node -> claimed.add(node.table().toLowerCase(Locale.ROOT)));
                    });
                }
            }
            for (int i = 0; i < chain.routingRules().size(); i++) {
                if (chain.routingRules().get(i) instanceof SingleRule single) {
                    find(database, databaseConfig, single, claimed);
                }
            }
        });
    }

    /**
     * The columns of each sharded table, as its first node has them, read on a virtual thread: now, and when the rule
     * says they changed (a second later, after the DDL that changed them ran). A table not there yet, or a data
     * source Strata cannot read, leaves them unknown (a * is then planned without them).
     */
    private static void readColumns(String database, DatabaseConfig config, ShardingRule sharding) {
        java.util.function.BiConsumer<String, Long> read = (table, delayMillis) -> Thread.ofVirtual()
                .name("strata-columns-" + table).start(() -> {
                    try {
                        Thread.sleep(delayMillis);
                        var node = sharding.tables().find(table).map(t -> t.nodes().get(0)).orElse(null);
                        DataSourceConfig dataSource = node == null ? null : config.dataSources().get(
                                DataSourceNames.of(config).writeOf().getOrDefault(node.dataSource(), ""));
                        if (dataSource != null) {
                            sharding.columns().found(table, TableCheck.columns(dataSource, node.table(),
                                    PROBE_SECONDS));
                        }
                    } catch (SQLException e) {
                        LOG.debug("config-{}.yaml: cannot read the columns of {}: {}", database, table,
                                e.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        sharding.columns().readWith(table -> read.accept(table, 1_000L));
        sharding.tables().tables().forEach(t -> read.accept(t.logicalName(), 0L));
    }

    /**
     * Each name routes use is scanned once: a plain data source, or a read/write group through its write data
     * source (its replicas hold the same tables), whose tables are then placed on the group.
     */
    private static void find(String database, DatabaseConfig config, SingleRule single, Set<String> claimed) {
        DataSourceNames names = DataSourceNames.of(config);
        for (String name : single.dataSourcesToScan(names.logical())) {
            DataSourceConfig dataSource = config.dataSources().get(names.writeOf().get(name));
            if (dataSource == null) {
                continue;
            }
            try {
                single.found(name, TableCheck.tables(dataSource, PROBE_SECONDS), claimed);
            } catch (SQLException e) {
                LOG.warn("config-{}.yaml: cannot read the single tables of {}: {}", database,
                        dataSource.describe(), e.getMessage());
            }
        }
        Map<String, Set<String>> conflicts = single.conflicts();
        if (!conflicts.isEmpty()) {
            int index = 0;
            while (!config.rules().get(index).type().equals(SingleRuleFactory.TYPE)) {
                index++;
            }
            var first = conflicts.entrySet().iterator().next();
            throw new ConfigException("config-" + database + ".yaml", "rules[" + index + "].tables",
                    "each single table on one data source (or claimed by another rule: sharded or broadcast); "
                            + "table " + first.getKey() + " is on " + first.getValue(),
                    conflicts.keySet().toString());
        }
        LOG.info("config-{}.yaml: {} single tables found ({})", database, single.placed().size(),
                single.placed().size() <= 20 ? single.placed() : "SHOW STRATA ROUTE tells where one is");
    }

    /**
     * A broadcast table must be on every data source: one missing somewhere is reported (not an error: the
     * application may be about to create it, through Strata, on all of them).
     */
    public static void warnOfMissingBroadcastTablesLater(StrataConfig config, Map<String, RuleChain> chains) {
        Thread.ofVirtual().name("strata-broadcast-check").start(() -> warnOfMissingBroadcastTables(config, chains));
    }

    private static void warnOfMissingBroadcastTables(StrataConfig config, Map<String, RuleChain> chains) {
        chains.forEach((database, chain) -> {
            for (RoutingRule rule : chain.routingRules()) {
                if (rule instanceof BroadcastRule broadcast) {
                    for (DataSourceConfig dataSource : config.databases().get(database).dataSources().values()) {
                        warnOfMissing(database, dataSource, broadcast.tables());
                    }
                }
            }
        });
    }

    private static void warnOfMissing(String database, DataSourceConfig dataSource, List<String> tables) {
        try {
            for (String table : TableCheck.missing(dataSource, tables, PROBE_SECONDS)) {
                LOG.warn("config-{}.yaml: broadcast table '{}' is not on data source '{}' ({}): changes to it "
                        + "will fail there until it is created", database, table, dataSource.name(),
                        dataSource.url());
            }
        } catch (SQLException e) {
            LOG.warn("config-{}.yaml: cannot check data source '{}' for its broadcast tables: {}", database,
                    dataSource.name(), e.getMessage());
        }
    }

    /** A password taken in clear that looks like a mistyped hash: its user's logins would fail with no hint why. */
    public static void warnOfMistypedHashes(StrataConfig config) {
        config.server().users().stream().filter(UserConfig::passwordLooksLikeMistypedHash).forEach(user ->
                LOG.warn("the password of user '{}' starts with '*' but is not '*' and 40 hex digits (a "
                        + "mysql_native_password hash); it is taken as a clear-text password", user.name()));
    }
}
