package io.strata.rule;

import io.strata.rule.sql.parser.SqlParser;

import java.util.List;
import java.util.Set;

/**
 * What a logical database's chain gives its routing rules when it is built.
 *
 * @param dataSources the data sources a unit may name, in configuration order: a decorating rule's group (a
 *                    read/write group) stands in place of its members, so a rule that sends a statement
 *                    everywhere sends it once to each copy of the data
 * @param groups      those of {@code dataSources} that are groups (a decorating rule places their units)
 * @param parser      the database's SQL parser, whose cache every rule of the chain shares
 */
public record RuleBinding(List<String> dataSources, Set<String> groups, SqlParser parser) {

    public RuleBinding {
        dataSources = List.copyOf(dataSources);
        groups = Set.copyOf(groups);
    }
}
