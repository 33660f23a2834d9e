package io.strata.kernel.jdbc;

import io.strata.backend.jdbc.BinaryCells;
import io.strata.backend.jdbc.JdbcColumns;
import io.strata.backend.jdbc.JdbcExecutor;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A unit's result set as the kernel's {@link QueryResult}: rows pulled from the backend driver's {@link ResultSet} as
 * it streams them, each a {@link Row.Cells} of the values the merge compares (numbers as Longs, Floats and Doubles;
 * dates, times, decimals and text as text; binary values as bytes). Closing it closes the statement and hands its
 * connection back to its unit. In place ({@link #driverRows()}), the values stay in the driver's result set for the
 * host to read there: a one-unit answer needs no copy.
 */
final class JdbcRows implements QueryResult {

    private final Statement statement;
    private final ResultSet rows;
    private final List<ColumnMetadata> columns;
    private final Runnable onClose;
    private final boolean inPlace;
    /** What {@link #next()} answers in place: the row's values are the driver's. */
    private static final Row IN_PLACE = new Row.Cells(new Object[0]);
    private int statusFlags;
    private int warnings;
    private boolean closed;

    JdbcRows(Statement statement, ResultSet rows, Runnable onClose, boolean inPlace) throws SQLException {
        this.statement = statement;
        this.rows = rows;
        this.columns = JdbcColumns.describe(rows.getMetaData());
        this.onClose = onClose;
        this.inPlace = inPlace;
        this.statusFlags = JdbcExecutor.statusFlags(statement.getConnection());
    }

    @Override
    public List<ColumnMetadata> columns() {
        return columns;
    }

    @Override
    public Row next() {
        try {
            if (!rows.next()) {
                statusFlags = JdbcExecutor.statusFlags(statement.getConnection());
                warnings = JdbcExecutor.warnings(statement.getConnection());
                return null;
            }
            if (inPlace) {
                return IN_PLACE;
            }
            Object[] cells = new Object[columns.size()];
            for (int i = 0; i < cells.length; i++) {
                cells[i] = BinaryCells.read(rows, i + 1, columns.get(i));
            }
            return new Row.Cells(cells);
        } catch (SQLException e) {
            throw new ResultException(JdbcUnits.error(e));
        }
    }

    @Override
    public ResultSet driverRows() {
        return inPlace ? rows : null;
    }

    @Override
    public int statusFlags() {
        return statusFlags;
    }

    @Override
    public int warnings() {
        return warnings;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            statement.close(); // closes the rows: a streaming result's rest is read and dropped
        } catch (SQLException e) {
            // the connection broke: onClose hands it back, and the pool finds out when it checks it
        } finally {
            onClose.run();
        }
    }
}
