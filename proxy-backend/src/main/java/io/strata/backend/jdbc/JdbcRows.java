package io.strata.backend.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A unit's result set as a {@link QueryResult}: rows pulled from the backend driver's {@link ResultSet} as it
 * streams them, each a {@link Row.Cells} of the values the merge compares, read as the binary or the text protocol
 * has them ({@link UnitOptions.Cells}). Closing it closes the statement and hands its connection back to its unit.
 * In place ({@link #driverRows()}), the values stay in the driver's result set for the host to read there: a
 * one-unit answer needs no copy.
 */
public final class JdbcRows implements QueryResult {

    private final Statement statement;
    private final ResultSet rows;
    private final List<ColumnMetadata> columns;
    private final Runnable onClose;
    private final UnitOptions.Cells cells;
    /** What {@link #next()} answers in place: the row's values are the driver's. */
    private static final Row IN_PLACE = new Row.Cells(new Object[0]);
    private int statusFlags;
    private int warnings;
    private boolean closed;

    JdbcRows(Statement statement, ResultSet rows, Runnable onClose, UnitOptions options) throws SQLException {
        this.statement = statement;
        this.rows = rows;
        this.columns = options.textCollationId() == 0 ? JdbcColumns.describe(rows.getMetaData())
                : JdbcColumns.describe(rows.getMetaData(), options.textCollationId(), options.maxBytesPerChar());
        this.onClose = onClose;
        this.cells = options.cells();
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
            if (cells == UnitOptions.Cells.IN_PLACE) {
                return IN_PLACE;
            }
            Object[] values = new Object[columns.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = cells == UnitOptions.Cells.BINARY ? BinaryCells.read(rows, i + 1, columns.get(i))
                        : JdbcExecutor.textCell(rows, i + 1, columns.get(i));
            }
            return new Row.Cells(values);
        } catch (SQLException e) {
            throw new ResultException(JdbcUnits.error(e));
        }
    }

    @Override
    public ResultSet driverRows() {
        return cells == UnitOptions.Cells.IN_PLACE ? rows : null;
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
