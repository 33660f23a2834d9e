package io.strata.rule.sharding;

import io.strata.config.ConfigException;
import io.strata.rule.sharding.TableRuleConfig.KeyGenerateConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static io.strata.rule.sharding.ShardingFixture.EXAMPLE;
import static io.strata.rule.sharding.ShardingFixture.FILE;
import static io.strata.rule.sharding.ShardingFixture.config;
import static io.strata.rule.sharding.ShardingFixture.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a SHARDING rule: what a good file gives, and what each mistake says. */
class ShardingConfigTest {

    private static final String TABLE = "tables: { t: { actualDataNodes: 'ds_${0..1}.t_${0..1}', tableStrategy: "
            + "{ standard: { shardingColumn: k, shardingAlgorithmName: algo } } } }";
    private static final String ALGORITHM = "shardingAlgorithms: { algo: { type: INLINE, props: "
            + "{ algorithm-expression: 't_${k % 2}' } } }";

    private static final String MOD4 = "shardingAlgorithms: { algo: { type: INLINE, props: "
            + "{ algorithm-expression: 't_${k % 2}' } }, mod4: { type: MOD, props: { sharding-count: 4 } } }";
    private static final String AUTO_STRATEGY = "shardingStrategy: { standard: { shardingColumn: k, "
            + "shardingAlgorithmName: mod4 } }";

    /** A SHARDING rule made of flow-style lines, e.g. rule(TABLE, ALGORITHM). */
    private static String rule(String... lines) {
        StringBuilder yaml = new StringBuilder("rules:\n  - type: SHARDING\n");
        for (String line : lines) {
            yaml.append("    ").append(line).append('\n');
        }
        return yaml.toString();
    }

    /** The same rule, with {@code algo} of another type and props. */
    private static String withAlgorithm(String type, String props) {
        return rule(TABLE, "shardingAlgorithms: { algo: { type: " + type + ", props: " + props + " } }");
    }

    @Test
    void shardingSpheresRouteCacheIsReadAndNotNeeded() {
        assertEquals(1, config(rule(TABLE, "shardingAlgorithms: { algo: { type: MOD, props: { sharding-count: 2 } "
                + "} }", "shardingCache: { capacity: 10000, routeCache: { initialCapacity: 10, maximumSize: 100 } }"))
                .tables().size());
        assertTrue(error(rule(TABLE, "shardingAlgorithms: { algo: { type: COSID_MOD, props: {} } }")).getMessage()
                .contains("got 'COSID_MOD'"));
    }

    @Test
    void anAutoTableIsCutByItsAlgorithmAndDealtOverItsDataSources() {
        ShardingRuleConfig config = config(rule(MOD4, "autoTables: { t_auto: { actualDataSources: 'ds_${0..1}', "
                + AUTO_STRATEGY + ", keyGenerateStrategy: { column: id, keyGeneratorName: uuid } } }",
                "keyGenerators: { uuid: { type: UUID } }"));

        TableRuleConfig auto = config.tables().get(0);
        assertEquals(List.of(new DataNode("ds_0", "t_auto_0"), new DataNode("ds_1", "t_auto_1"),
                new DataNode("ds_0", "t_auto_2"), new DataNode("ds_1", "t_auto_3")), auto.nodes());
        assertEquals(StrategyConfig.NONE, auto.databaseStrategy(), "the table picks the data source");
        assertEquals(new StrategyConfig.Standard("k", "mod4"), auto.tableStrategy());
        assertEquals(Optional.of(new KeyGenerateConfig("id", "uuid")), auto.keyGenerate());
        // without actualDataSources, every data source of the database (ds_0, ds_1, ds_2, primary, replica), in turn
        ShardingRuleConfig all = config(rule(MOD4.replace("sharding-count: 4", "sharding-count: 7"),
                "autoTables: { a: { " + AUTO_STRATEGY + " } }"));
        assertEquals(List.of("ds_0.a_0", "ds_1.a_1", "ds_2.a_2", "primary.a_3", "replica.a_4", "ds_0.a_5",
                "ds_1.a_6"), all.tables().get(0).nodes().stream().map(DataNode::toString).toList());
        // BOUNDARY_RANGE '10, 20' makes three shards: below 10, [10, 20), from 20 on
        ShardingRuleConfig ranges = config(rule("shardingAlgorithms: { mod4: { type: BOUNDARY_RANGE, props: "
                + "{ sharding-ranges: '10, 20' } } }", "autoTables: { r: { actualDataSources: 'ds_1', "
                + AUTO_STRATEGY + " } }"));
        assertEquals(List.of(new DataNode("ds_1", "r_0"), new DataNode("ds_1", "r_1"), new DataNode("ds_1", "r_2")),
                ranges.tables().get(0).nodes());
    }

    @Test
    void theExampleReadsAsWritten() {
        ShardingRuleConfig config = config(EXAMPLE);

        TableRuleConfig order = config.tables().get(0);
        assertEquals("t_order", order.logicalName());
        assertEquals(List.of(new DataNode("ds_0", "t_order_0"), new DataNode("ds_0", "t_order_1"),
                new DataNode("ds_1", "t_order_0"), new DataNode("ds_1", "t_order_1")), order.nodes());
        assertEquals(new StrategyConfig.Standard("user_id", "database_mod"), order.databaseStrategy());
        assertEquals(new StrategyConfig.Standard("order_id", "t_order_inline"), order.tableStrategy());
        assertEquals(Optional.of(new KeyGenerateConfig("order_id", "snowflake")), order.keyGenerate());
        assertEquals(Optional.empty(), config.tables().get(1).keyGenerate());
        assertEquals(List.of(List.of("t_order", "t_order_item")), config.bindingGroups());
        assertEquals(List.of("database_mod", "t_order_inline", "t_order_item_inline"),
                List.copyOf(config.algorithms().keySet()));
        assertEquals("MOD", config.algorithms().get("database_mod").type());
        assertEquals("2", config.algorithms().get("database_mod").props().get("sharding-count"));
        assertEquals(new KeyGeneratorConfig.Snowflake("snowflake", 1, 1, 10), config.keyGenerators().get("snowflake"));
        assertEquals("ds_0", config.defaultDataSource());
    }

    @Test
    void tablesWithoutTheirOwnStrategiesTakeTheDefaultsAndTheDefaultShardingColumn() {
        ShardingRuleConfig config = config(rule(
                "tables: { t: { actualDataNodes: 'ds_${0..1}.t' } }",
                "defaultShardingColumn: user_id",
                "defaultDatabaseStrategy: { standard: { shardingAlgorithmName: mod } }",
                "defaultKeyGenerateStrategy: { column: id, keyGeneratorName: uuid }",
                "shardingAlgorithms: { mod: { type: mod, props: { sharding-count: '2' } } }",
                "keyGenerators: { uuid: { type: UUID } }"));

        TableRuleConfig table = config.tables().get(0);
        assertEquals(new StrategyConfig.Standard("user_id", "mod"), table.databaseStrategy());
        assertEquals(StrategyConfig.NONE, table.tableStrategy());
        assertEquals(Optional.of(new KeyGenerateConfig("id", "uuid")), table.keyGenerate());
        assertEquals("MOD", config.algorithms().get("mod").type(), "types are read in any case");
    }

    @Test
    void withoutActualDataNodesATableIsItsNameOnEveryDataSourceAReadWriteGroupCountingOnce() {
        ShardingRuleConfig config = config("""
                rules:
                  - type: READWRITE_SPLITTING
                    groups: [ { name: rw, writeDataSource: primary, readDataSources: [ replica ] } ]
                  - type: SHARDING
                    tables: { t_user: {} }
                """);

        assertEquals(List.of(new DataNode("ds_0", "t_user"), new DataNode("ds_1", "t_user"),
                new DataNode("ds_2", "t_user"), new DataNode("rw", "t_user")), config.tables().get(0).nodes());
        assertEquals("ds_0", config.defaultDataSource(), "without defaultDataSource: the first data source");
    }

    @Test
    void nodesAndTheDefaultDataSourceMayNameAReadWriteGroup() {
        ShardingRuleConfig config = config("""
                rules:
                  - type: READWRITE_SPLITTING
                    groups: [ { name: rw, writeDataSource: primary, readDataSources: [ replica ] } ]
                  - type: SHARDING
                    tables: { t: { actualDataNodes: "ds_0.t_0, rw.t_1" } }
                    defaultDataSource: rw
                """);

        assertEquals(List.of(new DataNode("ds_0", "t_0"), new DataNode("rw", "t_1")), config.tables().get(0).nodes());
        assertEquals("rw", config.defaultDataSource());
    }

    @Test
    void everyAlgorithmTypeReadsWithShardingSpherePropsWrittenBareOrQuoted() {
        ShardingRuleConfig config = config(rule(
                "tables: { t: { actualDataNodes: 'ds_0.t_0' } }",
                "shardingAlgorithms:",
                "  a: { type: MOD, props: { sharding-count: 4, start-offset: '1', stop-offset: 0, "
                        + "zero-padding: true } }",
                "  b: { type: HASH_MOD, props: { sharding-count: '4' } }",
                "  c: { type: INLINE, props: { algorithm-expression: 't_$->{k % 4}', "
                        + "allow-range-query-with-inline-sharding: 'true' } }",
                "  d: { type: BOUNDARY_RANGE, props: { sharding-ranges: '10, 20, 30' } }",
                "  e: { type: VOLUME_RANGE, props: { range-lower: 10, range-upper: 45, sharding-volume: 10 } }",
                "  f: { type: INTERVAL, props: { datetime-pattern: 'yyyy-MM-dd HH:mm:ss', datetime-lower: "
                        + "'2024-01-01 00:00:00', datetime-upper: '2024-12-31 23:59:59', sharding-suffix-pattern: "
                        + "yyyyMM, datetime-interval-amount: 1, datetime-interval-unit: months } }",
                "  g: { type: AUTO_INTERVAL, props: { datetime-lower: '2024-01-01 00:00:00', datetime-upper: "
                        + "'2024-01-02 00:00:00', sharding-seconds: 3600 } }",
                "  h: { type: COMPLEX_INLINE, props: { sharding-columns: 'a,b', algorithm-expression: 't_${a + b}' } }",
                "  i: { type: HINT_INLINE }",
                "  j: { type: CLASS_BASED, props: { strategy: standard, algorithmClassName: "
                        + FirstTargetAlgorithm.class.getName() + ", anything: 1 } }"));

        assertInstanceOf(ModShardingAlgorithm.class, config.algorithms().get("a").algorithm());
        assertInstanceOf(HashModShardingAlgorithm.class, config.algorithms().get("b").algorithm());
        assertInstanceOf(InlineShardingAlgorithm.class, config.algorithms().get("c").algorithm());
        assertEquals(List.of(10L, 20L, 30L), ((RangeShardingAlgorithm) config.algorithms().get("d").algorithm())
                .boundaries());
        assertEquals(List.of(10L, 20L, 30L, 40L, 45L), ((RangeShardingAlgorithm) config.algorithms().get("e")
                .algorithm()).boundaries());
        assertEquals(12, ((IntervalShardingAlgorithm) config.algorithms().get("f").algorithm()).starts().size());
        assertEquals(26, ((AutoIntervalShardingAlgorithm) config.algorithms().get("g").algorithm()).shards());
        assertInstanceOf(ComplexInlineShardingAlgorithm.class, config.algorithms().get("h").algorithm());
        assertInstanceOf(HintInlineShardingAlgorithm.class, config.algorithms().get("i").algorithm());
        FirstTargetAlgorithm user = (FirstTargetAlgorithm) config.algorithms().get("j").algorithm();
        assertEquals(Map.of("anything", "1"), user.props, "init gets the props but strategy and class");
    }

    @Test
    void anUnquotedTimestampThatYamlReadsAsADateStillCounts() {
        ShardingRuleConfig config = config(withAlgorithm("INTERVAL", "{ datetime-pattern: 'yyyy-MM-dd HH:mm:ss', "
                + "datetime-lower: 2024-01-01 00:00:00, datetime-upper: 2024-01-03 00:00:00, "
                + "sharding-suffix-pattern: yyyyMMdd }"));

        IntervalShardingAlgorithm interval = (IntervalShardingAlgorithm) config.algorithms().get("algo").algorithm();
        assertEquals(List.of("20240101", "20240102", "20240103"), interval.suffixes());
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                // the rule
                mistake("an unknown key", rule(TABLE, ALGORITHM, "shardingAlgorithm: {}"),
                        "rules[0].shardingAlgorithm", "a known key"),
                mistake("broadcastTables, a rule of its own since 5.4", rule(TABLE, ALGORITHM, "broadcastTables: [a]"),
                        "rules[0].broadcastTables", "type: BROADCAST"),
                mistake("no tables", rule(ALGORITHM), "rules[0].tables", "at least one sharded table (under tables "
                        + "or autoTables)"),
                // autoTables
                mistake("an auto table by INLINE", rule(ALGORITHM, "autoTables: { a: { shardingStrategy: { standard: "
                        + "{ shardingColumn: k, shardingAlgorithmName: algo } } } }"),
                        "rules[0].autoTables.a.shardingStrategy", "MOD, HASH_MOD, BOUNDARY_RANGE, VOLUME_RANGE or "
                                + "AUTO_INTERVAL"),
                mistake("an auto table without strategy", rule(ALGORITHM, "autoTables: { a: {} }"),
                        "rules[0].autoTables.a.shardingStrategy", "a standard strategy"),
                mistake("an auto table on an unknown data source", rule(TABLE, MOD4,
                        "autoTables: { a: { actualDataSources: 'ds_${0..9}', " + AUTO_STRATEGY + " } }"),
                        "rules[0].autoTables.a.actualDataSources", "ds_3 is none"),
                mistake("an auto table and a table of one name", rule(TABLE, MOD4,
                        "autoTables: { T: { " + AUTO_STRATEGY + " } }"), "rules[0].autoTables.T", "ignoring case"),
                mistake("an auto table's actualDataNodes", rule(MOD4,
                        "autoTables: { a: { actualDataNodes: 'ds_0.a', " + AUTO_STRATEGY + " } }"),
                        "rules[0].autoTables.a.actualDataNodes", "a known key"),
                mistake("empty tables", rule("tables: {}"), "rules[0].tables", "at least one sharded table"),
                mistake("a table name with a schema", rule("tables: { shop.t: {} }"), "rules[0].tables.shop.t",
                        "without schema"),
                mistake("two tables differing in case", rule("tables: { t: {}, T: {} }"), "rules[0].tables.T",
                        "ignoring case"),
                mistake("an unknown table key", rule("tables: { t: { nodes: x } }"), "rules[0].tables.t.nodes",
                        "a known key"),
                mistake("an auditor of another type", rule(TABLE, ALGORITHM, "auditors: { a: { type: OTHER } }"),
                        "rules[0].auditors.a.type", "DML_SHARDING_CONDITIONS"),
                mistake("an audit strategy naming no auditor of the rule", rule(TABLE.replace("} } } }",
                        "} }, auditStrategy: { auditorNames: [b] } } }"), ALGORITHM,
                        "auditors: { a: { type: DML_SHARDING_CONDITIONS } }"),
                        "rules[0].tables.t.auditStrategy.auditorNames", "(b is none)"),
                mistake("an audit strategy without auditors", rule(TABLE, ALGORITHM,
                        "defaultAuditStrategy: { allowHintDisable: false }"),
                        "rules[0].defaultAuditStrategy.auditorNames", "a list of auditors"),
                mistake("a defaultDataSource that does not exist", rule(TABLE, ALGORITHM, "defaultDataSource: ds_9"),
                        "rules[0].defaultDataSource", "ds_9 is none"),
                mistake("a defaultDataSource that is a group member",
                        withGroup(TABLE, ALGORITHM, "defaultDataSource: primary"),
                        "rules[1].defaultDataSource", "the read/write group's name rw (primary is one of its members)"),
                // data nodes
                mistake("data nodes as a list", rule("tables: { t: { actualDataNodes: [ds_0.t] } }"),
                        "rules[0].tables.t.actualDataNodes", "data nodes like"),
                mistake("an unclosed ${", rule("tables: { t: { actualDataNodes: 'ds_${0..1.t' } }"),
                        "rules[0].tables.t.actualDataNodes", "not closed"),
                mistake("a Groovy closure", rule("tables: { t: { actualDataNodes: 'ds_${(0..1).collect{it}}.t' } }"),
                        "rules[0].tables.t.actualDataNodes", "closure"),
                mistake("a node depending on a column", rule("tables: { t: { actualDataNodes: 'ds_${id}.t' } }"),
                        "rules[0].tables.t.actualDataNodes", "cannot depend on a column"),
                mistake("a node without table", rule("tables: { t: { actualDataNodes: 'ds_0' } }"),
                        "rules[0].tables.t.actualDataNodes", "'ds_0' is not"),
                mistake("a node on an unknown data source", rule("tables: { t: { actualDataNodes: 'ds_${0..9}.t' } }"),
                        "rules[0].tables.t.actualDataNodes", "ds_3 is none"),
                mistake("a node on a group member",
                        withGroup("tables: { t: { actualDataNodes: 'replica.t' } }", ALGORITHM),
                        "rules[1].tables.t.actualDataNodes", "group's name rw (replica is one of its members)"),
                mistake("a node twice", rule("tables: { t: { actualDataNodes: 'ds_0.t, ds_${[0]}.t' } }"),
                        "rules[0].tables.t.actualDataNodes", "ds_0.t is twice"),
                mistake("a node of another table", rule("tables: { a: { actualDataNodes: ds_0.t }, "
                        + "b: { actualDataNodes: ds_0.t } }"), "rules[0].tables.b.actualDataNodes",
                        "ds_0.t is a node of a"),
                mistake("a range of a million nodes", rule("tables: { t: { actualDataNodes: 'ds_0.t_${0..999999}' } }"),
                        "rules[0].tables.t.actualDataNodes", "more than 100000 values"),
                // strategies
                mistake("two strategy kinds", rule("tables: { t: { tableStrategy: { none: {}, hint: {} } } }"),
                        "rules[0].tables.t.tableStrategy", "exactly one"),
                mistake("an unknown strategy kind", rule("tables: { t: { tableStrategy: { range: {} } } }"),
                        "rules[0].tables.t.tableStrategy.range", "a known key (one of standard, complex, hint, none)"),
                mistake("none with settings", rule("tables: { t: { tableStrategy: { none: { a: 1 } } } }"),
                        "rules[0].tables.t.tableStrategy.none", "none takes no settings"),
                mistake("a standard strategy without column", rule("tables: { t: { tableStrategy: { standard: "
                        + "{ shardingAlgorithmName: algo } } } }", ALGORITHM),
                        "rules[0].tables.t.tableStrategy.standard.shardingColumn", "or a defaultShardingColumn"),
                mistake("an unknown algorithm", rule(TABLE), "rules[0].tables.t.tableStrategy.standard."
                        + "shardingAlgorithmName", "one of shardingAlgorithms []"),
                mistake("a hint algorithm in a standard strategy", withAlgorithm("HINT_INLINE", "{}"),
                        "rules[0].tables.t.tableStrategy.standard.shardingAlgorithmName",
                        "a standard algorithm (MOD, HASH_MOD"),
                mistake("an INLINE expression reading another column", withAlgorithm("INLINE",
                        "{ algorithm-expression: 't_${id % 2}' }"),
                        "rules[0].tables.t.tableStrategy.standard.shardingAlgorithmName", "reads only k"),
                mistake("a complex strategy without columns", rule("tables: { t: { tableStrategy: { complex: "
                        + "{ shardingAlgorithmName: c } } } }"),
                        "rules[0].tables.t.tableStrategy.complex.shardingColumns", "a non-empty string"),
                mistake("a COMPLEX_INLINE reading a column the strategy lacks", rule("tables: { t: { tableStrategy: "
                        + "{ complex: { shardingColumns: 'a,b', shardingAlgorithmName: c } } } }",
                        "shardingAlgorithms: { c: { type: COMPLEX_INLINE, props: { algorithm-expression: "
                                + "'t_${a + z}' } } }"),
                        "rules[0].tables.t.tableStrategy.complex.shardingAlgorithmName", "reads only [a, b]"),
                mistake("COMPLEX_INLINE sharding-columns unlike the strategy's", rule("tables: { t: { tableStrategy: "
                        + "{ complex: { shardingColumns: 'a,b', shardingAlgorithmName: c } } } }",
                        "shardingAlgorithms: { c: { type: COMPLEX_INLINE, props: { sharding-columns: a, "
                                + "algorithm-expression: 't_${a}' } } }"),
                        "rules[0].tables.t.tableStrategy.complex.shardingAlgorithmName", "sharding-columns are [a, b]"),
                // algorithms
                mistake("an unknown algorithm type", withAlgorithm("RANGE", "{}"),
                        "rules[0].shardingAlgorithms.algo.type", "one of MOD, HASH_MOD, INLINE"),
                mistake("an unknown prop", withAlgorithm("MOD", "{ sharding-count: 2, shard-count: 2 }"),
                        "rules[0].shardingAlgorithms.algo.props.shard-count", "a known key"),
                mistake("MOD without sharding-count", withAlgorithm("MOD", "{}"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-count", "but it is missing"),
                mistake("MOD with sharding-count 0", withAlgorithm("MOD", "{ sharding-count: 0 }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-count", "a whole number of at least 1"),
                mistake("HASH_MOD with a word for a count", withAlgorithm("HASH_MOD", "{ sharding-count: four }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-count", "got 'four'"),
                mistake("INLINE without expression", withAlgorithm("INLINE", "{}"),
                        "rules[0].shardingAlgorithms.algo.props.algorithm-expression", "but it is missing"),
                mistake("INLINE with a ternary",
                        withAlgorithm("INLINE", "{ algorithm-expression: 't_${k > 9 ? 1 : 0}' }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithm-expression", "'>' is not supported here at "
                                + "character 7"),
                mistake("INLINE with an unknown method", withAlgorithm("INLINE",
                        "{ algorithm-expression: 't_${k.md5()}' }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithm-expression", "md5() is not supported"),
                mistake("INLINE allowing ranges with 'yes'", withAlgorithm("INLINE", "{ algorithm-expression: "
                        + "'t_${k % 2}', allow-range-query-with-inline-sharding: 'yes' }"),
                        "rules[0].shardingAlgorithms.algo.props.allow-range-query-with-inline-sharding",
                        "true or false"),
                mistake("BOUNDARY_RANGE with a word", withAlgorithm("BOUNDARY_RANGE", "{ sharding-ranges: '1,ten' }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-ranges", "'ten' is none"),
                mistake("BOUNDARY_RANGE with a boundary twice", withAlgorithm("BOUNDARY_RANGE",
                        "{ sharding-ranges: '1,5,1' }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-ranges", "1 is twice"),
                mistake("VOLUME_RANGE narrower than a volume", withAlgorithm("VOLUME_RANGE",
                        "{ range-lower: 0, range-upper: 5, sharding-volume: 10 }"),
                        "rules[0].shardingAlgorithms.algo.props.range-upper", "at least range-lower + sharding-volume"),
                mistake("INTERVAL with a broken pattern", withAlgorithm("INTERVAL", "{ datetime-pattern: 'yyyy-MM-dd "
                        + "{', datetime-lower: '2024-01-01', sharding-suffix-pattern: yyyyMM }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-pattern", "a java.time DateTimeFormatter"),
                mistake("INTERVAL with a lower bound in another pattern", withAlgorithm("INTERVAL",
                        "{ datetime-pattern: 'yyyy-MM-dd HH:mm:ss', datetime-lower: '2024/01/01', "
                                + "sharding-suffix-pattern: yyyyMM }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-lower", "a time in datetime-pattern"),
                mistake("INTERVAL without suffix pattern", withAlgorithm("INTERVAL", "{ datetime-pattern: yyyy-MM-dd, "
                        + "datetime-lower: '2024-01-01' }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-suffix-pattern", "but it is missing"),
                mistake("INTERVAL with an unknown unit", withAlgorithm("INTERVAL", "{ datetime-pattern: yyyy-MM-dd, "
                        + "datetime-lower: '2024-01-01', sharding-suffix-pattern: yyyyMM, datetime-interval-unit: "
                        + "fortnights }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-interval-unit", "one of [Nanos"),
                mistake("INTERVAL ending before it starts", withAlgorithm("INTERVAL", "{ datetime-pattern: yyyy-MM-dd, "
                        + "datetime-lower: '2024-01-01', datetime-upper: '2023-01-01', sharding-suffix-pattern: "
                        + "yyyyMM }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-upper", "not before datetime-lower"),
                mistake("INTERVAL in seconds over a year", withAlgorithm("INTERVAL", "{ datetime-pattern: yyyy-MM-dd, "
                        + "datetime-lower: '2024-01-01', datetime-upper: '2025-01-01', sharding-suffix-pattern: "
                        + "yyyyMMddHHmmss, datetime-interval-unit: SECONDS }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-interval-unit", "at most 100000 tables"),
                mistake("AUTO_INTERVAL with a date only", withAlgorithm("AUTO_INTERVAL", "{ datetime-lower: "
                        + "'2024-01-01', datetime-upper: '2025-01-01 00:00:00', sharding-seconds: 86400 }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-lower", "yyyy-MM-dd HH:mm:ss"),
                mistake("AUTO_INTERVAL ending at its start", withAlgorithm("AUTO_INTERVAL", "{ datetime-lower: "
                        + "'2024-01-01 00:00:00', datetime-upper: '2024-01-01 00:00:00', sharding-seconds: 1 }"),
                        "rules[0].shardingAlgorithms.algo.props.datetime-upper", "after datetime-lower"),
                mistake("AUTO_INTERVAL with no seconds", withAlgorithm("AUTO_INTERVAL", "{ datetime-lower: "
                        + "'2024-01-01 00:00:00', datetime-upper: '2025-01-01 00:00:00', sharding-seconds: 0 }"),
                        "rules[0].shardingAlgorithms.algo.props.sharding-seconds", "at least 1"),
                mistake("HINT_INLINE reading a column", rule(TABLE, ALGORITHM, "defaultDatabaseStrategy: { hint: "
                        + "{ shardingAlgorithmName: h } }").replace("algo: {", "h: { type: HINT_INLINE, props: "
                        + "{ algorithm-expression: 'ds_${k}' } }, algo: {"),
                        "rules[0].shardingAlgorithms.h.props.algorithm-expression", "reads the hint as value"),
                mistake("CLASS_BASED without strategy", withAlgorithm("CLASS_BASED", "{ algorithmClassName: x.Y }"),
                        "rules[0].shardingAlgorithms.algo.props.strategy", "STANDARD, COMPLEX or HINT"),
                mistake("CLASS_BASED with an unknown class", withAlgorithm("CLASS_BASED", "{ strategy: STANDARD, "
                        + "algorithmClassName: com.example.Missing }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithmClassName", "a class on the class path"),
                mistake("CLASS_BASED of the wrong interface", withAlgorithm("CLASS_BASED", "{ strategy: HINT, "
                        + "algorithmClassName: " + FirstTargetAlgorithm.class.getName() + " }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithmClassName", "implementing io.strata.rule."
                                + "sharding.HintShardingAlgorithm"),
                mistake("CLASS_BASED whose init refuses the props", withAlgorithm("CLASS_BASED", "{ strategy: STANDARD,"
                        + " algorithmClassName: " + FirstTargetAlgorithm.class.getName() + ", refuse: 1 }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithmClassName", "it says: no refuse wanted"),
                mistake("CLASS_BASED without a public constructor", withAlgorithm("CLASS_BASED", "{ strategy: "
                        + "STANDARD, algorithmClassName: " + HiddenAlgorithm.class.getName() + " }"),
                        "rules[0].shardingAlgorithms.algo.props.algorithmClassName", "a public constructor"),
                // key generators
                mistake("an unknown key generator type",
                        rule(TABLE, ALGORITHM, "keyGenerators: { k: { type: NANOID } }"),
                        "rules[0].keyGenerators.k.type", "one of SNOWFLAKE, UUID"),
                mistake("UUID with props", rule(TABLE, ALGORITHM, "keyGenerators: { k: { type: UUID, props: "
                        + "{ worker-id: 1 } } }"), "rules[0].keyGenerators.k.props", "no props (UUID takes none)"),
                mistake("a worker id above 1023", rule(TABLE, ALGORITHM, "keyGenerators: { k: { type: SNOWFLAKE, "
                        + "props: { worker-id: 1024 } } }"),
                        "rules[0].keyGenerators.k.props.worker-id", "between 0 and 1023"),
                mistake("a key generator that does not exist", rule("tables: { t: { keyGenerateStrategy: "
                        + "{ column: id, keyGeneratorName: snowflake } } }"),
                        "rules[0].tables.t.keyGenerateStrategy.keyGeneratorName", "one of keyGenerators []"),
                mistake("a key generate strategy without column", rule("tables: { t: { keyGenerateStrategy: "
                        + "{ keyGeneratorName: k } } }", "keyGenerators: { k: { type: UUID } }"),
                        "rules[0].tables.t.keyGenerateStrategy.column", "but it is missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesFileKeyAndExpectation(String mistake, String yaml, String key, String expected) {
        ConfigException e = error(yaml);

        assertEquals(FILE, e.file());
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith(FILE + ": " + key + ": expected "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void anExpressionErrorSaysWhereAndWhatIsSupported() {
        ConfigException e = error(withAlgorithm("INLINE", "{ algorithm-expression: 't_${k ? 1 : 0}' }"));

        assertEquals("config-sharding.yaml: rules[0].shardingAlgorithms.algo.props.algorithm-expression: expected an "
                + "inline expression Strata evaluates: '?' is not supported here at character 7 (supported: whole "
                + "and decimal numbers, 'strings', columns, + - * / %, parentheses, Math.abs, Math.floorMod, abs, "
                + "hashCode, intValue, intdiv, length, longValue, padLeft, substring, toInteger, toLong, toString), "
                + "got 't_${k ? 1 : 0}'", e.getMessage());
    }

    /** A read/write group rw of primary and replica as rules[0], then the SHARDING rule. */
    private static String withGroup(String... lines) {
        return "rules:\n  - type: READWRITE_SPLITTING\n    groups: [ { name: rw, writeDataSource: primary, "
                + "readDataSources: [ replica ] } ]\n" + rule(lines).substring("rules:\n".length());
    }

    private static Arguments mistake(String name, String yaml, String key, String expected) {
        return Arguments.of(name, yaml, key, expected);
    }

    /** A CLASS_BASED algorithm for these tests: the first target always; refuses a "refuse" prop. */
    public static final class FirstTargetAlgorithm implements StandardShardingAlgorithm {

        Map<String, String> props;

        @Override
        public void init(Map<String, String> props) {
            if (props.containsKey("refuse")) {
                throw new IllegalArgumentException("no refuse wanted");
            }
            this.props = props;
        }

        @Override
        public String target(List<String> targets, ShardingValue value) {
            return targets.get(0);
        }

        @Override
        public Collection<String> targets(List<String> targets, RangeShardingValue value) {
            return targets.subList(0, 1);
        }
    }

    /** Cannot be made: no public constructor. */
    public static final class HiddenAlgorithm implements StandardShardingAlgorithm {

        private HiddenAlgorithm() {
        }

        @Override
        public String target(List<String> targets, ShardingValue value) {
            return targets.get(0);
        }

        @Override
        public Collection<String> targets(List<String> targets, RangeShardingValue value) {
            return targets;
        }
    }
}
