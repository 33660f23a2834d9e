package io.strata.frontend.command;

import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Reloader;

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

    /** @param reloader null when the host was built from configuration records */
    static LocalResultSet answer(Reloader reloader) {
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
        return new LocalResultSet(List.of(ColumnDefinition41.varchar("item"), ColumnDefinition41.varchar("value")),
                rows);
    }

    /** The answer to RELOAD STRATA CONFIG: each change applied now, and each key waiting for a restart. */
    static LocalResultSet reloaded(Reloader.Version version) {
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
        return new LocalResultSet(List.of(ColumnDefinition41.bigint("version"), ColumnDefinition41.varchar("change"),
                ColumnDefinition41.varchar("applied")), rows);
    }
}
