package io.strata.kernel;

import io.strata.kernel.digest.DigestTable;
import io.strata.kernel.slowlog.SlowLog;

import java.util.Objects;

/**
 * What every session shares, whichever host it came through: the runtime its statements run against (one snapshot,
 * swapped whole), the live sessions, and what statements are counted into: query digests and the slow log (each
 * null when off).
 */
public final class Kernel {

    private volatile StrataRuntime runtime;
    private final SessionRegistry sessions = new SessionRegistry();
    private volatile DigestTable digests;
    private volatile SlowLog slowLog;
    /** Hears each statement's latency; null when nothing listens. */
    private volatile StatementTimer timer;
    /** Reads the configuration again and swaps it in; null where the host cannot (built from records). */
    private volatile Reloader reloader;
    /** The cluster this host is a member of; null when it runs standalone. */
    private volatile Cluster cluster;

    public Kernel(StrataRuntime runtime, DigestTable digests, SlowLog slowLog) {
        this.runtime = Objects.requireNonNull(runtime);
        this.digests = digests;
        this.slowLog = slowLog;
    }

    /** The runtime a command starting now runs against. */
    public StrataRuntime runtime() {
        return runtime;
    }

    /**
     * Makes {@code next} the runtime of every command that starts from now on; commands running keep theirs.
     *
     * @return the runtime it replaced, for the caller to retire once nothing uses it
     */
    public synchronized StrataRuntime swap(StrataRuntime next) {
        StrataRuntime previous = runtime;
        runtime = Objects.requireNonNull(next);
        return previous;
    }

    /**
     * A reload changed server.digests or server.slowLog: statements ending from now on are counted into these
     * (each null when off).
     */
    public synchronized void statistics(DigestTable digests, SlowLog slowLog) {
        this.digests = digests;
        this.slowLog = slowLog;
    }

    /** What hears each statement's latency, or null. */
    public StatementTimer timer() {
        return timer;
    }

    public void timer(StatementTimer timer) {
        this.timer = timer;
    }

    /** What reloads this kernel's configuration, or null when nothing can. */
    public Reloader reloader() {
        return reloader;
    }

    public void reloader(Reloader reloader) {
        this.reloader = reloader;
    }

    /** The cluster this host is a member of, or null when it runs standalone. */
    public Cluster cluster() {
        return cluster;
    }

    public void cluster(Cluster cluster) {
        this.cluster = cluster;
    }

    public SessionRegistry sessions() {
        return sessions;
    }

    /** Query digests, or null when they are off. */
    public DigestTable digests() {
        return digests;
    }

    /** The slow query log, or null when it is off. */
    public SlowLog slowLog() {
        return slowLog;
    }
}
