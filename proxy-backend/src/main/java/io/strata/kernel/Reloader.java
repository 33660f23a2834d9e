package io.strata.kernel;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What reloads a host's configuration: reads it again, validates it whole, and swaps the kernel's runtime between
 * statements (RELOAD STRATA CONFIG, SIGHUP, a watched file). One reload runs at a time.
 */
public interface Reloader {

    /**
     * Reads the configuration again and, when it is valid, makes it the runtime of every statement that starts from
     * now on.
     *
     * @param trigger who or what asked, for the log and SHOW STRATA CONFIG
     * @return the version now running; fails with the configuration's error when it is refused (the running one
     *     stays)
     */
    CompletableFuture<Version> reload(String trigger);

    /** The configuration running now, as SHOW STRATA CONFIG tells it. */
    Version current();

    /** The pools reloads retired that still wait for connections sessions hold. */
    List<String> draining();

    /**
     * One configuration as it was loaded: its number (1 at start, +1 per applied reload), when and from where, by
     * what, what it changed from the one before (live), what it changed that only a restart applies, and the last
     * refused attempt since (null: none).
     */
    record Version(int number, Instant loadedAt, String source, String trigger, List<String> changes,
                   List<String> pendingRestart, String lastRefused) {

        public Version {
            changes = List.copyOf(changes);
            pendingRestart = List.copyOf(pendingRestart);
        }

        /** The same version, with a refused attempt remembered. */
        public Version refused(String why) {
            return new Version(number, loadedAt, source, trigger, changes, pendingRestart, why);
        }
    }
}
