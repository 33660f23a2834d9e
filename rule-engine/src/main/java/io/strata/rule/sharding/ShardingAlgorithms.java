package io.strata.rule.sharding;

import io.strata.config.YamlMap;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads {@code shardingAlgorithms}: each entry's {@code type} (any case) picks the reader of its props. */
final class ShardingAlgorithms {

    static final List<String> TYPES = List.of(ModShardingAlgorithm.TYPE, HashModShardingAlgorithm.TYPE,
            InlineShardingAlgorithm.TYPE, RangeShardingAlgorithm.BOUNDARY_RANGE, RangeShardingAlgorithm.VOLUME_RANGE,
            IntervalShardingAlgorithm.TYPE, AutoIntervalShardingAlgorithm.TYPE, ComplexInlineShardingAlgorithm.TYPE,
            HintInlineShardingAlgorithm.TYPE, ClassBasedAlgorithms.TYPE);

    private ShardingAlgorithms() {
    }

    static Map<String, AlgorithmConfig> read(YamlMap section) {
        Map<String, AlgorithmConfig> algorithms = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap entry = section.map(name, "{ type: MOD | HASH_MOD | INLINE | ..., props: { ... } }");
            entry.allowOnly(List.of("type", "props"));
            String type = entry.string("type").toUpperCase(Locale.ROOT);
            if (!TYPES.contains(type)) {
                throw entry.error("type", "one of " + String.join(", ", TYPES), entry.value("type"));
            }
            YamlMap propsMap = entry.optionalMap("props", "a mapping of the algorithm's props");
            AlgorithmProps props = new AlgorithmProps(propsMap);
            ShardingAlgorithm algorithm = algorithm(name, type, props);
            algorithms.put(name, new AlgorithmConfig(name, type, props.asText(List.of()), algorithm));
        }
        return algorithms;
    }

    private static ShardingAlgorithm algorithm(String name, String type, AlgorithmProps props) {
        return switch (type) {
            case ModShardingAlgorithm.TYPE -> ModShardingAlgorithm.read(name, props);
            case HashModShardingAlgorithm.TYPE -> HashModShardingAlgorithm.read(name, props);
            case InlineShardingAlgorithm.TYPE -> InlineShardingAlgorithm.read(name, props);
            case RangeShardingAlgorithm.BOUNDARY_RANGE -> RangeShardingAlgorithm.boundary(name, props);
            case RangeShardingAlgorithm.VOLUME_RANGE -> RangeShardingAlgorithm.volume(name, props);
            case IntervalShardingAlgorithm.TYPE -> IntervalShardingAlgorithm.read(name, props);
            case AutoIntervalShardingAlgorithm.TYPE -> AutoIntervalShardingAlgorithm.read(name, props);
            case ComplexInlineShardingAlgorithm.TYPE -> ComplexInlineShardingAlgorithm.read(name, props);
            case HintInlineShardingAlgorithm.TYPE -> HintInlineShardingAlgorithm.read(name, props);
            default -> ClassBasedAlgorithms.read(props);
        };
    }
}
