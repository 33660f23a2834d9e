package io.strata.backend.result;

import java.util.List;

/**
 * Receives what a statement run over JDBC produced, result by result, on the thread that runs it (a virtual
 * thread: blocking for back-pressure is fine). Cell values are raw bytes, or Strings to be encoded in the client's
 * character set; null is SQL NULL. Status flags never carry MORE_RESULTS_EXISTS: whether another result follows is
 * known when the next result, {@link #finish()} or {@link #error} arrives.
 */
public interface ResultSink {

    /**
     * A result set's column definitions.
     *
     * @param statusFlags the server status as the statement left it, so far as the driver has read (the whole
     *                    result when it fits the first fetch)
     */
    void columns(List<ColumnMetadata> columns, int statusFlags);

    /**
     * A result set held open as a cursor (COM_STMT_EXECUTE with a cursor flag): its column definitions and one
     * terminator with CURSOR_EXISTS; the rows come with COM_STMT_FETCH.
     */
    void cursorOpened(List<ColumnMetadata> columns, int statusFlags, int warnings);

    /** One row; may block until the client can take more. */
    void row(Object[] cells) throws InterruptedException;

    /** The end of a result set's rows. */
    void endOfRows(int statusFlags, int warnings);

    /** A statement without a result set. */
    void update(long affectedRows, long lastInsertId, int statusFlags, int warnings);

    /** The statement produced all its results. */
    void finish();

    /** An error; nothing follows it. */
    void error(int errorCode, String sqlState, String message);
}
