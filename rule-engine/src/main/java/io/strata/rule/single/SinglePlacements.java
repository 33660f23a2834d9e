package io.strata.rule.single;

import io.strata.rule.sql.NameSet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each single table lives: found on the data sources at start, and added to when Strata creates one. Shared by
 * the rule and the copy its chain runs; read by every statement, written rarely (a name set made anew then).
 */
final class SinglePlacements {

    /** Each table's data source, by its lower-case name. */
    private final Map<String, String> dataSourceOf = new ConcurrentHashMap<>();
    /** Tables found on several data sources: their data sources, in the order found. */
    private final Map<String, Set<String>> conflicts = new LinkedHashMap<>();
    private volatile NameSet names = new NameSet(List.of());
    /** Tables other rules claim (sharded, their actual tables, broadcast), lower case: no single tables. */
    private volatile Set<String> claimed = Set.of();

    /** The data source of {@code table} (any case), or null for a table it does not place. */
    String dataSourceOf(String table) {
        return dataSourceOf.get(table.toLowerCase(Locale.ROOT));
    }

    NameSet names() {
        return names;
    }

    /** Places {@code table} on {@code dataSource}; one already placed on another is a conflict. */
    synchronized void place(String table, String dataSource) {
        String key = table.toLowerCase(Locale.ROOT);
        String before = dataSourceOf.putIfAbsent(key, dataSource);
        if (before != null && !before.equals(dataSource)) {
            conflicts.computeIfAbsent(table, t -> new LinkedHashSet<>(List.of(before))).add(dataSource);
        }
        if (before == null) {
            names = new NameSet(new ArrayList<>(dataSourceOf.keySet()));
        }
    }

    /** {@code table} (any case) is renamed {@code to}, on its data source; a table no longer there is forgotten. */
    synchronized void move(String table, String to) {
        String dataSource = dataSourceOf.remove(table.toLowerCase(Locale.ROOT));
        if (dataSource != null && to != null) {
            dataSourceOf.put(to.toLowerCase(Locale.ROOT), dataSource);
        }
        names = new NameSet(new ArrayList<>(dataSourceOf.keySet()));
    }

    /** The tables found on several data sources, with those data sources. */
    synchronized Map<String, Set<String>> conflicts() {
        return Map.copyOf(conflicts);
    }

    /** Tables other rules claim ({@code claimedNow}, lower case) are known as such from now on. */
    synchronized void claimed(Set<String> claimedNow) {
        if (!claimed.containsAll(claimedNow)) {
            Set<String> all = new java.util.HashSet<>(claimed);
            all.addAll(claimedNow);
            claimed = Set.copyOf(all);
        }
    }

    /** Whether another rule claims {@code table} (any case). */
    boolean isClaimed(String table) {
        return claimed.contains(table.toLowerCase(Locale.ROOT));
    }

    /** Every table placed, by its lower-case name. */
    Map<String, String> all() {
        return Map.copyOf(dataSourceOf);
    }
}
