package io.strata.backend.jdbc;

import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.ErrPacket;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one unit of a route on its connection with MariaDB Connector/J: prepared (server-side, cached per
 * connection) when it has values, else as text. A result set is streamed by the {@link JdbcRows} it answers with; an
 * update is read at once, with its generated keys. The embedded driver and the proxy's JDBC executor both run their
 * units here.
 */
public final class JdbcUnits {

    private JdbcUnits() {
    }

    /** What an update left besides its count: the keys it generated, and its warnings (null for none). */
    public record UpdateDetails(List<Long> keys, SQLWarning warnings) {
    }

    /**
     * @param values  the values of the statement's {@code ?}, or null to run it as text
     * @param details told what an update left (JDBC's getGeneratedKeys and getWarnings), or null when nobody asks
     */
    public static Result run(UnitConnection lease, String sql, List<Object> values, UnitOptions options,
                             Consumer<UpdateDetails> details) {
        Connection connection = lease.connection();
        java.sql.Statement running = null;
        lease.opened();
        try {
            boolean rows;
            if (values != null) {
                PreparedStatement prepared = connection.prepareStatement(sql, java.sql.Statement.RETURN_GENERATED_KEYS);
                running = prepared;
                for (int i = 0; i < values.size(); i++) {
                    if (values.get(i) == null) {
                        prepared.setNull(i + 1, Types.NULL);
                    } else {
                        prepared.setObject(i + 1, values.get(i));
                    }
                }
                apply(prepared, options);
                lease.running(prepared);
                rows = prepared.execute();
            } else {
                running = connection.createStatement();
                apply(running, options);
                lease.running(running);
                rows = running.execute(sql, java.sql.Statement.RETURN_GENERATED_KEYS);
            }
            lease.stopped(running);
            if (rows) {
                return new JdbcRows(running, running.getResultSet(), lease::done, options);
            }
            long affected = running.getLargeUpdateCount();
            List<Long> generated = details != null || affected > 0 ? generatedKeys(running) : List.of();
            int warnings = JdbcExecutor.warnings(connection);
            if (details != null) {
                // read only when the server counted some: SHOW WARNINGS is a round trip of its own
                details.accept(new UpdateDetails(generated, warnings > 0 ? running.getWarnings() : null));
            }
            UpdateResult update = new UpdateResult(affected, generated.isEmpty() ? 0 : generated.get(0),
                    JdbcExecutor.statusFlags(connection), warnings, "");
            running.close();
            lease.done();
            return update;
        } catch (SQLException e) {
            if (running != null) {
                lease.stopped(running);
                try {
                    running.close();
                } catch (SQLException ignored) {
                    // the statement's error is the one to report
                }
            }
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                lease.lost();
            }
            lease.done();
            return new ErrorResult(error(e));
        }
    }

    private static void apply(java.sql.Statement statement, UnitOptions options)
            throws SQLException {
        if (options.fetchSize() > 0) {
            statement.setFetchSize(options.fetchSize());
        }
        if (options.maxRows() > 0) {
            statement.setLargeMaxRows(options.maxRows());
        }
        if (options.queryTimeoutSeconds() > 0) {
            statement.setQueryTimeout(options.queryTimeoutSeconds());
        }
    }

    private static List<Long> generatedKeys(java.sql.Statement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            List<Long> generated = new ArrayList<>(1);
            while (keys.next()) {
                long key = keys.getLong(1);
                if (key != 0) {
                    generated.add(key);
                }
            }
            return generated;
        }
    }

    /** A backend's error as the server said it (without the driver's "(conn=N)" prefix). */
    public static ErrPacket error(SQLException e) {
        return new ErrPacket(e.getErrorCode() == 0 ? 1105 : e.getErrorCode(),
                e.getSQLState() == null ? "HY000" : e.getSQLState(), message(e));
    }

    public static String message(SQLException e) {
        return JdbcExecutor.message(e);
    }
}
