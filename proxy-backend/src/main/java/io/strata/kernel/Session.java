package io.strata.kernel;

import io.strata.backend.execute.SessionState;
import io.strata.rule.SessionRouteState;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * One client session, whatever host it came through: who it is, where from, what routing remembers of it, what its
 * backends must mirror ({@link SessionState}), and what the process list shows of it. Confined to the thread that runs
 * its statements (a client channel's event loop), except what KILL and the process list read from other sessions.
 */
public final class Session {

    private final long connectionId;
    private final Client client;
    private final String remoteHost;
    private final int remotePort;
    // What SHOW PROCESSLIST shows: written on the session's event loop, read from others after `since`, which is
    // written last (a reader may see a statement that just ended: the list is a moment's picture anyway).
    private String command = "Sleep";
    private String statement;
    private String runningOn;
    private volatile long since = System.nanoTime();
    private final SessionState state;
    private final SessionRouteState routeState = new SessionRouteState();
    private String user;

    /** The host's end of a session: its connection to the client, which other threads may end. */
    public interface Client {
        /** Ends the connection at once (KILL CONNECTION). */
        void close();

        /** Ends it at its next statement boundary outside a transaction (a graceful stop). */
        void stopAtBoundary();
    }

    /**
     * @param address the client's address (a host without one, or a local socket, shows as localhost)
     */
    public Session(long connectionId, SocketAddress address, Client client) {
        this.connectionId = connectionId;
        this.client = client;
        this.remoteHost = address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "localhost";
        this.remotePort = address instanceof InetSocketAddress inet ? inet.getPort() : 0;
        this.state = new SessionState(connectionId);
    }

    /** After authentication (and again after COM_CHANGE_USER): no database yet, a fresh server-side state. */
    public void login(String user, int capabilities, int mariaDbCapabilities, int collationId) {
        this.user = user;
        routeState.login(user, remoteHost);
        state.login(capabilities, mariaDbCapabilities, collationId);
    }

    /** COM_RESET_CONNECTION: back to a fresh session (its backend connections are dealt with first). */
    public void resetState() {
        routeState.reset();
        state.resetState();
    }

    public long connectionId() {
        return connectionId;
    }

    /** The host's end of the session, for KILL and a graceful stop (from any thread). */
    public Client client() {
        return client;
    }

    public String remoteHost() {
        return remoteHost;
    }

    public String user() {
        return user;
    }

    /** The client's address as MySQL's process list shows it: {@code ip:port}. */
    public String remoteHostPort() {
        return remotePort == 0 ? remoteHost : remoteHost + ":" + remotePort;
    }

    /** A command starts ({@code statement}: its SQL, or null), for the process list. */
    public void commandStarts(String command, String statement, long nanos) {
        this.command = command;
        this.statement = statement;
        this.runningOn = null;
        since = nanos;
    }

    /** The command's statement, once known (an execute's is its prepared text). */
    public void statementIs(String sql) {
        statement = sql;
    }

    /** The running statement went to these data sources (comma-separated), for the process list. */
    public void runsOn(String dataSources) {
        runningOn = dataSources;
    }

    /** The command was answered: the session sleeps. */
    public void commandEnds(long nanos) {
        command = "Sleep";
        statement = null;
        runningOn = null;
        since = nanos;
    }

    /** What the session does now, as another session's SHOW PROCESSLIST reads it. */
    public Activity activity() {
        long at = since;
        return new Activity(command, statement, runningOn, at);
    }

    /**
     * @param sinceNanos {@link System#nanoTime()} when the command started, or when the session last fell asleep
     */
    public record Activity(String command, String statement, String runningOn, long sinceNanos) {
    }

    /** What the session expects of the server sessions that run its statements. */
    public SessionState state() {
        return state;
    }

    /** What routing remembers of this session (its read switch, its last write). */
    public SessionRouteState routeState() {
        return routeState;
    }
}
