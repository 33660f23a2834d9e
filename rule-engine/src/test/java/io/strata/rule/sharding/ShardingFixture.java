package io.strata.rule.sharding;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Reads SHARDING rules from YAML text as {@code config-sharding.yaml} would hold them, on a database with the data
 * sources ds_0, ds_1, ds_2, and primary/replica forming the read/write group rw.
 */
final class ShardingFixture {

    static final String FILE = "config-sharding.yaml";

    /** The brief's example: t_order and t_order_item over ds_0/ds_1, two tables each, bound. */
    static final String EXAMPLE = """
            rules:
              - type: SHARDING
                tables:
                  t_order:
                    actualDataNodes: ds_${0..1}.t_order_${0..1}
                    databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                    tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_inline } }
                    keyGenerateStrategy: { column: order_id, keyGeneratorName: snowflake }
                  t_order_item:
                    actualDataNodes: ds_${0..1}.t_order_item_${0..1}
                    databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                    tableStrategy:
                      standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_item_inline }
                bindingTables: [ "t_order,t_order_item" ]
                defaultDatabaseStrategy: { none: {} }
                defaultTableStrategy: { none: {} }
                defaultDataSource: ds_0
                shardingAlgorithms:
                  database_mod: { type: MOD, props: { sharding-count: 2 } }
                  t_order_inline: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}" } }
                  t_order_item_inline: { type: INLINE, props: { algorithm-expression: "t_order_item_${order_id % 2}" } }
                keyGenerators:
                  snowflake: { type: SNOWFLAKE, props: { worker-id: 1 } }
            """;

    private ShardingFixture() {
    }

    /** The database of a YAML document holding {@code rules:}; the first rule is the SHARDING one. */
    static DatabaseConfig database(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Map<?, ?> document = new Yaml(new SafeConstructor(options)).load(yaml);
        List<RuleConfig> rules = new ArrayList<>();
        for (Object entry : (List<?>) document.get("rules")) {
            Map<String, Object> props = new LinkedHashMap<>();
            ((Map<?, ?>) entry).forEach((key, value) -> props.put(String.valueOf(key), value));
            String type = (String) props.remove("type");
            rules.add(new RuleConfig(type, props));
        }
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("ds_0", "ds_1", "ds_2", "primary", "replica")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/shop", "app", "app",
                    Map.of()));
        }
        return new DatabaseConfig("shop", dataSources, rules);
    }

    /** The rule chain of database shop over ds_0 and ds_1, its rules the YAML list {@code rules}. */
    static RuleChain chain(String rules) {
        List<RuleConfig> configs = new ArrayList<>();
        for (Object rule : (List<?>) new Yaml().load(rules)) {
            Map<String, Object> props = new LinkedHashMap<>();
            ((Map<?, ?>) rule).forEach((k, v) -> props.put((String) k, v));
            configs.add(new RuleConfig((String) props.remove("type"), props));
        }
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("ds_0", "ds_1")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/shop", "app", "app",
                    Map.of()));
        }
        return RuleChain.of(new DatabaseConfig("shop", dataSources, configs), "config-shop.yaml",
                new HealthRegistry(), BuiltInRules.factories());
    }

    /** The route of a statement in {@code chain}, outside a transaction, with {@code params} for its {@code ?}. */
    static RouteResult route(RuleChain chain, String sql, Object... params) {
        return chain.route(new StatementContext("shop", SqlClassifier.classify(sql), false, Map.of(), false,
                new SessionRouteState(), () -> Arrays.asList(params)));
    }

    static ShardingRuleConfig config(String yaml) {
        DatabaseConfig database = database(yaml);
        int index = 0;
        while (!database.rules().get(index).type().equals("SHARDING")) {
            index++;
        }
        return ShardingRuleConfig.read(database, database.rules().get(index), FILE, "rules[" + index + "]");
    }

    static ShardingTables tables(String yaml) {
        return ShardingTables.of(config(yaml));
    }

    static ConfigException error(String yaml) {
        return assertThrows(ConfigException.class, () -> config(yaml));
    }

    /**
     * A rule with one table {@code t} and the given algorithm {@code algo} as its table strategy on column
     * {@code k}, over the given nodes.
     */
    static String oneTable(String nodes, String algorithmType, String props) {
        return """
                rules:
                  - type: SHARDING
                    tables:
                      t:
                        actualDataNodes: %s
                        tableStrategy: { standard: { shardingColumn: k, shardingAlgorithmName: algo } }
                    shardingAlgorithms:
                      algo: { type: %s, props: %s }
                """.formatted(nodes, algorithmType, props);
    }
}
