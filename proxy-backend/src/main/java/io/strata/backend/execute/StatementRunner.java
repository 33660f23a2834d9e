package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.relay.ResponseKind;
import io.strata.rule.RouteResult;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.concurrent.CompletableFuture;

/**
 * The seam between the command phase and an executor: runs one routed command for one client connection, holds the
 * backend connection the session keeps, and gives it back. One runner per client connection; its methods are called
 * on the client's event loop. The relay writes the backend's own packets to the client; every other answer goes
 * through the {@link Completion}, where the frontend makes the packets.
 */
public interface StatementRunner {

    /**
     * One routed command.
     *
     * @param schema  the backend schema it runs in when not its data source's own (a USE of a schema where the
     *                logical database exposes them), else null
     * @param payload the command packet's payload (retained for the runner, which releases it)
     * @param sql     the statement text of a COM_QUERY; of a COM_STMT_PREPARE and a prepared statement's commands,
     *                the statement's bytes one char per byte ({@link PreparedStatement#sql});
     *                else null
     * @param info    what the classifier found in {@code sql}, else null
     * @param next    the sequence id of the first response packet
     * @param routing what the rules routed the command by (to route it again)
     * @param retryable the command has no effect (a read): when its data source proves dead before the command
     *                  could run, it may go to another
     */
    public record Command(String database, String schema, String dataSource, ByteBuf payload, String sql,
                   ResponseKind kind, SqlStatementInfo info, int next, StatementContext routing, boolean retryable) {

        /** The same command for another data source, with {@code payload} (the runner's to release). */
        public Command to(String otherDataSource, boolean stillRetryable, ByteBuf otherPayload) {
            return new Command(database, schema, otherDataSource, otherPayload, sql, kind, info, next, routing,
                    stillRetryable);
        }

        /** The backend schema it runs in on a data source whose own is {@code dataSourceSchema}. */
        public String schemaOn(String dataSourceSchema) {
            return schema != null ? schema : dataSourceSchema;
        }
    }

    /** What a runner reports back to the command handler, on the client's event loop. */
    interface Completion {
        /** The client has the whole answer; the next command may run. */
        void done();

        /**
         * The whole answer is written to {@code answer} but not yet sent: the statement's end is recorded first
         * (digests, slow log, process list), so whatever the client does once it has the answer already sees it
         * counted; then the answer is flushed and the next command may run.
         */
        void done(ResultWriter answer);

        /** The command failed before or instead of an answer: the client gets {@code error}, then it is done. */
        void fail(int sequenceId, io.strata.protocol.ErrPacket error);

        /** The command succeeded with nothing to show: the client gets an OK with the session's status, then done. */
        void ok(int sequenceId);

        /**
         * Where an answer the executor makes itself (not relayed) is written: the frontend encodes it as packets
         * starting at {@code sequenceId}, rows in the binary protocol when {@code binary}. Called on the client's
         * loop; the writer is then used on the thread that runs the command.
         */
        ResultWriter results(int sequenceId, boolean binary);

        /** Whether the client has gone (nothing more is written). */
        boolean closed();

        /**
         * The command's data source was unreachable before the command could have had any effect: it leaves the
         * rotation and the command is routed again. Returns the command for its new data source (owning
         * {@code payload}), or null when there is no other (the caller then reports {@code why}).
         */
        Command reroute(Command command, ByteBuf payload, Throwable why);

        /**
         * LOAD DATA LOCAL INFILE: the client's next packets are its file, not commands; each goes to {@code sink},
         * which owns it and returns true at the empty packet that ends the file. Called on the client's loop.
         */
        void localData(LocalDataSink sink);
    }

    /** Takes the packets of a client's file for LOAD DATA LOCAL INFILE. */
    @FunctionalInterface
    interface LocalDataSink {
        /** @return true when {@code packet} was the last (empty) one */
        boolean accept(io.strata.protocol.MySQLFrame packet);
    }

    void run(Command command);

    /**
     * A route whose answer the executor makes rather than relays: several units (each on its data source, at once),
     * or one whose statement a rule rewrote. Their answers are merged as the route says and written through
     * {@link Completion#results}.
     *
     * @param statement the prepared statement a COM_STMT_EXECUTE runs, else null
     */
    void fanOut(Command command, RouteResult route, PreparedStatement statement);

    /** COM_STMT_PREPARE under the client statement id {@code clientId}. */
    void prepare(Command command, int clientId);

    /**
     * COM_STMT_EXECUTE ({@code kind} QUERY), COM_STMT_FETCH (FETCH), COM_STMT_RESET (STATUS) or
     * COM_STMT_SEND_LONG_DATA (null: no response) of a statement the session prepared.
     */
    void runStatement(Command command, PreparedStatement statement);

    /**
     * COM_STMT_RESET answered without a backend connection (nothing of the statement lives on one): whatever the
     * runner itself keeps of the statement (long data) goes.
     */
    default void statementReset(PreparedStatement statement) {
    }

    /** COM_STMT_CLOSE (no response). */
    void closeStatement(PreparedStatement statement);

    /** Resets (when it holds state) and returns the backend connection the session keeps. */
    CompletableFuture<Void> releaseSession();

    /** The client went away: whatever is running or kept is cleaned up. */
    void clientClosed();

    /**
     * A reload swapped the runtime, and the session starts its first command under the new one: from now on
     * connections come from these pools. Connections the session holds (a transaction, session state) stay with
     * the pool they came from and go back to it, which closes them if a reload retired it.
     *
     * @param backends the native pools (null without them); {@code jdbc} the HikariCP ones (null without them)
     */
    void runtimeChanged(io.strata.backend.Backends backends, io.strata.backend.jdbc.JdbcDataSources jdbc,
                        io.strata.config.StrataConfig config);

    /** The client channel's writability changed: a paused result may go on. */
    void writabilityChanged();

    /** The data sources the session holds backend connections on, and what for (what routing must respect). */
    java.util.Map<String, io.strata.rule.StatementContext.Hold> held();
}
