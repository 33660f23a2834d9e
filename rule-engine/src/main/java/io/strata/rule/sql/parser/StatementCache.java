package io.strata.rule.sql.parser;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parsed statements by their exact text, bounded in entries and in characters of text, evicting by CLOCK (second
 * chance): an approximation of least-recently-used in which a hit only sets a flag. Every thread that routes reads
 * this cache, so a hit takes no lock and, once an entry's flag is set, writes nothing; a miss has just paid for a
 * parse, so insertion and eviction take one lock.
 */
final class StatementCache {

    private static final class Entry {
        final String sql;
        final ParsedStatement statement;
        /** Used since the clock hand last passed: spared once. */
        volatile boolean used;

        Entry(String sql, ParsedStatement statement) {
            this.sql = sql;
            this.statement = statement;
        }
    }

    private final ConcurrentHashMap<String, Entry> entries;
    private final int maxEntries;
    private final long maxChars;
    /** Entries in insertion order, with the clock hand at the head. Guarded by this. */
    private final ArrayDeque<Entry> clock = new ArrayDeque<>();
    /** Characters of text held. Guarded by this. */
    private long chars;

    StatementCache(int maxEntries, long maxChars) {
        this.entries = new ConcurrentHashMap<>(Math.min(maxEntries, 1 << 16) * 4 / 3 + 1);
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
    }

    /** The statement cached for {@code sql}, or null. */
    ParsedStatement get(String sql) {
        Entry entry = entries.get(sql);
        if (entry == null) {
            return null;
        }
        if (!entry.used) {
            entry.used = true;
        }
        return entry.statement;
    }

    /**
     * Caches {@code statement} for {@code sql} unless another thread cached one first, and returns the one cached,
     * so every caller of the same text gets the same instance.
     */
    synchronized ParsedStatement putIfAbsent(String sql, ParsedStatement statement) {
        Entry cached = entries.get(sql);
        if (cached != null) {
            return cached.statement;
        }
        if (sql.length() > maxChars) {
            return statement;
        }
        while (!clock.isEmpty() && (clock.size() >= maxEntries || chars + sql.length() > maxChars)) {
            evictOne();
        }
        Entry entry = new Entry(sql, statement);
        clock.addLast(entry);
        chars += sql.length();
        entries.put(sql, entry);
        return statement;
    }

    int size() {
        return entries.size();
    }

    /**
     * Moves the hand past used entries, clearing their flags, and evicts the first unused one. Readers may set flags
     * again behind the hand, so after two rounds the oldest entry goes regardless.
     */
    private void evictOne() {
        for (int steps = 2 * clock.size(); ; steps--) {
            Entry head = clock.pollFirst();
            if (!head.used || steps <= 0) {
                entries.remove(head.sql);
                chars -= head.sql.length();
                return;
            }
            head.used = false;
            clock.addLast(head);
        }
    }
}
