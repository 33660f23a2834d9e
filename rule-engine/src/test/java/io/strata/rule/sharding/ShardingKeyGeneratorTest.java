package io.strata.rule.sharding;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SNOWFLAKE and UUID keys. */
class ShardingKeyGeneratorTest {

    /** 2024-01-01T00:00:00Z. */
    private static final long NOW = 1_704_067_200_000L;

    @Test
    void aSnowflakeKeyIsMillisecondsSinceTheEpochThenWorkerThenSequence() {
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(5, 0, 10, () -> NOW);

        assertEquals(((NOW - SnowflakeKeyGenerator.EPOCH_MILLIS) << 22) | (5 << 12), generator.next());
        assertEquals(((NOW - SnowflakeKeyGenerator.EPOCH_MILLIS) << 22) | (5 << 12) | 1, generator.next());
        assertEquals(NOW, SnowflakeKeyGenerator.millisOf(generator.next()));
        assertEquals(1_477_958_400_000L, java.time.Instant.parse("2016-11-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void theFirstSequenceOfEachMillisecondVibratesSoKeysSpreadOverShards() {
        AtomicLong clock = new AtomicLong(NOW);
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(0, 1, 10, clock::getAndIncrement);

        List<Long> parities = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            parities.add(generator.next() % 2);
        }
        assertEquals(List.of(0L, 1L, 0L, 1L), parities);
    }

    @Test
    void after4096KeysInOneMillisecondItWaitsForTheNext() {
        AtomicLong clock = new AtomicLong(NOW);
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(0, 0, 10, clock::get);
        for (int i = 0; i < 4096; i++) {
            generator.next();
        }
        Thread mover = new Thread(() -> {
            sleep(20);
            clock.incrementAndGet();
        });
        mover.start();

        assertEquals(NOW + 1, SnowflakeKeyGenerator.millisOf(generator.next()));
    }

    @Test
    void aClockGoneBackALittleStandsStillAndKeysStillGrow() {
        AtomicLong clock = new AtomicLong(NOW);
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(0, 1, 10, clock::get);
        long before = generator.next();
        clock.set(NOW - 5);

        long after = generator.next();
        assertTrue(after > before);
        assertEquals(NOW, SnowflakeKeyGenerator.millisOf(after));
    }

    @Test
    void aClockGoneBackTooFarMakesNoKey() {
        AtomicLong clock = new AtomicLong(NOW);
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(0, 1, 10, clock::get);
        generator.next();
        clock.set(NOW - 10);

        ShardingRouteException e = assertThrows(ShardingRouteException.class, generator::next);
        assertTrue(e.reason().startsWith("the clock went back 10 ms"), e.reason());
    }

    @Test
    void keysAreUniqueAcrossThreadsAndGrowWithinEach() throws Exception {
        SnowflakeKeyGenerator generator = new SnowflakeKeyGenerator(1, 1, 10, System::currentTimeMillis);
        Set<Long> all = ConcurrentHashMap.newKeySet();
        int threads = 8;
        int perThread = 20_000;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Boolean>> growing = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                growing.add(pool.submit(() -> {
                    long previous = Long.MIN_VALUE;
                    boolean grows = true;
                    for (int i = 0; i < perThread; i++) {
                        long key = generator.next();
                        grows &= key > previous;
                        previous = key;
                        all.add(key);
                    }
                    return grows;
                }));
            }
            for (Future<Boolean> future : growing) {
                assertTrue(future.get());
            }
        }
        assertEquals(threads * perThread, all.size());
    }

    @Test
    void uuidKeysAre32HexCharactersAndDistinct() {
        UuidKeyGenerator generator = new UuidKeyGenerator();
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String key = generator.next();
            assertTrue(key.matches("[0-9a-f]{32}"), key);
            keys.add(key);
        }
        assertEquals(1000, keys.size());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
