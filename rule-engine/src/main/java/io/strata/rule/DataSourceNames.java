package io.strata.rule;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names a rule may give a unit (a shadow pair, a sharding data node): the database's data sources and the READWRITE_SPLITTING groups of its rules. Routes
 * name a group by its name (the read/write rule places it), so a rule must too: a member's name is refused, naming
 * its group.
 *
 * @param groupOf each usable name and member, mapped to the name routes use (a group's, or its own)
 * @param logical the names routes use, in the order of the data sources (a group where its first member is)
 * @param writeOf each name routes use, mapped to the data source its writes go to (a group's write data source)
 */
public record DataSourceNames(Map<String, String> groupOf, List<String> logical, Map<String, String> writeOf) {

    public static DataSourceNames of(DatabaseConfig database) {
        Map<String, String> writeOf = new HashMap<>();
        database.dataSources().keySet().forEach(name -> writeOf.put(name, name));
        Map<String, String> groupOf = new HashMap<>();
        database.dataSources().keySet().forEach(name -> groupOf.put(name, name));
        for (RuleConfig other : database.rules()) {
            if (other.type().equals("READWRITE_SPLITTING") && other.props().get("groups") instanceof List<?> groups) {
                for (Object group : groups) {
                    if (group instanceof Map<?, ?> map && map.get("name") instanceof String name) {
                        groupOf.put(name, name);
                        members(map).forEach(member -> groupOf.put(member, name));
                        if (map.get("writeDataSource") instanceof String write) {
                            writeOf.put(name, write);
                        }
                    }
                }
            }
        }
        Set<String> logical = new LinkedHashSet<>();
        database.dataSources().keySet().forEach(name -> logical.add(groupOf.get(name)));
        return new DataSourceNames(Map.copyOf(groupOf), List.copyOf(logical), Map.copyOf(writeOf));
    }

    private static List<String> members(Map<?, ?> group) {
        List<String> members = new ArrayList<>();
        if (group.get("writeDataSource") instanceof String write) {
            members.add(write);
        }
        if (group.get("readDataSources") instanceof List<?> reads) {
            reads.forEach(read -> members.add(String.valueOf(read)));
        }
        return members;
    }

    /** The name, or an error at {@code key} of {@code owner} when routes cannot use it. */
    public String check(YamlMap owner, String key, String name, Object written) {
        String group = groupOf.get(name);
        if (group == null) {
            throw owner.error(key, "data sources or read/write groups of the file (one of "
                    + new TreeSet<>(usable()) + "); " + name + " is none", written);
        }
        if (!group.equals(name)) {
            throw owner.error(key, "the read/write group's name " + group + " (" + name + " is one of its members)",
                    written);
        }
        return name;
    }

    private Set<String> usable() {
        Set<String> usable = new TreeSet<>();
        groupOf.forEach((name, group) -> {
            if (name.equals(group)) {
                usable.add(name);
            }
        });
        return usable;
    }
}
