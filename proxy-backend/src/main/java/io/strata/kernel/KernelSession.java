package io.strata.kernel;

import io.strata.backend.execute.SessionState;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.result.ForwardingQueryResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.rule.RouteResult;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A session as a host without MySQL packets sees it: {@link #execute} takes a statement, runs it through the kernel's
 * stages ({@link StatementLife}: the runtime, the rule chain, counts, a query rule's time limit and mirrors) and the
 * host's {@link Executor}, and answers with an {@link Outcome}. Digests, the slow log and the process list see it as
 * they see a proxy session's statement. One statement at a time; the session's state is confined to its
 * {@link SessionThread}, on which every stage runs whatever thread calls. The executor is called in a stage and must
 * not block there: it answers with a stage it completes later (an embedded host runs the backend work on the
 * caller's thread once {@link #execute} has returned).
 */
public final class KernelSession implements AutoCloseable {

    private final Kernel kernel;
    private final Session session;
    private final SessionState state;
    private final SessionThread thread;
    private final StatementLife life;
    private final Executor executor;

    public KernelSession(Kernel kernel, Session session, SessionThread thread, Executor executor) {
        this.kernel = kernel;
        this.session = session;
        this.state = session.state();
        this.thread = thread;
        this.life = new StatementLife(kernel, session, thread);
        this.executor = executor;
    }

    public Session session() {
        return session;
    }

    /**
     * Runs {@code statement} in the session's logical database. Completes with its outcome, never exceptionally;
     * with {@link Outcome.Rows} the statement ends (is counted, logged, leaves the process list) when the host closes
     * the rows, which it must.
     */
    public CompletableFuture<Outcome> execute(Statement statement) {
        CompletableFuture<Outcome> answer = new CompletableFuture<>();
        onLoop(() -> start(statement, answer));
        return answer;
    }

    /** The session ends: it leaves the registry, and a timer still set goes. */
    @Override
    public void close() {
        onLoop(() -> {
            life.close();
            kernel.sessions().remove(session);
        });
    }

    private void start(Statement statement, CompletableFuture<Outcome> answer) {
        SqlStatementInfo info = SqlClassifier.classify(statement.sql());
        life.starts("Query", statement.sql());
        String database = state.database();
        RouteResult route;
        try {
            if (database == null) {
                throw ErrorCode.NO_DB.exception();
            }
            life.statementIs(info, database, null);
            Supplier<List<Object>> parameters = statement.isPrepared() ? statement::parameters : null;
            StatementContext routing = new StatementContext(database, info,
                    state.inTransaction() || !state.autocommit(), executor.held(), false, session.routeState(),
                    parameters, false);
            route = life.route(routing, true, parameters);
        } catch (RuntimeException refused) {
            answer.complete(end(new Outcome.Failure(MySQLException.toErrPacket(refused))));
            return;
        }
        CompletableFuture<Outcome> ran;
        try {
            ran = executor.execute(new Executor.Routed(statement, info, database, route, life.runtime()))
                    .toCompletableFuture();
        } catch (RuntimeException failed) {
            ran = CompletableFuture.failedFuture(failed);
        }
        ran.whenComplete((outcome, error) -> onLoop(() -> answer.complete(error != null
                ? end(new Outcome.Failure(MySQLException.toErrPacket(unwrap(error))))
                : answered(outcome, info))));
    }

    /** The executor answered: what the answer says is counted, and the statement ends now or with its rows. */
    private Outcome answered(Outcome outcome, SqlStatementInfo info) {
        return switch (outcome) {
            case Outcome.Rows rows -> new Outcome.Rows(new CountedRows(rows.rows()));
            case Outcome.Update update -> {
                UpdateResult ok = update.update();
                state.afterStatement(ok.statusFlags(), ok.lastInsertId(), ok.warnings(), info, false);
                state.counted(info, ok.affectedRows(), ResponseSummary.UNCHANGED);
                yield end(outcome);
            }
            // a query rule's time limit interrupted it: the server's own timeout error, not KILL's 1317
            case Outcome.Failure failure -> end(state.interruption() != null
                    ? new Outcome.Failure(state.interruption()) : failure);
            case Outcome.Relayed relayed -> end(relayed);
        };
    }

    private Outcome end(Outcome outcome) {
        if (outcome instanceof Outcome.Failure) {
            state.answerFailed(true);
            state.counted(-1, ResponseSummary.UNCHANGED); // ROW_COUNT() after an error, as the server says
        }
        life.ends();
        return outcome;
    }

    private void onLoop(Runnable step) {
        thread.execute(step);
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * The executor's rows as the host pulls them, counted; closing them ends the statement, as a stage of the session,
     * before close returns. Pulled by one thread, the host's.
     */
    private final class CountedRows extends ForwardingQueryResult {
        private final AtomicBoolean ended = new AtomicBoolean();
        private long count;
        private boolean failed;

        CountedRows(QueryResult rows) {
            super(rows);
        }

        @Override
        public Row next() throws InterruptedException {
            try {
                Row row = rows.next();
                if (row != null) {
                    count++;
                }
                return row;
            } catch (ResultException e) {
                failed = true;
                throw e;
            }
        }

        @Override
        public void close() {
            rows.close();
            if (ended.compareAndSet(false, true)) {
                long sent = count;
                boolean error = failed;
                int status = rows.statusFlags();
                int warnings = rows.warnings();
                Runnable end = () -> {
                    state.afterStatement(status, 0, warnings, null, error);
                    state.counted(-1, sent); // ROW_COUNT() is -1 after a result set, FOUND_ROWS() its rows
                    life.ends();
                };
                thread.executeAndWait(end); // once closed, the statement is counted: no race
            }
        }
    }
}
