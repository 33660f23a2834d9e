package io.strata.jdbc;

import io.strata.config.ConfigLoader;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.Map;

/**
 * The embedded driver's URLs: {@code jdbc:strata:file:<path to a config-*.yaml>} and
 * {@code jdbc:strata:classpath:<resource>}. The file is a proxy's logical database file, read as the proxy reads it;
 * a {@code server.yaml} beside it (users, digests, slow log, limits) is read too when there is one.
 *
 * @param url      the URL as given
 * @param database the database file
 * @param server   the server.yaml beside it, or null
 */
record StrataUrl(String url, Path database, Path server) {

    static final String FILE = "file:";
    static final String CLASSPATH = "classpath:";

    static boolean accepts(String url) {
        return url != null && url.startsWith(StrataDriver.PREFIX);
    }

    static StrataUrl parse(String url) throws SQLException {
        String rest = url.substring(StrataDriver.PREFIX.length());
        int query = rest.indexOf('?');
        if (query >= 0) {
            rest = rest.substring(0, query);
        }
        Path file;
        if (rest.startsWith(FILE)) {
            file = Path.of(rest.substring(FILE.length()));
        } else if (rest.startsWith(CLASSPATH)) {
            file = fromClasspath(rest.substring(CLASSPATH.length()));
        } else {
            throw new SQLException("URL '" + url + "': expected " + StrataDriver.PREFIX + "file:<path to a "
                    + "config-*.yaml> or " + StrataDriver.PREFIX + "classpath:<resource>", "08001");
        }
        if (!Files.isRegularFile(file)) {
            throw new SQLException("URL '" + url + "': no file " + file.toAbsolutePath(), "08001");
        }
        Path server = file.toAbsolutePath().resolveSibling("server.yaml");
        return new StrataUrl(url, file, Files.isRegularFile(server) ? server : null);
    }

    /** The configuration: the database file, and the server.yaml beside it or the defaults. */
    StrataConfig config() {
        DatabaseConfig database = ConfigLoader.loadDatabase(this.database);
        ServerConfig serverConfig = server != null ? ConfigLoader.loadServer(server) : EmbeddedStrata.defaultServer();
        return new StrataConfig(serverConfig, Map.of(database.databaseName(), database));
    }

    /**
     * A classpath resource as a file: itself when it is one, else a copy in a temporary folder (with a server.yaml
     * that is beside it on the classpath).
     */
    private static Path fromClasspath(String resource) throws SQLException {
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        ClassLoader loader = Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : StrataUrl.class.getClassLoader();
        URL found = loader.getResource(name);
        if (found == null) {
            throw new SQLException("no classpath resource '" + name + "'", "08001");
        }
        try {
            if (found.getProtocol().equals("file")) {
                return Path.of(found.toURI());
            }
            Path folder = Files.createTempDirectory("strata-jdbc");
            folder.toFile().deleteOnExit();
            Path copy = folder.resolve(Path.of(name).getFileName().toString());
            try (InputStream in = found.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            int slash = name.lastIndexOf('/');
            URL server = loader.getResource((slash < 0 ? "" : name.substring(0, slash + 1)) + "server.yaml");
            if (server != null) {
                try (InputStream in = server.openStream()) {
                    Files.copy(in, folder.resolve("server.yaml"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return copy;
        } catch (IOException | URISyntaxException e) {
            throw new SQLException("cannot read classpath resource '" + name + "': " + e.getMessage(), "08001", e);
        } catch (UncheckedIOException e) {
            throw new SQLException("cannot read classpath resource '" + name + "': " + e.getMessage(), "08001", e);
        }
    }
}
