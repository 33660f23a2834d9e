package io.strata.backend.execute;

import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JDBC connections one client session of the JDBC executor keeps between statements, at most one per data
 * source, in the order it took them: where its transaction, its session state or the warnings SHOW WARNINGS reads
 * live. A transaction that wrote on two data sources keeps both until it ends, as the relay's does. A connection is
 * dirty when the session left state on it that a reset must clear before another session gets it.
 *
 * <p>Changed by the thread that runs the session's statement (one at a time); read on the client's loop between
 * statements, hence a map replaced whole.
 */
final class JdbcConnections {

    private volatile Map<String, Connection> kept = Map.of();
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();

    /** The connection kept on {@code dataSource}, or null. */
    Connection on(String dataSource) {
        return kept.get(dataSource);
    }

    boolean isEmpty() {
        return kept.isEmpty();
    }

    /** The data sources with a kept connection, in the order they were taken. */
    Set<String> dataSources() {
        return kept.keySet();
    }

    /** Whether a connection is kept on another data source than {@code dataSource}. */
    boolean onOtherThan(String dataSource) {
        return kept.size() > (kept.containsKey(dataSource) ? 1 : 0);
    }

    void keep(String dataSource, Connection connection) {
        if (kept.get(dataSource) == connection) {
            return;
        }
        Map<String, Connection> next = new LinkedHashMap<>(kept);
        next.put(dataSource, connection);
        kept = next;
    }

    /** The session left state on the connection of {@code dataSource}: it is reset before it goes back. */
    void dirty(String dataSource) {
        dirty.add(dataSource);
    }

    boolean isDirty(String dataSource) {
        return dirty.contains(dataSource);
    }

    /** No longer kept (it goes back, or it broke); returns whether it was dirty. */
    boolean forget(String dataSource) {
        if (kept.containsKey(dataSource)) {
            Map<String, Connection> next = new LinkedHashMap<>(kept);
            next.remove(dataSource);
            kept = next;
        }
        return dirty.remove(dataSource);
    }

    /** Every kept connection, by data source; none is kept afterwards (dirty flags stay for the caller to read). */
    Map<String, Connection> takeAll() {
        Map<String, Connection> all = kept;
        kept = Map.of();
        return all;
    }
}
