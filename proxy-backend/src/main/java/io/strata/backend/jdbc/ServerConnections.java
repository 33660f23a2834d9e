package io.strata.backend.jdbc;

import io.strata.config.DataSourceConfig;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Plain JDBC connections to a data source's server for Strata's own checks (health, lock waits). */
public final class ServerConnections {

    private ServerConnections() {
    }

    /**
     * A connection to the data source's server with no schema (the account needs no rights on the data, and a
     * dropped schema is not a dead server), connect and read timeouts of {@code timeoutMillis}.
     */
    public static Connection open(DataSourceConfig dataSource, String user, String password, long timeoutMillis)
            throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        props.setProperty("connectTimeout", String.valueOf(timeoutMillis));
        props.setProperty("socketTimeout", String.valueOf(timeoutMillis));
        props.setProperty("allowPublicKeyRetrieval", "true"); // a caching_sha2_password account without TLS
        String host = dataSource.host().contains(":") ? "[" + dataSource.host() + "]" : dataSource.host();
        // TLS as the data source's own connections have it: an account created REQUIRE SSL logs in here too
        String tls = dataSource.tls().urlParameters();
        return DriverManager.getConnection("jdbc:mariadb://" + host + ":" + dataSource.port() + "/"
                + (tls.isEmpty() ? "" : "?" + tls.substring(1)), props);
    }
}
