package io.strata.rule.readwrite;

import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.SessionRouteState;
import io.strata.rule.SessionRouteState.ReadFrom;
import io.strata.rule.StatementContext;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.GtidPosition;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * Routes the statements of one read/write group: everything to the primary except reads that a replica may answer
 * (see the README's routing table), which go to a replica in rotation chosen by the load balancer.
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

    RouteResult route(StatementContext context) {
        SqlStatementInfo info = context.statement();
        SessionRouteState session = context.session();
        boolean read = info != null && info.readOnly(); // judged once: it scans the whole statement
        if (context.pinnedDataSource() != null) {
            // The session's transaction or state lives there: only that data source can run the statement. A session
            // kept on a replica only for SHOW WARNINGS leaves it for anything but a read.
            DataSourceStatus at = statusOf(context.pinnedDataSource());
            if (at == primary || read || info != null && info.kind() == SqlKind.SHOW) {
                return to(context, at, isWrite(info));
            }
        }
        if (!read || context.inTransaction() || context.keepsState()) {
            return to(context, primary, isWrite(info));
        }
        boolean replicaHint = "replica".equals(info.hint());
        if ("primary".equals(info.hint()) || session.readFrom() == ReadFrom.PRIMARY && !replicaHint) {
            return to(context, primary, false);
        }
        boolean staleAllowed = replicaHint || session.readFrom() == ReadFrom.REPLICA;
        return read(context, group.readYourWrites() && session.wrote() && !staleAllowed);
    }

    private RouteResult read(StatementContext context, boolean mustSeeOwnWrites) {
        GtidPosition needed = mustSeeOwnWrites ? primary.positionAfter(context.session().lastWriteNanos()) : null;
        List<DataSourceStatus> candidates = new ArrayList<>(readers.size());
        for (DataSourceStatus reader : readers) {
            if (reader == primary || reader.inRotation() && (!mustSeeOwnWrites || hasWrite(reader, needed))) {
                candidates.add(reader);
            }
        }
        if (candidates.isEmpty()) {
            if (!mustSeeOwnWrites && group.whenNoReplica().equals("FAIL")) {
                throw new RouteException(2003, "HY000", "No replica of read/write group '" + group.name()
                        + "' is in rotation: " + whyNot());
            }
            return to(context, primary, false);
        }
        DataSourceStatus chosen = balancer.choose(candidates);
        if (!context.prepare()) {
            context.session().routed(chosen, false);
        }
        return chosen == primary ? RouteResult.single(primary.name()) : RouteResult.read(chosen.name());
    }

    /** Whether a replica is known to hold a position the session's last write is part of. */
    private static boolean hasWrite(DataSourceStatus replica, GtidPosition needed) {
        GtidPosition position = replica.position();
        return needed != null && position != null && !needed.isEmpty() && position.contains(needed);
    }

    private RouteResult to(StatementContext context, DataSourceStatus target, boolean write) {
        if (!context.prepare()) {
            context.session().routed(target, write);
        }
        return RouteResult.single(target.name());
    }

    private DataSourceStatus statusOf(String name) {
        if (name.equals(primary.name())) {
            return primary;
        }
        return readers.stream().filter(r -> r.name().equals(name)).findFirst().orElse(primary);
    }

    /** Statements that may change data; a session's reads wait for these to reach a replica. */
    private static boolean isWrite(SqlStatementInfo info) {
        if (info == null) {
            return false;
        }
        SqlKind kind = info.kind();
        return kind != SqlKind.SELECT && kind != SqlKind.SHOW && kind != SqlKind.SET && kind != SqlKind.USE
                && kind != SqlKind.EMPTY;
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

    List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(group.name());
        names.add(primary.name());
        readers.stream().filter(r -> r != primary).forEach(r -> names.add(r.name()));
        return names;
    }
}
