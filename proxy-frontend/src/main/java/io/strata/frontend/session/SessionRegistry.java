package io.strata.frontend.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The live sessions by connection id (the id clients see in CONNECTION_ID() and use in KILL). */
public final class SessionRegistry {

    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();

    public long nextId() {
        return ids.incrementAndGet();
    }

    public void add(Session session) {
        sessions.put(session.connectionId(), session);
    }

    public void remove(Session session) {
        sessions.remove(session.connectionId());
    }

    public Session get(long id) {
        return sessions.get(id);
    }

    /** The sessions logged in now, in no particular order. */
    public java.util.Collection<Session> all() {
        return java.util.Collections.unmodifiableCollection(sessions.values());
    }

    /** Sessions logged in now. */
    public int size() {
        return sessions.size();
    }

    /** Client connections accepted since start (each took an id, logged in or not). */
    public long accepted() {
        return ids.get();
    }
}
