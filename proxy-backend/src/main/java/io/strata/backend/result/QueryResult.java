package io.strata.backend.result;

import java.util.List;

/**
 * A result set: its columns, then its rows pulled one by one ({@link #next()}), streamed from where they are read,
 * never all in the heap. Pulled by one thread (a virtual thread: {@link #next()} may block until rows arrive).
 */
public non-sealed interface QueryResult extends Result, AutoCloseable {

    List<ColumnMetadata> columns();

    /**
     * The column definitions as a native backend sent them (payloads without headers), which the frontend passes
     * on untouched, or null when only {@link #columns()} describe them.
     */
    default List<byte[]> columnPackets() {
        return null;
    }

    /**
     * The backend driver's own result set when an in-process host reads the values there, in place (a one-unit
     * answer of the embedded driver): {@link #next()} then only moves it on and answers an empty row. Null when the
     * rows carry their values.
     */
    default java.sql.ResultSet driverRows() {
        return null;
    }

    /**
     * The next row, or null after the last. A {@link Row.Packet} is the caller's to release.
     *
     * @throws ResultException when reading the rows failed part way (the backend's error, or a lost connection)
     */
    Row next() throws InterruptedException;

    /** The server status after the last row (valid once {@link #next()} returned null). */
    int statusFlags();

    /** Warnings after the last row. */
    int warnings();

    /** Stops reading: rows not pulled are dropped, and whatever reads them is let go. */
    @Override
    void close();
}
