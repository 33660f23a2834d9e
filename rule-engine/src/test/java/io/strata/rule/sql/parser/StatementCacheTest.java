package io.strata.rule.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The cache's bounds and its second-chance eviction: what was used since the hand last passed stays. */
class StatementCacheTest {

    private static ParsedStatement statement(String sql) {
        return ParsedStatement.unparsed(StatementType.OTHER, sql);
    }

    private static StatementCache filled(int maxEntries, long maxChars, String... texts) {
        StatementCache cache = new StatementCache(maxEntries, maxChars);
        for (String sql : texts) {
            cache.putIfAbsent(sql, statement(sql));
        }
        return cache;
    }

    @Test
    void whenFullTheOldestUnusedEntryGoes() {
        StatementCache cache = filled(3, 1000, "a", "b", "c");
        cache.get("a");

        cache.putIfAbsent("d", statement("d"));

        assertNotNull(cache.get("a"), "used since it was cached");
        assertNull(cache.get("b"), "the oldest unused");
        assertNotNull(cache.get("c"));
        assertNotNull(cache.get("d"));
        assertEquals(3, cache.size());
    }

    @Test
    void whenEveryEntryWasUsedTheHandGoesRoundAndTakesTheOldest() {
        StatementCache cache = filled(3, 1000, "a", "b", "c");
        List.of("c", "b", "a").forEach(cache::get);

        cache.putIfAbsent("d", statement("d"));

        assertNull(cache.get("a"));
        assertEquals(3, cache.size());
    }

    @Test
    void theCharactersOfTextHeldAreBoundedToo() {
        StatementCache cache = filled(100, 10, "aaaa", "bbbb");

        cache.putIfAbsent("cccc", statement("cccc"));

        assertNull(cache.get("aaaa"), "4 + 4 + 4 characters is over 10");
        assertNotNull(cache.get("bbbb"));
        assertNotNull(cache.get("cccc"));
    }

    @Test
    void theFirstStatementCachedForATextIsTheOneEveryoneGets() throws Exception {
        StatementCache cache = new StatementCache(16, 1000);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ParsedStatement>> results = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            results.add(threads.submit(() -> {
                start.await();
                return cache.putIfAbsent("SELECT 1", statement("SELECT 1"));
            }));
        }
        start.countDown();

        ParsedStatement cached = results.get(0).get();
        for (Future<ParsedStatement> result : results) {
            assertSame(cached, result.get());
        }
        assertSame(cached, cache.get("SELECT 1"));
        threads.shutdown();
    }
}
