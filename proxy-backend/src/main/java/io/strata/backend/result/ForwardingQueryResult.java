package io.strata.backend.result;

import java.util.List;

/**
 * A result set that passes another's through and changes part of it (its rows, or what closing it does): every
 * method forwards to {@link #rows} until a subclass says otherwise.
 */
public abstract class ForwardingQueryResult implements QueryResult {

    protected final QueryResult rows;

    protected ForwardingQueryResult(QueryResult rows) {
        this.rows = rows;
    }

    @Override
    public List<ColumnMetadata> columns() {
        return rows.columns();
    }

    @Override
    public List<byte[]> columnPackets() {
        return rows.columnPackets();
    }

    @Override
    public java.sql.ResultSet driverRows() {
        return rows.driverRows();
    }

    @Override
    public Row next() throws InterruptedException {
        return rows.next();
    }

    @Override
    public int statusFlags() {
        return rows.statusFlags();
    }

    @Override
    public int warnings() {
        return rows.warnings();
    }

    @Override
    public void close() {
        rows.close();
    }
}
