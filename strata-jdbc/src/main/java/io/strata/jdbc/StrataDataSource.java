package io.strata.jdbc;

import io.strata.config.ConfigException;
import io.strata.config.StrataConfig;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

/**
 * Strata as a {@link DataSource}: from a {@code config-*.yaml} (or its URL), or from the configuration records the
 * proxy's API takes. It starts its own embedded Strata on the first connection and stops it on {@link #close()}.
 *
 * <pre>{@code
 * try (StrataDataSource strata = new StrataDataSource(Path.of("conf/config-sharding.yaml"))) {
 *     try (Connection c = strata.getConnection()) { ... }
 * }
 * }</pre>
 */
public final class StrataDataSource implements DataSource, AutoCloseable {

    private String url;
    private StrataConfig config;
    private String database;
    private String user;
    private String password;
    private volatile EmbeddedStrata strata;
    private int loginTimeout;

    /** Set up later with {@link #setUrl}, as pools and containers do. */
    public StrataDataSource() {
    }

    public StrataDataSource(Path configFile) {
        this.url = StrataDriver.PREFIX + StrataUrl.FILE + configFile;
    }

    /** @param database the logical database sessions start in (null: the first) */
    public StrataDataSource(StrataConfig config, String database) {
        this.config = config;
        this.database = database;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    /** The running instance, started now if not yet. */
    public EmbeddedStrata strata() throws SQLException {
        EmbeddedStrata running = strata;
        if (running != null) {
            return running;
        }
        synchronized (this) {
            if (strata == null) {
                if (config != null) {
                    try {
                        strata = EmbeddedStrata.start(config, database);
                    } catch (ConfigException e) {
                        throw new SQLException(e.getMessage(), "08001", e);
                    }
                } else if (url != null) {
                    strata = StrataDriver.start(url);
                } else {
                    throw new SQLException("a StrataDataSource needs a URL or a configuration", "08001");
                }
            }
            return strata;
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        return strata().connect(user, password);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return strata().connect(username, password);
    }

    /** Ends every session and closes the backend pools. */
    @Override
    public void close() {
        EmbeddedStrata running = strata;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // Strata logs through SLF4J
    }

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw Unsupported.method("DataSource.getParentLogger (Strata logs through SLF4J)");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
