package io.strata.frontend.session;

import io.netty.channel.Channel;
import io.strata.backend.connection.BackendConnection;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ServerStatus;

/**
 * One client connection's state: who it is, its logical database, what it negotiated, the server status it last saw,
 * and the backend connection it holds while server-side state (a transaction, a user variable, a lock...) ties it to
 * one. Confined to the client channel's event loop, except {@link #inFlight()} which KILL reads from elsewhere.
 */
public final class Session {

    private final long connectionId;
    private final Channel channel;
    private final String remoteHost;
    private String user;
    private int capabilities;
    private int mariaDbCapabilities;
    private String loginCharset;
    private String charset;
    private String database;
    private boolean multiStatements;
    private int statusFlags = ServerStatus.AUTOCOMMIT;
    private long lastInsertId;
    private BackendConnection pinned;
    private volatile BackendConnection inFlight;
    private boolean holdsServerState;
    private boolean keepForWarnings;

    public Session(long connectionId, Channel channel) {
        this.connectionId = connectionId;
        this.channel = channel;
        SocketAddress address = channel.remoteAddress();
        this.remoteHost = address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "localhost";
    }

    public Channel channel() {
        return channel;
    }

    /** After authentication (and again after COM_CHANGE_USER). */
    public void login(String user, int capabilities, int mariaDbCapabilities, int collationId, String database) {
        this.user = user;
        this.capabilities = capabilities;
        this.mariaDbCapabilities = mariaDbCapabilities;
        this.loginCharset = Charsets.ofCollation(collationId);
        this.database = database;
        this.multiStatements = Capabilities.has(capabilities, Capabilities.CLIENT_MULTI_STATEMENTS);
        resetState();
    }

    /** COM_RESET_CONNECTION / COM_CHANGE_USER: back to a fresh session (the pinned connection is dealt with first). */
    public void resetState() {
        charset = loginCharset;
        lostServerState();
    }

    /** The backend connection holding this session's server state broke: that state (and any transaction) is gone. */
    public void lostServerState() {
        statusFlags = ServerStatus.AUTOCOMMIT;
        lastInsertId = 0;
        holdsServerState = false;
        keepForWarnings = false;
    }

    public long connectionId() {
        return connectionId;
    }

    public String remoteHost() {
        return remoteHost;
    }

    public String user() {
        return user;
    }

    public int capabilities() {
        return capabilities;
    }

    public boolean deprecateEof() {
        return Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
    }

    /** The capability bits a backend connection must share with this client. */
    public int flavor() {
        return capabilities & Capabilities.FLAVOR_MASK
                | (Capabilities.has(mariaDbCapabilities, Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO)
                ? Capabilities.FLAVOR_EXTENDED_TYPE_INFO : 0);
    }

    public boolean extendedTypeInfo() {
        return Capabilities.has(mariaDbCapabilities, Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO);
    }

    public int mariaDbCapabilities() {
        return mariaDbCapabilities;
    }

    public String charset() {
        return charset;
    }

    public void charset(String charset) {
        this.charset = charset;
    }

    public String database() {
        return database;
    }

    public void database(String database) {
        this.database = database;
    }

    public boolean multiStatements() {
        return multiStatements;
    }

    public void multiStatements(boolean on) {
        this.multiStatements = on;
    }

    public int statusFlags() {
        return statusFlags;
    }

    public void statusFlags(int statusFlags) {
        // MORE_RESULTS and per-statement flags belong to one response, not to the session.
        this.statusFlags = statusFlags & (ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT
                | ServerStatus.IN_TRANS_READONLY | ServerStatus.NO_BACKSLASH_ESCAPES);
    }

    public boolean inTransaction() {
        return ServerStatus.has(statusFlags, ServerStatus.IN_TRANS);
    }

    public boolean autocommit() {
        return ServerStatus.has(statusFlags, ServerStatus.AUTOCOMMIT);
    }

    public long lastInsertId() {
        return lastInsertId;
    }

    public void lastInsertId(long id) {
        this.lastInsertId = id;
    }

    public BackendConnection pinned() {
        return pinned;
    }

    public void pin(BackendConnection connection) {
        this.pinned = connection;
    }

    public BackendConnection unpin() {
        BackendConnection connection = pinned;
        pinned = null;
        return connection;
    }

    public BackendConnection inFlight() {
        return inFlight;
    }

    public void inFlight(BackendConnection connection) {
        this.inFlight = connection;
    }

    public void holdsServerState(boolean holds) {
        this.holdsServerState = holds;
    }

    public boolean holdsServerState() {
        return holdsServerState;
    }

    public void keepForWarnings(boolean keep) {
        this.keepForWarnings = keep;
    }

    /**
     * Whether the backend connection must stay with this session after a statement: an open transaction, autocommit
     * off, state on the server, or warnings the client may still ask for with SHOW WARNINGS.
     */
    public boolean needsPinnedConnection() {
        return inTransaction() || !autocommit() || holdsServerState || keepForWarnings;
    }
}
