package io.strata.backend.jdbc;

import io.strata.config.DataSourceConfig;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/** Which of some tables a data source's schema lacks: a one-off check at start, over a connection of its own. */
public final class TableCheck {

    private TableCheck() {
    }

    /**
     * The tables of {@code tables} not in the data source's schema (names compared without case).
     *
     * @throws SQLException when the data source cannot be asked
     */
    public static List<String> missing(DataSourceConfig dataSource, Collection<String> tables, int timeoutSeconds)
            throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", dataSource.username());
        props.setProperty("password", dataSource.password());
        props.setProperty("connectTimeout", String.valueOf(timeoutSeconds * 1000));
        Set<String> present = new HashSet<>();
        try (Connection c = DriverManager.getConnection(JdbcDataSources.mariadbUrl(dataSource), props);
             PreparedStatement st = c.prepareStatement(
                     "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")) {
            st.setQueryTimeout(timeoutSeconds);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    present.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (String table : tables) {
            if (!present.contains(table.toLowerCase(Locale.ROOT))) {
                missing.add(table);
            }
        }
        return missing;
    }
}
