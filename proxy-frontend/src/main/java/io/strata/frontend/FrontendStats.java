package io.strata.frontend;

import io.strata.protocol.CommandType;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the client side counts, for the metrics endpoint: commands by type and refused logins. Counting costs one
 * uncontended add per command (a {@link LongAdder} spreads the event loops over cells), nothing is read on the hot
 * path, and nothing here depends on a metrics library: the bootstrap binds these to Micrometer.
 */
public final class FrontendStats {

    private final LongAdder[] commands = new LongAdder[CommandType.values().length];
    private final LongAdder loginsRefused = new LongAdder();

    public FrontendStats() {
        for (int i = 0; i < commands.length; i++) {
            commands[i] = new LongAdder();
        }
    }

    public void command(CommandType type) {
        commands[type.ordinal()].increment();
    }

    public long commands(CommandType type) {
        return commands[type.ordinal()].sum();
    }

    /** A connection refused before the command phase: wrong user or password, a database it may not use... */
    public void loginRefused() {
        loginsRefused.increment();
    }

    public long loginsRefused() {
        return loginsRefused.sum();
    }
}
