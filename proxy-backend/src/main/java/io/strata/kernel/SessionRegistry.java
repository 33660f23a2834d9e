package io.strata.kernel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The live sessions by connection id (the id clients see in CONNECTION_ID() and use in KILL). */
public final class SessionRegistry {

    private final AtomicLong ids = new AtomicLong();
    /** High bits every id carries: a cluster member's worker id, so ids are unique cluster-wide (0 standalone). */
    private volatile long idBase;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    /** Sessions per user name, for users[].maxConnections; guarded by this registry's lock. */
    private final Map<String, Integer> perUser = new java.util.HashMap<>();

    public long nextId() {
        long base = idBase;
        if (base == 0) {
            return ids.incrementAndGet();
        }
        long id;
        do {
            id = base | (ids.incrementAndGet() & LOCAL_ID_MASK);
        } while (id == base || sessions.containsKey(id)); // after 4 M connections the low bits wrap
        return id;
    }

    /** The low bits of a cluster member's connection ids: its own counter. */
    public static final int LOCAL_ID_BITS = 22;
    private static final long LOCAL_ID_MASK = (1L << LOCAL_ID_BITS) - 1;

    /**
     * A cluster member's connection ids carry its worker id above {@link #LOCAL_ID_BITS} bits (they stay within the
     * protocol's 32 bits): unique among the members, and KILL finds the member holding an id from the id alone.
     */
    public void memberId(int workerId) {
        idBase = (long) workerId << LOCAL_ID_BITS;
    }

    /** Whether a login was let in, or which limit refused it. */
    public enum Admission { ADMITTED, TOO_MANY, TOO_MANY_OF_USER }

    public void add(Session session) {
        admit(session, 0, 0, false);
    }

    /**
     * Registers a session that logged in, unless a limit is reached: {@code maxConnections} sessions in all (an
     * administrator may take one more, as MySQL keeps one for CONNECTION_ADMIN), {@code maxOfUser} of its user
     * (0: no limit). Logins are rare next to statements: one lock keeps the counts exact when two loops log in at once.
     */
    public synchronized Admission admit(Session session, int maxConnections, int maxOfUser, boolean admin) {
        if (maxConnections > 0 && sessions.size() >= maxConnections + (admin ? 1 : 0)) {
            return Admission.TOO_MANY;
        }
        int ofUser = perUser.getOrDefault(session.user(), 0);
        if (maxOfUser > 0 && ofUser >= maxOfUser) {
            return Admission.TOO_MANY_OF_USER;
        }
        if (sessions.put(session.connectionId(), session) == null) {
            perUser.put(session.user(), ofUser + 1);
        }
        return Admission.ADMITTED;
    }

    public synchronized void remove(Session session) {
        if (sessions.remove(session.connectionId()) != null) {
            perUser.computeIfPresent(session.user(), (user, count) -> count > 1 ? count - 1 : null);
        }
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
