package io.strata.rule.query;

import io.strata.config.ClientAddress;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.DataSourceNames;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.HealthRegistry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a QUERY_ROUTING rule. Every mistake stops the start naming file, key and expectation: a rule without a name,
 * a matcher or an action, a bad regex, an unknown data source.
 */
public final class QueryRoutingRuleFactory implements RuleFactory {

    public static final String TYPE = "QUERY_ROUTING";
    private static final List<String> MATCHERS = List.of("user", "schema", "clientAddress", "digest",
            "digestPattern", "pattern");
    private static final List<String> ACTIONS = List.of("dataSource", "error", "timeout", "rewrite", "mirror");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        YamlMap section = YamlMap.of(file, path, config.props());
        section.allowOnly(List.of("rules"));
        DataSourceNames names = DataSourceNames.of(database);
        Set<String> seen = new HashSet<>();
        List<QueryRule> rules = new ArrayList<>();
        for (YamlMap entry : section.maps("rules", "query rules like { name: ..., user: ..., dataSource: ... }",
                true)) {
            QueryRule rule = rule(entry, database, names);
            if (!seen.add(rule.name())) {
                throw entry.error("name", "a name no other query rule of the file has", rule.name());
            }
            rules.add(rule);
        }
        return new QueryRoutingRule(rules);
    }

    private static QueryRule rule(YamlMap entry, DatabaseConfig database, DataSourceNames names) {
        List<String> keys = new ArrayList<>(List.of("name", "negate", "continue"));
        keys.addAll(MATCHERS);
        keys.addAll(ACTIONS);
        entry.allowOnly(keys);
        String name = entry.string("name");
        if (MATCHERS.stream().noneMatch(key -> entry.value(key) != null)) {
            throw entry.error("name", "query rule '" + name + "' to have a matcher (one of " + MATCHERS + ")",
                    "none");
        }
        if (ACTIONS.stream().noneMatch(key -> entry.value(key) != null)) {
            throw entry.error("name", "query rule '" + name + "' to have an action (one of " + ACTIONS + ")",
                    "none");
        }
        String address = entry.string("clientAddress", null);
        ClientAddress clientAddress = null;
        if (address != null) {
            try {
                clientAddress = ClientAddress.parse(address);
            } catch (IllegalArgumentException e) {
                throw entry.error("clientAddress", e.getMessage(), address);
            }
        }
        String dataSource = entry.string("dataSource", null);
        if (dataSource != null && !names.groupOf().containsKey(dataSource)) {
            throw entry.error("dataSource", "a data source or read/write group of the file (one of "
                    + new TreeSet<>(names.groupOf().keySet()) + ")", dataSource);
        }
        String mirror = entry.string("mirror", null);
        if (mirror != null && !database.dataSources().containsKey(mirror)) {
            throw entry.error("mirror", "a data source of the file (one of "
                    + new TreeSet<>(database.dataSources().keySet()) + ")", mirror);
        }
        return new QueryRule(name, entry.string("user", null), entry.string("schema", null), clientAddress,
                entry.string("digest", null), matcher(entry, "digestPattern"), matcher(entry, "pattern"),
                entry.bool("negate", false), dataSource, error(entry, name),
                entry.longInteger("timeout", 0, 1, Long.MAX_VALUE), rewrite(entry), mirror,
                entry.bool("continue", false));
    }

    private static QueryRule.Regex matcher(YamlMap entry, String key) {
        Pattern regex = regex(entry, key);
        return regex == null ? null : QueryRule.Regex.of(regex);
    }

    private static Pattern regex(YamlMap entry, String key) {
        String regex = entry.string(key, null);
        if (regex == null) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw entry.error(key, "a Java regular expression (" + e.getDescription() + " at index " + e.getIndex()
                    + ")", regex, e);
        }
    }

    private static QueryRule.Error error(YamlMap entry, String name) {
        if (entry.value("error") == null) {
            return null;
        }
        YamlMap error = entry.map("error", "a mapping like { code: 1317, sqlState: HY000, message: \"...\" }");
        error.allowOnly(List.of("code", "sqlState", "message"));
        int code = error.integer("code", 1317, 1000, 65535);
        if (code >= 2000 && code < 3000) { // the client library's own (CR_*): clients misread them from a server
            throw error.error("code", "a server error code, 1000-1999 or 3000-65535 (2000-2999 are the client "
                    + "library's own, which the mariadb client prints as a malformed packet)", code);
        }
        String sqlState = error.string("sqlState", "HY000");
        if (sqlState.length() != 5) {
            throw error.error("sqlState", "five characters, like HY000 or 42000", sqlState);
        }
        return new QueryRule.Error(code, sqlState, error.string("message",
                "Statement refused by the query rule '" + name + "'"));
    }

    private static QueryRule.Rewrite rewrite(YamlMap entry) {
        if (entry.value("rewrite") == null) {
            return null;
        }
        YamlMap rewrite = entry.map("rewrite", "a mapping like { pattern: \"(?i)^select \\\\*\", replacement: "
                + "\"SELECT id\" }");
        rewrite.allowOnly(List.of("pattern", "replacement"));
        Pattern pattern = regex(rewrite, "pattern");
        if (pattern == null) {
            throw rewrite.error("pattern", "a Java regular expression", null);
        }
        Object replacement = rewrite.value("replacement");
        if (!(replacement instanceof String text)) {
            throw rewrite.error("replacement", "a string (may be empty; $1 stands for the pattern's first group)",
                    replacement);
        }
        checkGroups(pattern, text, rewrite); // a $n the pattern lacks fails at start, not per statement
        return new QueryRule.Rewrite(pattern, text);
    }

    /** Every {@code $n} of the replacement names a group the pattern has. */
    private static void checkGroups(Pattern pattern, String replacement, YamlMap rewrite) {
        int groups = pattern.matcher("").groupCount();
        for (int i = 0; i < replacement.length(); i++) {
            char c = replacement.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '$' && i + 1 < replacement.length() && Character.isDigit(replacement.charAt(i + 1))
                    && replacement.charAt(i + 1) - '0' > groups) {
                throw rewrite.error("replacement", "group references up to $" + groups + " (the pattern's groups)",
                        replacement);
            }
        }
    }
}
