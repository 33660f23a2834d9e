package io.strata.rule;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;

/**
 * Builds the rule of one YAML {@code type}. Built-in rules are registered explicitly in {@link RuleChain}; third-party
 * ones are found with {@link java.util.ServiceLoader}.
 */
public interface RuleFactory {

    /** The {@code type} value in config-*.yaml, e.g. READWRITE_SPLITTING. */
    String type();

    /** @throws io.strata.config.ConfigException when the rule's settings are wrong */
    Rule create(DatabaseConfig database, RuleConfig config, String file);
}
