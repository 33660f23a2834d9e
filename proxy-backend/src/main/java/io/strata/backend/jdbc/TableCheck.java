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

/**
 * A data source's tables and a table's columns, or which tables it lacks: one-off reads over a connection of their
 * own.
 */
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
        Set<String> present = new HashSet<>();
        tables(dataSource, timeoutSeconds).forEach(table -> present.add(table.toLowerCase(Locale.ROOT)));
        List<String> missing = new ArrayList<>();
        for (String table : tables) {
            if (!present.contains(table.toLowerCase(Locale.ROOT))) {
                missing.add(table);
            }
        }
        return missing;
    }

    /**
     * Every table (and view) of the data source's schema, as the server names them.
     *
     * @throws SQLException when the data source cannot be asked
     */
    public static List<String> tables(DataSourceConfig dataSource, int timeoutSeconds) throws SQLException {
        return names(dataSource, timeoutSeconds,
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()");
    }

    /** The columns of {@code table} in the data source's schema, in order; empty where there is no such table. */
    public static List<String> columns(DataSourceConfig dataSource, String table, int timeoutSeconds)
            throws SQLException {
        return names(dataSource, timeoutSeconds, "SELECT COLUMN_NAME FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION", table);
    }

    /** The first column of {@code sql}'s rows, asked on a connection of its own (no pool exists yet at start). */
    private static List<String> names(DataSourceConfig dataSource, int timeoutSeconds, String sql, String... values)
            throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", dataSource.username());
        props.setProperty("password", dataSource.password());
        props.setProperty("connectTimeout", String.valueOf(timeoutSeconds * 1000));
        List<String> names = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(JdbcDataSources.mariadbUrl(dataSource), props);
             PreparedStatement st = c.prepareStatement(sql)) {
            st.setQueryTimeout(timeoutSeconds);
            for (int i = 0; i < values.length; i++) {
                st.setString(i + 1, values[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }
}
