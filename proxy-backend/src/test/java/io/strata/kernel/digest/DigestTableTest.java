package io.strata.kernel.digest;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DigestTableTest {

    private static DigestKey key(String digest) {
        return new DigestKey(digest, "app", "shop", "ds_0");
    }

    private static Map<DigestKey, DigestStats.Snapshot> rows(DigestTable table) {
        return Map.ofEntries(table.snapshot().toArray(Map.Entry[]::new));
    }

    @Test
    void aDigestCountsItsStatements() {
        DigestTable table = new DigestTable(100);
        table.add(key("SELECT ?"), System.nanoTime(), 100, 1, 0, false, 0);
        table.add(key("SELECT ?"), System.nanoTime(), 300, 1, 0, false, 2);
        table.add(key("SELECT ?"), System.nanoTime(), 200, 0, 0, true, 0);
        DigestStats.Snapshot s = rows(table).get(key("SELECT ?"));
        assertEquals(3, s.count());
        assertEquals(600, s.sumMicros());
        assertEquals(100, s.minMicros());
        assertEquals(300, s.maxMicros());
        assertEquals(200, s.avgMicros());
        assertEquals(2, s.rowsSent());
        assertEquals(1, s.errors());
        assertEquals(2, s.warnings());
        assertTrue(s.firstSeenMillis() <= s.lastSeenMillis());
    }

    @Test
    void aFullTableFoldsItsLeastUsedRowsIntoOthers() {
        DigestTable table = new DigestTable(10);
        for (int i = 0; i < 10; i++) {
            for (int n = 0; n <= i; n++) {
                table.add(key("SELECT " + i), System.nanoTime(), 10, 0, 0, false, 0); // digest i is used i + 1 times
            }
        }
        table.add(key("SELECT new"), System.nanoTime(), 10, 0, 0, false, 0);
        Map<DigestKey, DigestStats.Snapshot> rows = rows(table);
        assertEquals(10, table.size(), "one row made room for the new one");
        assertTrue(!rows.containsKey(key("SELECT 0")), "the least used row went");
        DigestStats.Snapshot others = rows.get(DigestTable.OTHERS);
        assertEquals(1, others.count(), "its one statement is counted in others");
        assertEquals(1, others.folded());
        long total = rows.values().stream().mapToLong(DigestStats.Snapshot::count).sum();
        assertEquals(55 + 1, total, "no statement is lost by folding");
    }

    @Test
    void flushEmptiesTheTable() {
        DigestTable table = new DigestTable(1);
        table.add(key("a"), System.nanoTime(), 1, 0, 0, false, 0);
        table.add(key("b"), System.nanoTime(), 1, 0, 0, false, 0);
        table.clear();
        assertEquals(List.of(), table.snapshot());
    }
}
