package io.strata.backend.deadlock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who waits for whom among Strata's sessions. Each edge is one server's lock wait between two sessions' connections
 * there. A cycle in which each session takes part through one connection is a cycle of one server's transactions,
 * which InnoDB breaks at once; one that passes through two connections of a session (two data sources) is seen by
 * no server, and this graph names its victim.
 */
public final class WaitGraph {

    /** A lock wait between two sessions (Strata's connection ids). */
    public record Edge(long waiter, long holder, LockWait lockWait) {
    }

    private final Map<Long, List<Edge>> out = new LinkedHashMap<>();

    public WaitGraph(List<Edge> edges) {
        for (Edge edge : edges) {
            if (edge.waiter() != edge.holder()) {
                out.computeIfAbsent(edge.waiter(), w -> new ArrayList<>()).add(edge);
            }
        }
    }

    /**
     * For each group of sessions that wait for each other through more than one connection of a session, the waits
     * of its youngest
     * session (the one whose transaction began last): ending them breaks the cycle.
     */
    public List<List<Edge>> victims() {
        List<List<Edge>> victims = new ArrayList<>();
        for (Set<Long> group : new Cycles().find()) {
            List<Edge> inside = new ArrayList<>();
            for (long session : group) {
                for (Edge edge : out.getOrDefault(session, List.of())) {
                    if (group.contains(edge.holder())) {
                        inside.add(edge);
                    }
                }
            }
            if (oneConnectionEach(inside)) {
                continue; // a cycle of transactions InnoDB sees whole: it breaks it itself
            }
            long victim = youngest(group, inside);
            victims.add(inside.stream().filter(e -> e.waiter() == victim).toList());
        }
        return victims;
    }

    /**
     * Whether every session of the cycle takes part through one connection: then it is a cycle of one server's
     * transactions, which InnoDB sees. A session whose waits pass through two of its connections (two data sources,
     * whether on two servers or on two schemas of one) links transactions no server knows belong together.
     */
    private static boolean oneConnectionEach(List<Edge> inside) {
        Map<Long, String> connection = new HashMap<>();
        for (Edge edge : inside) {
            LockWait wait = edge.lockWait();
            String waiting = wait.server() + "#" + wait.waitingThread();
            String blocking = wait.server() + "#" + wait.blockingThread();
            if (!connection.computeIfAbsent(edge.waiter(), s -> waiting).equals(waiting)
                    || !connection.computeIfAbsent(edge.holder(), s -> blocking).equals(blocking)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The session of the group whose transaction began last: the one with the latest earliest start among the
     * parts of its transaction the waits show (on each server it waits or holds); ties go to the later session.
     */
    private static long youngest(Set<Long> group, List<Edge> inside) {
        Map<Long, Long> began = new HashMap<>();
        for (Edge edge : inside) {
            began.merge(edge.waiter(), edge.lockWait().waitingSince(), Math::min);
            began.merge(edge.holder(), edge.lockWait().blockingSince(), Math::min);
        }
        long youngest = -1;
        for (long session : group) {
            if (youngest < 0 || began.get(session) > began.get(youngest)
                    || began.get(session).equals(began.get(youngest)) && session > youngest) {
                youngest = session;
            }
        }
        return youngest;
    }

    /** Tarjan's strongly connected components of two or more sessions: the groups that wait in a cycle. */
    private final class Cycles {
        private final Map<Long, Integer> index = new HashMap<>();
        private final Map<Long, Integer> low = new HashMap<>();
        private final List<Long> stack = new ArrayList<>();
        private final Set<Long> onStack = new HashSet<>();
        private final List<Set<Long>> groups = new ArrayList<>();

        List<Set<Long>> find() {
            for (long session : out.keySet()) {
                if (!index.containsKey(session)) {
                    visit(session);
                }
            }
            return groups;
        }

        private void visit(long session) {
            index.put(session, index.size());
            low.put(session, index.get(session));
            stack.add(session);
            onStack.add(session);
            for (Edge edge : out.getOrDefault(session, List.of())) {
                long next = edge.holder();
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(session, Math.min(low.get(session), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(session, Math.min(low.get(session), index.get(next)));
                }
            }
            if (low.get(session).equals(index.get(session))) {
                Set<Long> group = new HashSet<>();
                long member;
                do {
                    member = stack.remove(stack.size() - 1);
                    onStack.remove(member);
                    group.add(member);
                } while (member != session);
                if (group.size() > 1) {
                    groups.add(group);
                }
            }
        }
    }
}
