package io.strata.rule.sharding;

import io.strata.config.YamlMap;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads {@code keyGenerators}: SNOWFLAKE and UUID, with ShardingSphere's props and defaults. */
final class KeyGenerators {

    static final List<String> TYPES = List.of("SNOWFLAKE", "UUID");

    private KeyGenerators() {
    }

    static Map<String, KeyGeneratorConfig> read(YamlMap section) {
        Map<String, KeyGeneratorConfig> generators = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap entry = section.map(name, "{ type: SNOWFLAKE | UUID, props: { ... } }");
            entry.allowOnly(List.of("type", "props"));
            String type = entry.string("type").toUpperCase(Locale.ROOT);
            if (!TYPES.contains(type)) {
                throw entry.error("type", "one of " + String.join(", ", TYPES), entry.value("type"));
            }
            generators.put(name, type.equals("UUID") ? uuid(name, entry) : snowflake(name, new AlgorithmProps(
                    entry.optionalMap("props", "a mapping of the key generator's props"))));
        }
        return generators;
    }

    private static KeyGeneratorConfig uuid(String name, YamlMap entry) {
        if (!entry.optionalMap("props", "no props").isEmpty()) {
            throw entry.error("props", "no props (UUID takes none)", entry.value("props"));
        }
        return new KeyGeneratorConfig.Uuid(name);
    }

    private static KeyGeneratorConfig snowflake(String name, AlgorithmProps props) {
        props.allowOnly(List.of("worker-id", "max-vibration-offset", "max-tolerate-time-difference-milliseconds"));
        return new KeyGeneratorConfig.Snowflake(name,
                (int) props.wholeNumber("worker-id", 0, 0, SnowflakeKeyGenerator.MAX_WORKER_ID),
                (int) props.wholeNumber("max-vibration-offset", 1, 0, SnowflakeKeyGenerator.SEQUENCE_MASK),
                props.wholeNumber("max-tolerate-time-difference-milliseconds", 10, 0, Long.MAX_VALUE));
    }
}
