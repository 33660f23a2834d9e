package io.strata.backend.execute;

import io.strata.backend.result.StatementShape;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.Result;
import io.strata.backend.result.ResultSink;

import java.util.List;

/**
 * Where the JDBC executor writes one command's answer; the frontend makes the packets. It remembers what it wrote
 * that the session must follow (the last status flags, warnings, last insert id, and what ROW_COUNT() and
 * FOUND_ROWS() read afterwards). Used on the thread that runs the command, except {@link #writabilityChanged()}.
 */
public interface ResultWriter extends ResultSink {

    /**
     * A whole protocol-neutral answer (a merged one): a result set pulled row by row and ended, an OK, or an error.
     * A result set's rows are written as they are pulled; one that fails part way ends with the error.
     */
    void write(Result result) throws InterruptedException;

    /** COM_STMT_PREPARE's answer: the client's statement id and the statement's shape. */
    void prepared(int statementId, StatementShape shape);

    /** The columns of the rows that follow without definitions (a cursor's, for COM_STMT_FETCH). */
    void rowsOf(List<ColumnMetadata> columns);

    /** Sends what was written. */
    void flush();

    /** The client channel's writability changed: rows waiting for it may go on. */
    void writabilityChanged();

    /** The last status flags written, or -1 when none was. */
    int statusFlags();

    int warnings();

    long lastInsertId();

    /** What ROW_COUNT() reads after this answer. */
    long rowCount();

    /** What FOUND_ROWS() reads after it. */
    long foundRows();

    /** Whether anything reached the client yet. */
    boolean written();

    boolean failed();
}
