package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundInvoker;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseParser;
import io.strata.backend.relay.ResponseSummary;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.Capabilities;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketRunDecoder;
import io.strata.protocol.ServerStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One authenticated native connection to a backend server, carrying one command at a time. It knows the session state
 * it holds on the server (schema, character set, multi-statement option) so a pool can hand it to any client session
 * and make that state equal first, and whether anything untracked lives on it ({@link #markDirty()}).
 *
 * <p>Threads: commands may be started from any thread; packets are handled on the channel's event loop.
 */
public final class BackendConnection {

    private static final Logger LOG = LoggerFactory.getLogger(BackendConnection.class);
    private static final String AS_NAMES_GAVE = ParseState.AS_NAMES_GAVE;

    /** Statements kept prepared per connection; 64 connections x 128 stay under MariaDB's default limit of 16382. */
    static final int MAX_STATEMENTS = 128;
    /** Statements of one SQL kept side by side, each parsed in another character set, collation or sql_mode. */
    static final int MAX_PARSE_STATES = 4;

    private final Channel channel;
    /** Where framed packets are written from: past the encoder. */
    private final ChannelOutboundInvoker wire;
    private final String dataSource;
    private final int capabilities;
    private final int flavor;
    private final long connectionId;
    private final String serverVersion;
    private final boolean transactionNames;
    private final long createdNanos = System.nanoTime();
    /** When the last response completed: idle time and lifetime are judged from it (one clock read per command). */
    private volatile long lastUsedNanos = createdNanos;
    /** When the command in flight was sent, and whether any of its answer came yet (both on the event loop). */
    private long sentNanos;
    private boolean answered;
    /** Why Strata closed this connection itself, for the command it cut; null while the server is the one to blame. */
    private String abortReason;
    private volatile String schema;
    /** What SET NAMES last took here ({@code x} or {@code x COLLATE y}); null when unknown. */
    private volatile String names = BackendConnector.DEFAULT_CHARSET;
    private volatile boolean multiStatements = true;
    /** The server's autocommit, as the status flags of its last response said (a new session's is on). */
    private volatile boolean autocommit = true;
    /** Whether a transaction is open on the server session, as the status flags of its last response said. */
    private volatile boolean inTransaction;
    private volatile boolean dirty;
    /**
     * How many times the pool took this connection back. A session that finds the same count twice held the
     * connection in between, so no other session's statement ran there.
     */
    private int lease;
    /** The client session (its connection id) this connection runs statements for; 0 while pooled. */
    private volatile long heldBy;
    /** Since when, and by which stack, the connection is lent (leak detection on), else null. */
    private volatile Lending lending;
    /** Chosen to break a deadlock across servers: the statement it runs is being killed (see the deadlock package). */
    private volatile boolean deadlockVictim;
    private final Map<String, String> variables = new HashMap<>();
    private volatile BackendPool pool;
    private final ResponseParser reusableParser = new ResponseParser(ResponseKind.STATUS, false);
    private ResponseParser parser;
    private ResponseListener listener;
    /**
     * Statements by SQL, each the head of a chain of the same SQL in other parse states. Recency is a stamp on each
     * statement rather than a LinkedHashMap's access order: that order relinks neighbouring entries on every lookup,
     * cold lines written per execute, and only eviction needs it.
     */
    private final Map<String, BackendStatement> statements = new HashMap<>();
    /**
     * Counts lookups that found a statement: the stamp of the last use. It and the statement cache are guarded by this
     * connection's monitor, whose line a command touches anyway (the map's own would be one more cold line).
     */
    private long statementUses;
    private int statementCount;

    BackendConnection(Channel channel, String dataSource, int capabilities, int flavor, long connectionId,
                      String serverVersion, String schema) {
        this.channel = channel;
        this.wire = PacketEncoder.wire(channel);
        this.dataSource = dataSource;
        this.capabilities = capabilities;
        this.flavor = flavor;
        this.connectionId = connectionId;
        this.serverVersion = serverVersion;
        this.transactionNames = StateSync.transactionNames(serverVersion);
        this.schema = schema;
    }

    /**
     * Sends one command and relays its response to {@code listener}. {@code payload} is released by this call.
     */
    public void execute(ByteBuf payload, ResponseKind kind, ResponseListener listener) {
        if (channel.eventLoop().inEventLoop()) {
            start(payload, kind, listener);
        } else {
            channel.eventLoop().execute(() -> start(payload, kind, listener));
        }
    }

    private void start(ByteBuf payload, ResponseKind kind, ResponseListener listener) {
        if (!channel.isActive()) {
            payload.release();
            listener.onFailure(ErrorCode.BACKEND_LOST.exception(described(), "connection closed"));
            return;
        }
        if (this.listener != null) {
            payload.release();
            listener.onFailure(new IllegalStateException("backend connection " + connectionId + " is busy"));
            return;
        }
        this.parser = reusableParser.reset(kind, deprecateEof());
        this.listener = listener;
        this.sentNanos = System.nanoTime();
        this.answered = false;
        if (!channel.config().isAutoRead()) { // a read, where setting it always is an atomic swap per command
            channel.config().setAutoRead(true);
        }
        writeCommand(payload);
    }

    /**
     * Sends a command that has no response (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA). {@code payload} is released by
     * this call.
     */
    public void send(ByteBuf payload) {
        writeCommand(payload);
    }

    /** A framed command goes out past the encoder ({@link PacketEncoder#wire}); a large one is split by it. */
    private void writeCommand(ByteBuf payload) {
        Object command = PacketEncoder.command(channel.alloc(), payload);
        (command instanceof ByteBuf ? wire : channel).writeAndFlush(command, channel.voidPromise());
    }

    /**
     * The statement prepared on this connection for exactly this SQL in its present character set and sql_mode, or
     * null: what answers a prepare, whose response describes the columns in the present character_set_results too.
     */
    public BackendStatement statement(String sql) {
        synchronized (this) {
            for (BackendStatement statement = statements.get(sql); statement != null;
                 statement = statement.otherState) {
                if (inThisState(statement)) {
                    statement.lastUse = ++statementUses;
                    return statement;
                }
            }
            return null;
        }
    }

    /**
     * The statement prepared on this connection for exactly this SQL in {@code parsedIn}, or null: what runs an
     * execute of a statement a session prepared in that state, whatever state the connection has now.
     */
    public BackendStatement statement(String sql, ParseState parsedIn) {
        synchronized (this) {
            for (BackendStatement statement = statements.get(sql); statement != null;
                 statement = statement.otherState) {
                if (statement.parsedIn().same(parsedIn)) {
                    statement.lastUse = ++statementUses;
                    return statement;
                }
            }
            return null;
        }
    }

    /** The state a statement prepared here now is parsed in. */
    public ParseState parseState() {
        return new ParseState(names, setByNames("collation_connection"), variables.get("sql_mode"));
    }

    /** Whether the statement was prepared in the character set and sql_mode this connection has now. */
    private boolean inThisState(BackendStatement statement) {
        return statement.parsedIn().is(names, setByNames("collation_connection"), variables.get("sql_mode"))
                && java.util.Objects.equals(statement.results, setByNames("character_set_results"));
    }

    /** A variable of {@link StateSync#SET_BY_NAMES}: its value here, which may be NULL, or {@link #AS_NAMES_GAVE}. */
    private String setByNames(String name) {
        return variables.isEmpty() ? AS_NAMES_GAVE : variables.getOrDefault(name, AS_NAMES_GAVE);
    }

    /**
     * Whether {@code statement} (what a lookup here returned before, remembered by the caller) is still in this
     * connection's cache; if so it is stamped as used, as a lookup would. Saves the lookup by SQL, whose table and
     * entry are cold cache lines by the time a session's next execute comes. Its parse state was the caller's then,
     * and a cached statement's never changes.
     */
    public boolean holds(BackendStatement statement) {
        if (statement.cachedOn != this) {
            return false;
        }
        synchronized (this) {
            if (statement.cachedOn != this) {
                return false;
            }
            statement.lastUse = ++statementUses;
            return true;
        }
    }

    /**
     * Remembers a statement prepared here, in the connection's present state. It takes the place of one of the same
     * SQL parsed in the same state, and stands beside those parsed in others (up to {@link #MAX_PARSE_STATES}), so
     * that sessions executing one SQL in two sql_modes or character sets do not prepare it again at every turn. The
     * cache is bounded: the least recently used statement is closed on the server (max_prepared_stmt_count is a
     * server-wide limit shared by every connection).
     */
    public void statement(String sql, BackendStatement statement) {
        List<BackendStatement> closed = new ArrayList<>(1);
        synchronized (this) {
            statement.lastUse = ++statementUses;
            statement.parsedIn = parseState();
            statement.results = setByNames("character_set_results");
            int states = 0;
            BackendStatement eldest = null;
            for (BackendStatement other = statements.get(sql), next; other != null; other = next) {
                next = other.otherState;
                if (other == statement || other.parsedIn().same(statement.parsedIn)) {
                    remove(sql, other);
                    if (other != statement) {
                        closed.add(other);
                    }
                } else {
                    states++;
                    eldest = eldest == null || other.lastUse < eldest.lastUse ? other : eldest;
                }
            }
            if (states >= MAX_PARSE_STATES) {
                remove(sql, eldest);
                closed.add(eldest);
            }
            statement.otherState = statements.put(sql, statement);
            statement.cachedOn = this;
            statementCount++;
            if (statementCount > MAX_STATEMENTS) {
                closed.add(removeLeastRecentlyUsed());
            }
        }
        closed.forEach(this::closeStatement);
    }

    /** Takes a statement out of the chain of its SQL; caller holds the monitor. */
    private void remove(String sql, BackendStatement statement) {
        BackendStatement head = statements.get(sql);
        if (head == statement) {
            if (statement.otherState == null) {
                statements.remove(sql);
            } else {
                statements.put(sql, statement.otherState);
            }
        } else {
            BackendStatement before = head;
            while (before.otherState != statement) {
                before = before.otherState;
            }
            before.otherState = statement.otherState;
        }
        uncache(statement);
    }

    /**
     * Leaves a statement out of the cache's books: in no chain, held by no connection, not counted. Caller holds the
     * monitor.
     */
    private void uncache(BackendStatement statement) {
        statement.otherState = null;
        statement.cachedOn = null;
        statementCount--;
    }

    /** Removes the statement used longest ago; a scan, as it runs only when a new statement fills the cache. */
    private BackendStatement removeLeastRecentlyUsed() {
        String eldestSql = null;
        BackendStatement eldest = null;
        for (Map.Entry<String, BackendStatement> entry : statements.entrySet()) {
            for (BackendStatement statement = entry.getValue(); statement != null; statement = statement.otherState) {
                if (eldest == null || statement.lastUse < eldest.lastUse) {
                    eldest = statement;
                    eldestSql = entry.getKey();
                }
            }
        }
        remove(eldestSql, eldest);
        return eldest;
    }

    /** Closes the statements of this SQL on the server and forgets them. */
    public void forgetStatement(String sql) {
        List<BackendStatement> closed = new ArrayList<>(1);
        synchronized (this) {
            detach(statements.remove(sql), closed);
        }
        closed.forEach(this::closeStatement);
    }

    /**
     * Unlinks a chain taken out of the map, so that none of its statements is held here any more, and adds them to
     * {@code into} when not null. Caller holds the monitor.
     */
    private void detach(BackendStatement head, List<BackendStatement> into) {
        for (BackendStatement statement = head, next; statement != null; statement = next) {
            next = statement.otherState;
            uncache(statement);
            if (into != null) {
                into.add(statement);
            }
        }
    }

    private void closeStatement(BackendStatement statement) {
        ByteBuf close = channel.alloc().buffer(5).writeByte(CommandType.COM_STMT_CLOSE.code())
                .writeIntLE((int) statement.id());
        send(close);
    }

    /**
     * Called by the channel handler on the event loop with a run of whole packets. Each packet is followed by the
     * parser in place; the run goes to the listener whole when it takes runs (the relay: one write per read, however
     * many rows), else packet by packet. Bytes after the end of the response break the protocol: the connection
     * closes.
     */
    void onPackets(ByteBuf run) {
        answered = true;
        ResponseListener current = listener;
        if (current == null) {
            run.release();
            channel.close();
            return;
        }
        boolean whole = current.takesRuns();
        boolean complete = false;
        try {
            for (int index = run.readerIndex(); index < run.writerIndex(); ) {
                if (complete) {
                    throw new IllegalStateException("bytes after the end of the response");
                }
                int size = PacketRunDecoder.packetSize(run, index);
                complete = parser.accept(run, index);
                if (!whole) {
                    current.onPacket(run.retainedSlice(index, size));
                }
                index += size;
            }
        } catch (RuntimeException e) {
            LOG.warn("backend connection {} of {} broke the protocol, closing it: {}", connectionId, dataSource,
                    e.toString());
            run.release();
            channel.close();
            return;
        }
        if (whole) {
            current.onPackets(run, parser.lastSequenceId());
        } else {
            run.release();
        }
        if (parser.localInfileRequested() && !localInfile(current)) {
            return;
        }
        if (complete) {
            ResponseSummary summary = parser.summary();
            if (summary.statusFlags() >= 0) { // a lone ERR says nothing of them
                autocommit = (summary.statusFlags() & ServerStatus.AUTOCOMMIT) != 0;
                inTransaction = (summary.statusFlags() & ServerStatus.IN_TRANS) != 0;
            }
            parser = null;
            listener = null;
            lastUsedNanos = System.nanoTime();
            current.onComplete(summary);
        } else if (!current.writable()) {
            channel.config().setAutoRead(false);
            if (current.writable()) {
                // Its reader, on another thread, drained the queue between the two calls, and its resume may have
                // come before our stop: asking again leaves no stopped connection that nobody will resume.
                channel.config().setAutoRead(true);
            }
        }
    }

    /** Hands the server's request for the client's file to the listener; false when it cannot take one. */
    private boolean localInfile(ResponseListener current) {
        try {
            current.onLocalInfileRequest();
            return true;
        } catch (RuntimeException e) {
            LOG.warn("backend connection {} of {} asked for a local file nobody can send, closing it: {}",
                    connectionId, dataSource, e.toString());
            channel.close();
            return false;
        }
    }

    void onReadComplete() {
        ResponseListener current = listener;
        if (current != null) {
            current.onReadComplete();
        }
    }

    void onClosed() {
        ResponseListener current = listener;
        listener = null;
        parser = null;
        if (current != null) {
            current.onFailure(ErrorCode.BACKEND_LOST.exception(described(),
                    abortReason != null ? abortReason : "the server closed the connection"));
        }
    }

    /**
     * Closes the connection when its command has waited at least {@code patienceNanos} without a byte of answer: the
     * health check found the server unreachable, so the answer may never come (a server that hangs, or a network that
     * swallows packets, keeps the socket open). The command fails as for a closed connection, so a read goes to
     * another data source. Runs on the connection's event loop; a command already answering is left to finish.
     */
    public void abortIfUnanswered(long patienceNanos, String why) {
        channel.eventLoop().execute(() -> {
            if (listener != null && !answered && System.nanoTime() - sentNanos >= patienceNanos) {
                abortReason = why;
                LOG.warn("backend connection {} of {}: no answer in {} ms and {}; closing it", connectionId,
                        dataSource, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNanos),
                        why);
                channel.close();
            }
        });
    }

    /**
     * One packet of the client's file for LOAD DATA LOCAL INFILE (the empty one ends it), with the sequence id the
     * client gave it. Sent as it came; the caller stops reading the client while {@link #writable()} is false, and
     * the listener hears when to go on ({@link ResponseListener#onBackendWritable}).
     */
    public void sendLocalData(MySQLFrame packet) {
        channel.writeAndFlush(packet, channel.voidPromise());
    }

    /** Whether the connection's socket takes more without buffering in Strata. */
    public boolean writable() {
        return channel.isWritable();
    }

    void writabilityChanged() {
        ResponseListener current = listener;
        if (current != null && channel.isWritable()) {
            current.onBackendWritable();
        }
    }

    /** Reading resumes after back-pressure lifted (the client became writable again). */
    public void resume() {
        channel.config().setAutoRead(true);
    }

    /**
     * Closes the connection; with no command in flight it says goodbye first (COM_QUIT), as a client should, so that
     * the server logs no aborted connection.
     */
    public void close() {
        if (listener != null || !channel.isActive()) {
            channel.close();
            return;
        }
        ByteBuf quit = channel.alloc().buffer(1).writeByte(CommandType.COM_QUIT.code());
        Object command = PacketEncoder.command(channel.alloc(), quit);
        (command instanceof ByteBuf ? wire : channel).writeAndFlush(command).addListener(ChannelFutureListener.CLOSE);
    }

    public boolean isActive() {
        return channel.isActive();
    }

    public boolean busy() {
        return listener != null;
    }

    /** How messages name its data source: with its logical database once a pool holds it. */
    private String described() {
        return pool != null ? pool.config().describe() : DataSourceConfig.describe("", dataSource);
    }

    /** The pool this connection came from, where it goes back. */
    public BackendPool pool() {
        return pool;
    }

    void pool(BackendPool pool) {
        this.pool = pool;
    }

    public Channel channel() {
        return channel;
    }

    public String dataSource() {
        return dataSource;
    }

    public long connectionId() {
        return connectionId;
    }

    public String serverVersion() {
        return serverVersion;
    }

    /** Whether the server has transaction_isolation and transaction_read_only ({@link StateSync#transactionNames}). */
    public boolean transactionNames() {
        return transactionNames;
    }

    public int capabilities() {
        return capabilities;
    }

    /** The client flavor it was opened for ({@link Capabilities#FLAVOR_MASK} and Strata's own flavor bits). */
    public int flavor() {
        return flavor;
    }

    public boolean deprecateEof() {
        return (capabilities & Capabilities.CLIENT_DEPRECATE_EOF) != 0; // a constant: per command, no call
    }

    public long createdNanos() {
        return createdNanos;
    }

    public long lastUsedNanos() {
        return lastUsedNanos;
    }

    public String schema() {
        return schema;
    }

    public void schema(String schema) {
        this.schema = schema;
    }

    public String names() {
        return names;
    }

    /** After SET NAMES, which sets character_set_results and collation_connection too. */
    public void names(String names) {
        this.names = names;
        variables.keySet().removeAll(StateSync.SET_BY_NAMES);
    }

    public boolean multiStatements() {
        return multiStatements;
    }

    public void multiStatements(boolean on) {
        this.multiStatements = on;
    }

    /**
     * Whether the server session commits each statement: followed from every response's status flags (a
     * {@code SET autocommit} of a client's or of {@link StateSync}'s, a COM_RESET_CONNECTION), so that a session
     * with autocommit off can borrow any connection between its transactions.
     */
    public boolean autocommit() {
        return autocommit;
    }

    /**
     * Whether a transaction is open on the server session (SERVER_STATUS_IN_TRANS in its last response's status): a
     * session keeps such a connection until it ends, and a COMMIT or ROLLBACK must reach it.
     */
    public boolean inTransaction() {
        return inTransaction;
    }

    /** The tracked session variables set on this connection's server session (absent: the server default). */
    public Map<String, String> variables() {
        return variables;
    }

    /** See {@link #lease}; published to the next borrower by the pool's lock. */
    public int lease() {
        return lease;
    }

    void returned() {
        Lending lent = this.lending;
        if (lent != null) {
            this.lending = null;
            if (lent.reported()) {
                LoggerFactory.getLogger(LeakDetector.class).info("Connection {} of data source {}, reported as "
                        + "leaked, was returned", connectionId, dataSource);
            }
        }
        lease++;
        heldBy = 0;
        deadlockVictim = false;
    }

    /** A lending of the connection as leak detection sees it. */
    record Lending(long sinceNanos, Throwable borrowedAt, boolean reported) {
    }

    /** Leak detection: the connection is lent from now, to the stack in {@code borrowedAt}. */
    void lent(long nanos, Throwable borrowedAt) {
        this.lending = new Lending(nanos, borrowedAt, false);
    }

    /** The current lending when leak detection is on, else null. */
    Lending lending() {
        return lending;
    }

    /** Marks {@code lent} reported, unless the connection was returned (or lent again) meanwhile. */
    synchronized boolean reportLeak(Lending lent) {
        if (this.lending != lent) {
            return false;
        }
        this.lending = new Lending(lent.sinceNanos(), lent.borrowedAt(), true);
        return true;
    }

    /** The client session (its connection id) holding this connection, 0 for none: whose locks are whose. */
    public long heldBy() {
        return heldBy;
    }

    /** A session is about to run a statement here (a write only when the holder changes). */
    public void heldBy(long session) {
        if (heldBy != session) {
            heldBy = session;
        }
    }

    /** The deadlock check chose this connection's waiting statement to break a cycle of lock waits across servers. */
    public void markDeadlockVictim() {
        deadlockVictim = true;
    }

    public boolean deadlockVictim() {
        return deadlockVictim;
    }

    /** Whether the connection was chosen as a deadlock victim since last asked (the mark goes). */
    public boolean takeDeadlockVictim() {
        if (!deadlockVictim) {
            return false;
        }
        deadlockVictim = false;
        return true;
    }

    /** Something untracked (a user variable, a temporary table, a lock...) now lives on this connection. */
    public void markDirty() {
        this.dirty = true;
    }

    public boolean dirty() {
        return dirty;
    }

    /**
     * After COM_RESET_CONNECTION: the server forgot what sessions left. Schema and character set are then unknown
     * to us (set again before the next use); the multi-statement option survives a reset, so it stays as it was.
     */
    public void resetState() {
        this.dirty = false;
        this.variables.clear();
        this.schema = null;
        this.names = null;
        synchronized (this) {
            statements.values().forEach(head -> detach(head, null));
            statements.clear(); // COM_RESET_CONNECTION closes every prepared statement
        }
    }

    @Override
    public String toString() {
        return dataSource + "#" + connectionId;
    }
}
