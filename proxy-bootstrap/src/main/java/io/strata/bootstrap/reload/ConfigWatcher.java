package io.strata.bootstrap.reload;

import io.strata.kernel.Reloader;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * server.watchConfig: looks at the configuration folder's YAML files every {@value #POLL_MILLIS} ms and reloads
 * once a change has stood still for one look (an editor saves in several writes). A change is picked up within
 * about a second. Polling rather than a WatchService: it sees edits through every kind of mount (a Kubernetes
 * ConfigMap's symlink swap included) and costs a few stat calls.
 */
public final class ConfigWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatcher.class);
    static final long POLL_MILLIS = 500;

    private final Path confDir;
    private final Reloader reloader;
    private final BooleanSupplier on;
    private final Thread thread;
    private volatile boolean closed;

    /** @param on whether watching is on now (the running configuration's server.watchConfig) */
    public ConfigWatcher(Path confDir, Reloader reloader, BooleanSupplier on) {
        this.confDir = confDir;
        this.reloader = reloader;
        this.on = on;
        this.thread = Thread.ofVirtual().name("strata-config-watch").start(this::loop);
    }

    private void loop() {
        Map<String, String> seen = snapshot();
        Map<String, String> changed = null;
        while (!closed) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            Map<String, String> now = snapshot();
            if (!on.getAsBoolean()) {
                seen = now;
                changed = null;
                continue;
            }
            if (changed != null && changed.equals(now)) {
                seen = now;
                changed = null;
                try {
                    reloader.reload("a change to " + confDir).join();
                } catch (RuntimeException e) {
                    // refused: logged by the reloader, the running configuration stays
                }
            } else if (!Objects.equals(now, seen)) {
                changed = now;
            } else {
                changed = null;
            }
        }
    }

    /** Each YAML file's size and modification time. */
    private Map<String, String> snapshot() {
        Map<String, String> files = new TreeMap<>();
        try (DirectoryStream<Path> yaml = Files.newDirectoryStream(confDir, "*.{yaml,yml}")) {
            for (Path file : yaml) {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                files.put(file.getFileName().toString(), attributes.size() + "@" + attributes.lastModifiedTime());
            }
        } catch (IOException e) {
            LOG.debug("cannot look at {}: {}", confDir, e.getMessage());
        }
        return files;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
