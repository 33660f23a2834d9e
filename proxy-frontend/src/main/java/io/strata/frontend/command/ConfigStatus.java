package io.strata.frontend.command;

import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Cluster;
import io.strata.kernel.Reloader;
import io.strata.protocol.ErrorCode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code SHOW STRATA CONFIG}: the configuration running (its version, when, from where and by what it was loaded),
 * what its last reload changed, the keys a restart still has to apply, the last refused reload, and the pools old
 * configurations left draining. One row per item, as {@code SHOW VARIABLES} has them.
 */
final class ConfigStatus {

    private ConfigStatus() {
    }

    /**
     * @param reloader null when the host was built from configuration records
     * @param cluster  null when the host runs standalone
     */
    static LocalResultSet answer(Reloader reloader, Cluster cluster) {
        List<List<Object>> rows = new ArrayList<>();
        if (reloader == null) {
            rows.add(Arrays.asList("version", "1"));
            rows.add(Arrays.asList("source", "configuration records (no conf folder: RELOAD STRATA CONFIG is not "
                    + "available)"));
        } else {
            Reloader.Version version = reloader.current();
            rows.add(Arrays.asList("version", String.valueOf(version.number())));
            rows.add(Arrays.asList("loaded_at", version.loadedAt().toString()));
            rows.add(Arrays.asList("source", version.source()));
            rows.add(Arrays.asList("loaded_by", version.trigger()));
            rows.add(Arrays.asList("last_changes", String.join("; ", version.changes())));
            rows.add(Arrays.asList("pending_restart", String.join(", ", version.pendingRestart())));
            rows.add(Arrays.asList("last_refused", version.lastRefused()));
            rows.add(Arrays.asList("draining_pools", String.join("; ", reloader.draining())));
        }
        rows.add(Arrays.asList("mode", cluster == null ? "Standalone" : "Cluster (" + cluster.registry() + ")"));
        if (cluster != null) {
            List<String> differences = cluster.localDifferences();
            rows.add(Arrays.asList("local_files", differences.isEmpty() ? "the same as the cluster's"
                    : "differ from the cluster's (not applied; RELOAD STRATA CONFIG publishes them): "
                    + String.join("; ", differences)));
        }
        return new LocalResultSet(List.of(ColumnDefinition41.varchar("item"), ColumnDefinition41.varchar("value")),
                rows);
    }

    /**
     * {@code SHOW STRATA CLUSTER}: one row per member, with the configuration version it runs.
     *
     * @throws io.strata.protocol.MySQLException when the host runs standalone
     */
    static LocalResultSet members(Cluster cluster) {
        if (cluster == null) {
            throw ErrorCode.UNSUPPORTED.exception("SHOW STRATA CLUSTER on a Strata that runs standalone (server.yaml "
                    + "has no mode: { type: Cluster, repository: ... })");
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Cluster.Member member : cluster.members()) {
            rows.add(Arrays.asList(member.id(), member.version(), member.upSince().toString(), member.state(),
                    member.workerId() < 0 ? null : member.workerId(), member.self() ? "yes" : "no"));
        }
        return new LocalResultSet(List.of(ColumnDefinition41.varchar("member"), ColumnDefinition41.bigint("version"),
                ColumnDefinition41.varchar("up_since"), ColumnDefinition41.varchar("state"),
                ColumnDefinition41.bigint("worker_id"), ColumnDefinition41.varchar("this")), rows);
    }

    /**
     * The answer to RELOAD STRATA CONFIG: each change applied now, each key waiting for a restart and, in a cluster,
     * each member that does not run the version yet.
     */
    static LocalResultSet reloaded(Reloader.Version version, Cluster cluster) {
        List<List<Object>> rows = new ArrayList<>();
        for (String change : version.changes()) {
            rows.add(Arrays.asList(version.number(), change, "now"));
        }
        for (String key : version.pendingRestart()) {
            rows.add(Arrays.asList(version.number(), key + " changed in the file", "at the next start"));
        }
        if (rows.isEmpty()) {
            rows.add(Arrays.asList(version.number(), "nothing changed", "now"));
        }
        if (cluster != null) {
            for (Cluster.Member member : cluster.members()) {
                if (member.version() < version.number()) {
                    rows.add(Arrays.asList(version.number(), "member " + member.id() + " still runs version "
                            + member.version(), "not yet"));
                }
            }
        }
        return new LocalResultSet(List.of(ColumnDefinition41.bigint("version"), ColumnDefinition41.varchar("change"),
                ColumnDefinition41.varchar("applied")), rows);
    }
}
