package io.strata.frontend;

import io.netty.util.concurrent.EventExecutor;
import io.strata.protocol.CommandType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the client side counts, for the metrics endpoint: commands by type and refused logins. Commands are counted
 * in one row of counters per event loop, which a connection finds once ({@link #commandsOn}): counting a command is
 * then one add on a line no other core writes (a shared {@link LongAdder} cost a probe of the thread and a cell
 * lookup per command). Nothing is read on the hot path, and nothing here depends on a metrics library: the bootstrap
 * binds these to Micrometer.
 */
public final class FrontendStats {

    private static final int TYPES = CommandType.values().length;

    private final Map<EventExecutor, CommandCounter> commandsByLoop = new ConcurrentHashMap<>();
    private final LongAdder loginsRefused = new LongAdder();

    /** The counters for connections of this event loop (created on its first connection). */
    public CommandCounter commandsOn(EventExecutor loop) {
        return commandsByLoop.computeIfAbsent(loop, ignored -> new CommandCounter(new AtomicLongArray(TYPES)));
    }

    /** Commands of this type over all event loops. */
    public long commands(CommandType type) {
        long sum = 0;
        for (CommandCounter counter : commandsByLoop.values()) {
            sum += counter.counts().get(type.ordinal());
        }
        return sum;
    }

    /** A connection refused before the command phase: wrong user or password, a database it may not use... */
    public void loginRefused() {
        loginsRefused.increment();
    }

    public long loginsRefused() {
        return loginsRefused.sum();
    }

    /** One event loop's commands by type; atomic adds, so a command counted off its loop is never lost either. */
    public record CommandCounter(AtomicLongArray counts) {
        public void count(CommandType type) {
            counts.getAndIncrement(type.ordinal());
        }
    }
}
