package io.strata.rule;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.health.HealthRegistry;

/**
 * Builds the rule of one YAML {@code type}. The bootstrap hands the built-in ones to {@link RuleChain#of};
 * third-party ones are found with {@link java.util.ServiceLoader}.
 */
public interface RuleFactory {

    /** The {@code type} value in config-*.yaml, e.g. READWRITE_SPLITTING. */
    String type();

    /**
     * @param file   the config file, for error messages
     * @param path   where the rule sits in the file, e.g. "rules[0]", for error messages
     * @param health where rules that depend on data source health register what the monitor should check
     * @throws io.strata.config.ConfigException when the rule's settings are wrong
     */
    Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health);
}
