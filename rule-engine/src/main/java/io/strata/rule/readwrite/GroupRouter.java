package io.strata.rule.readwrite;

import io.strata.rule.RouteException;
import io.strata.rule.DecoratingRule.Placement;
import io.strata.rule.SessionRouteState;
import io.strata.rule.SessionRouteState.ReadFrom;
import io.strata.rule.StatementContext;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.GtidPosition;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * Places the statements of one read/write group: everything on the primary except reads that a replica may answer
 * (see the README's routing table), which go to a replica in rotation chosen by the load balancer. A pure function
 * of the statement, the session's facts and the replicas' health.
 */
final class GroupRouter {

    private final ReadWriteGroup group;
    private final DataSourceStatus primary;
    /** The replicas, then the primary when it takes reads. */
    private final List<DataSourceStatus> readers;
    private final LoadBalancer balancer;

    GroupRouter(ReadWriteGroup group, DataSourceStatus primary, List<DataSourceStatus> replicas) {
        this.group = group;
        this.primary = primary;
        List<DataSourceStatus> all = new ArrayList<>(replicas);
        if (group.primaryTakesReads()) {
            all.add(primary);
        }
        this.readers = List.copyOf(all);
        this.balancer = LoadBalancer.of(group.loadBalancer(), group.weights());
    }

    /** Where a statement for this group runs: the primary, or a replica for a read that one may answer. */
    Placement place(StatementContext context) {
        SqlStatementInfo info = context.statement();
        boolean read = info != null && info.readOnly(); // judged once: it scans the whole statement
        if (!read || context.inTransaction() || context.keepsState()) {
            return new Placement(primary.name(), false);
        }
        SessionRouteState session = context.session();
        boolean replicaHint = "replica".equals(info.hint());
        if ("primary".equals(info.hint()) || session.readFrom() == ReadFrom.PRIMARY && !replicaHint) {
            return new Placement(primary.name(), false);
        }
        boolean staleAllowed = replicaHint || session.readFrom() == ReadFrom.REPLICA;
        return read(context, group.readYourWrites() && session.wrote() && !staleAllowed);
    }

    private Placement read(StatementContext context, boolean mustSeeOwnWrites) {
        GtidPosition needed = mustSeeOwnWrites ? primary.positionAfter(context.session().lastWriteNanos()) : null;
        List<DataSourceStatus> candidates = new ArrayList<>(readers.size());
        for (DataSourceStatus reader : readers) {
            if (reader == primary || reader.inRotation() && (!mustSeeOwnWrites || hasWrite(reader, needed))) {
                candidates.add(reader);
            }
        }
        if (candidates.isEmpty()) {
            if (!mustSeeOwnWrites && group.whenNoReplica().equals("FAIL")) {
                throw new RouteException(1429, "HY000", "No replica of read/write group '" + group.name()
                        + "' is in rotation: " + whyNot());
            }
            return new Placement(primary.name(), false);
        }
        DataSourceStatus chosen = balancer.choose(candidates);
        return new Placement(chosen.name(), chosen != primary);
    }

    /** Whether a replica is known to hold a position the session's last write is part of. */
    private static boolean hasWrite(DataSourceStatus replica, GtidPosition needed) {
        GtidPosition position = replica.position();
        return needed != null && position != null && !needed.isEmpty() && position.contains(needed);
    }

    private String whyNot() {
        StringBuilder why = new StringBuilder();
        for (DataSourceStatus reader : readers) {
            if (reader != primary) {
                why.append(why.isEmpty() ? "" : "; ").append(reader.name()).append(": ").append(reader.reason());
            }
        }
        return why.toString();
    }

    /** The group's name, which stands for it in routes. */
    String name() {
        return group.name();
    }

    List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(group.name());
        names.add(primary.name());
        readers.stream().filter(r -> r != primary).forEach(r -> names.add(r.name()));
        return names;
    }
}
