package io.strata.config;

import java.util.Map;
import java.util.Objects;

/**
 * A routing rule as written in the file; its {@code type} decides how {@code props} are read.
 *
 * @param props every key of the rule except {@code type}, nested YAML values included, read-only
 */
public record RuleConfig(String type, Map<String, Object> props) {

    public RuleConfig {
        Objects.requireNonNull(type, "type");
        props = Immutable.deepMap(props);
    }
}
