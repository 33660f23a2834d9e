package io.strata.rule.health;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a reload's registry keeps of the running one. */
class HealthRegistryTest {

    @Test
    void aReloadKeepsTheStatusOfUnchangedDataSourcesAndEveryDisabledOneStillConfigured() {
        HealthRegistry running = new HealthRegistry();
        DataSourceStatus kept = running.status("app", "replica_0");
        kept.down("replication stopped", null);
        DataSourceStatus repointed = running.status("app", "replica_1");
        repointed.disabled(true);
        running.status("app", "removed").disabled(true);
        running.watch(kept, HealthRegistry.Role.REPLICA, "rw", null);

        Set<String> unchanged = Set.of("replica_0");
        Set<String> configured = Set.of("replica_0", "replica_1");
        HealthRegistry next = new HealthRegistry(running, (db, ds) -> unchanged.contains(ds),
                (db, ds) -> configured.contains(ds));

        assertSame(kept, next.status("app", "replica_0"), "an unchanged data source keeps its status");
        assertFalse(next.status("app", "replica_0").inRotation(), "a dead replica stays out");
        assertNotSame(repointed, next.status("app", "replica_1"));
        assertTrue(next.status("app", "replica_1").disabled(), "disabled until enabled, even with new settings");
        assertEquals(List.of("replica_0", "replica_1"),
                next.statuses("app").stream().map(DataSourceStatus::name).toList(), "a removed one is gone");
        assertEquals(List.of(), next.watches(), "the rules, built again, register their own watches");
    }

    @Test
    void aDisabledDataSourceIsOutOfRotationWhateverTheChecksFind() {
        DataSourceStatus status = new DataSourceStatus("app", "replica_0");
        status.up("replicating, lag 0 s", 0L, null);
        status.disabled(true);
        assertFalse(status.inRotation());
        assertTrue(status.reason().startsWith("disabled by ALTER STRATA DATA SOURCE"), status.reason());
        status.disabled(false);
        assertTrue(status.inRotation());
    }
}
