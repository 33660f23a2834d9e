package io.strata.bootstrap.cluster;

import io.strata.config.ConfigLoader;
import io.strata.config.StrataConfig;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One version of a cluster's shared configuration, as the registry holds it: the conf folder's files as text. The
 * {@code config-*.yaml} files go as written; server.yaml goes without {@code mode} and the keys each member keeps
 * for itself (its listeners, loops, executor, TLS material, metrics endpoint and the limits sized at start), so one
 * member's port never becomes another's.
 *
 * @param version     1 for the first, +1 per publication
 * @param publishedBy the member and the statement or signal that published it
 * @param files       file name to text
 */
record ConfigBundle(int version, String publishedBy, Instant publishedAt, Map<String, String> files) {

    /** server.yaml's keys that stay with each member (the restart-only ones, see RestartOnly). */
    static final List<String> MEMBER_KEYS = List.of("host", "port", "workerThreads", "executor", "tls", "metrics",
            "socket", "socketMode", "packetMemory", "shutdownTimeout");
    private static final String SERVER_FILE = "server.yaml";

    ConfigBundle {
        files = Map.copyOf(files);
    }

    /** The shared part of a conf folder's files. */
    static ConfigBundle read(Path confDir, int version, String publishedBy) {
        Map<String, String> files = new TreeMap<>();
        try {
            files.put(SERVER_FILE, shared(Files.readString(confDir.resolve(SERVER_FILE))));
            try (DirectoryStream<Path> databases = Files.newDirectoryStream(confDir, "config-*.yaml")) {
                for (Path file : databases) {
                    files.put(file.getFileName().toString(), Files.readString(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + confDir + ": " + e.getMessage(), e);
        }
        return new ConfigBundle(version, publishedBy, Instant.now(), files);
    }

    /** server.yaml without mode and the members' own keys (its comments go: the registry's copy is for machines). */
    @SuppressWarnings("unchecked")
    static String shared(String serverYaml) {
        Object document = yaml().load(serverYaml);
        if (!(document instanceof Map<?, ?> map)) {
            return serverYaml; // not a mapping: the load refuses it with the file's own message
        }
        Map<String, Object> root = new LinkedHashMap<>((Map<String, Object>) map);
        root.remove("mode");
        if (root.get("server") instanceof Map<?, ?> server) {
            Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) server);
            MEMBER_KEYS.forEach(kept::remove);
            root.put("server", kept);
        }
        return yaml().dump(root);
    }

    /** Whether both hold the same files (a publication that would change nothing). */
    boolean sameFiles(ConfigBundle other) {
        return files.equals(other.files);
    }

    byte[] bytes() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("version", version);
        document.put("publishedBy", publishedBy);
        document.put("publishedAt", publishedAt.toString());
        document.put("files", new TreeMap<>(files));
        return yaml().dump(document).getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    static ConfigBundle parse(byte[] data) {
        Map<String, Object> document = yaml().load(new String(data, StandardCharsets.UTF_8));
        return new ConfigBundle((Integer) document.get("version"), (String) document.get("publishedBy"),
                Instant.parse((String) document.get("publishedAt")), (Map<String, String>) document.get("files"));
    }

    /**
     * Loads it with the checks of a start: the files are written to {@code cacheDir/v<version>} and read from there
     * (a message names that copy).
     */
    StrataConfig load(Path cacheDir) {
        Path dir = cacheDir.resolve("v" + version);
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> file : files.entrySet()) {
                if (!file.getKey().matches("server\\.yaml|config-[A-Za-z0-9_.-]+\\.yaml")) {
                    throw new IllegalStateException("the registry's configuration version " + version
                            + " holds a file Strata does not read: " + file.getKey());
                }
                Files.writeString(dir.resolve(file.getKey()), file.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster's configuration to " + dir, e);
        }
        return ConfigLoader.load(dir);
    }

    private static Yaml yaml() {
        DumperOptions dump = new DumperOptions();
        dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dump.setDefaultScalarStyle(DumperOptions.ScalarStyle.PLAIN);
        LoaderOptions load = new LoaderOptions();
        load.setAllowDuplicateKeys(false);
        return new Yaml(new SafeConstructor(load), new Representer(dump), dump, load);
    }
}
