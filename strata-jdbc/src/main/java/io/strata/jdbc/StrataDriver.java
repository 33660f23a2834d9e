package io.strata.jdbc;

import io.strata.config.ConfigException;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * {@code jdbc:strata:file:conf/config-sharding.yaml} and {@code jdbc:strata:classpath:config-sharding.yaml}: Strata
 * in the application's JVM. The first connection of a URL starts an {@link EmbeddedStrata} on its file, which every
 * later connection of the same URL shares (its pools, its digests, its process list); a {@link StrataDataSource} owns
 * its own instead, and closes it. Registered with {@link DriverManager} by the service loader.
 */
public final class StrataDriver implements Driver {

    public static final String PREFIX = "jdbc:strata:";
    static final String NAME = "Strata embedded JDBC driver";
    static final int MAJOR = 0;
    static final int MINOR = 1;
    static final String VERSION = MAJOR + "." + MINOR;

    private static final Map<String, EmbeddedStrata> STARTED = new ConcurrentHashMap<>();

    static {
        try {
            DriverManager.registerDriver(new StrataDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A session of the URL's Strata. {@code user} and {@code password} (in {@code info}) are needed only when a
     * server.yaml beside the file lists users: they are then checked as a proxy login would be.
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        EmbeddedStrata strata = started(url);
        Properties given = info == null ? new Properties() : info;
        return strata.connect(given.getProperty("user"), given.getProperty("password"));
    }

    /** The URL's running Strata, started on first use. */
    static EmbeddedStrata started(String url) throws SQLException {
        EmbeddedStrata running = STARTED.get(url);
        if (running != null && !running.isClosed()) {
            return running;
        }
        synchronized (STARTED) {
            running = STARTED.get(url);
            if (running == null || running.isClosed()) {
                running = start(url);
                STARTED.put(url, running);
            }
            return running;
        }
    }

    /** Starts a Strata on the URL's file: a configuration mistake is the start's message (file, key, expectation). */
    static EmbeddedStrata start(String url) throws SQLException {
        StrataUrl parsed = StrataUrl.parse(url);
        try {
            return EmbeddedStrata.start(parsed.config(), null).url(url);
        } catch (ConfigException e) {
            throw new SQLException(e.getMessage(), "08001", e);
        }
    }

    @Override
    public boolean acceptsURL(String url) {
        return StrataUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        DriverPropertyInfo user = new DriverPropertyInfo("user", info == null ? null : info.getProperty("user"));
        user.description = "checked against server.yaml's users when it lists any";
        DriverPropertyInfo password = new DriverPropertyInfo("password", null);
        password.description = "the user's password";
        return new DriverPropertyInfo[]{user, password};
    }

    @Override
    public int getMajorVersion() {
        return MAJOR;
    }

    @Override
    public int getMinorVersion() {
        return MINOR;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw Unsupported.method("Driver.getParentLogger (Strata logs through SLF4J)");
    }
}
