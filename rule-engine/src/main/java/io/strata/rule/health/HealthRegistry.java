package io.strata.rule.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiPredicate;

/**
 * The status of every data source, and which of them the health monitor checks (rules that depend on health
 * register them while the rule chains are built, before Strata serves).
 */
public final class HealthRegistry {

    /** What a data source is to the rule that watches it. */
    public enum Role { PRIMARY, REPLICA }

    /** One data source to check: its status, role, the rule group naming it, and how to check it. */
    public record Watch(DataSourceStatus status, Role role, String group, HealthCheck check) {
    }

    private final Map<String, Map<String, DataSourceStatus>> statuses = new LinkedHashMap<>();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();

    /** An empty registry. */
    public HealthRegistry() {
    }

    /**
     * The registry of a reloaded configuration: a data source that {@code unchanged} accepts keeps its status (in
     * rotation or not, its lag, its position history, the statements running on it), so a reload neither puts a
     * dead replica back in rotation nor takes a good one out; any other starts afresh. A data source an
     * administrator disabled stays disabled, even when its settings changed ({@code kept}: it is still configured).
     * Watches are not carried: the rules, built again, register theirs.
     */
    public HealthRegistry(HealthRegistry previous, BiPredicate<String, String> unchanged,
                          BiPredicate<String, String> kept) {
        synchronized (previous) {
            previous.statuses.forEach((database, ofDatabase) -> ofDatabase.forEach((name, status) -> {
                if (unchanged.test(database, name)) {
                    statuses.computeIfAbsent(database, d -> new LinkedHashMap<>()).put(name, status);
                } else if (status.disabled() && kept.test(database, name)) {
                    status(database, name).disabled(true);
                }
            }));
        }
    }

    /** The status of a data source, created at first use. */
    public synchronized DataSourceStatus status(String database, String dataSource) {
        return statuses.computeIfAbsent(database, d -> new LinkedHashMap<>())
                .computeIfAbsent(dataSource, name -> new DataSourceStatus(database, name));
    }

    /** Every status of one logical database, in the order they were first used. */
    public synchronized List<DataSourceStatus> statuses(String database) {
        return new ArrayList<>(statuses.getOrDefault(database, Map.of()).values());
    }

    public void watch(DataSourceStatus status, Role role, String group, HealthCheck check) {
        watches.add(new Watch(status, role, group, check));
    }

    public List<Watch> watches() {
        return List.copyOf(watches);
    }

    /** The watch of one data source, or null when no rule checks it. */
    public Watch watchOf(DataSourceStatus status) {
        return watches.stream().filter(w -> w.status() == status).findFirst().orElse(null);
    }
}
