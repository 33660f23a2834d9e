package io.strata.rule.sharding;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The columns of each sharded logical table, in order, as its first node has them: what a {@code *} stands for
 * where a merge needs its columns (SELECT DISTINCT *, ORDER BY a position after *, * with GROUP BY). Read by the
 * host (the rule does no I/O) at start and again after DDL through Strata; an answer whose columns are not these
 * forgets them and has them read again. A table whose columns are not known is planned as before: its * refused
 * where the merge needs the columns.
 */
public final class LogicalColumns {

    /** Each table's column names, by the table's lower-case name. */
    private final Map<String, List<String>> columns = new ConcurrentHashMap<>();
    /** Counts changes, so that a plan made with older columns is made again. */
    private final AtomicLong version = new AtomicLong();
    private volatile Consumer<String> reader = table -> { };

    /** The columns of {@code table} (any case), or null where they are not known. */
    public List<String> of(String table) {
        return columns.get(table.toLowerCase(Locale.ROOT));
    }

    /** {@code table} has these columns now. */
    public void found(String table, List<String> names) {
        if (!names.isEmpty()) {
            columns.put(table.toLowerCase(Locale.ROOT), List.copyOf(names));
            version.incrementAndGet();
        }
    }

    /** Who reads a table's columns when asked ({@link #changed}): the host, on a thread of its own. */
    public void readWith(Consumer<String> reader) {
        this.reader = reader;
    }

    /** The columns of {@code table} may have changed: forgotten now, read again by the host. */
    public void changed(String table) {
        columns.remove(table.toLowerCase(Locale.ROOT));
        version.incrementAndGet();
        reader.accept(table);
    }

    long version() {
        return version.get();
    }
}
