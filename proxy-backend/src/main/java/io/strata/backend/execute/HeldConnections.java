package io.strata.backend.execute;

import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backend connections a session holds, at most one per pool. Nearly always there is none or one (a statement
 * running, a transaction on one data source), and that case is two fields: every statement reads and writes this,
 * so it costs no hashing and no allocation there; a map takes over only while a session holds connections on
 * several data sources. Used on the session's event loop only.
 */
final class HeldConnections {

    private BackendPool onlyPool;
    private BackendConnection only;
    /** Non-null only while connections on two or more pools are held. */
    private Map<BackendPool, BackendConnection> several;

    BackendConnection get(BackendPool pool) {
        if (several != null) {
            return several.get(pool);
        }
        return pool == onlyPool ? only : null;
    }

    void put(BackendPool pool, BackendConnection connection) {
        if (several != null) {
            several.put(pool, connection);
        } else if (only == null || pool == onlyPool) {
            onlyPool = pool;
            only = connection;
        } else {
            several = new LinkedHashMap<>(4);
            several.put(onlyPool, only);
            several.put(pool, connection);
            onlyPool = null;
            only = null;
        }
    }

    /** Removes the pool's entry if it is {@code connection}. */
    void remove(BackendPool pool, BackendConnection connection) {
        if (several != null) {
            several.remove(pool, connection);
            if (several.size() == 1) {
                Map.Entry<BackendPool, BackendConnection> last = several.entrySet().iterator().next();
                several = null;
                onlyPool = last.getKey();
                only = last.getValue();
            }
        } else if (pool == onlyPool && only == connection) {
            onlyPool = null;
            only = null;
        }
    }

    boolean isEmpty() {
        return several == null && only == null;
    }

    int size() {
        return several != null ? several.size() : only == null ? 0 : 1;
    }

    /** The one held connection when there is exactly one, else null. */
    BackendConnection single() {
        return several == null ? only : null;
    }

    /** A copy: callers may change what is held while they go through it. */
    List<BackendConnection> connections() {
        if (several != null) {
            return new ArrayList<>(several.values());
        }
        return only == null ? List.of() : List.of(only);
    }

    void clear() {
        several = null;
        onlyPool = null;
        only = null;
    }
}
