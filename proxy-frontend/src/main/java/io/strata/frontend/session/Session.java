package io.strata.frontend.session;

import io.netty.channel.Channel;
import io.strata.backend.execute.SessionState;
import io.strata.rule.SessionRouteState;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * One client connection: who it is, where from, what routing remembers of it, and what its backends must mirror
 * ({@link SessionState}). Confined to the client channel's event loop, except what KILL reads from other sessions.
 */
public final class Session {

    private final long connectionId;
    private final Channel channel;
    private final String remoteHost;
    private final SessionState state;
    private final SessionRouteState routeState = new SessionRouteState();
    private String user;

    public Session(long connectionId, Channel channel) {
        this.connectionId = connectionId;
        this.channel = channel;
        SocketAddress address = channel.remoteAddress();
        this.remoteHost = address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "localhost";
        this.state = new SessionState(connectionId);
    }

    /** After authentication (and again after COM_CHANGE_USER): no database yet, a fresh server-side state. */
    public void login(String user, int capabilities, int mariaDbCapabilities, int collationId) {
        this.user = user;
        routeState.reset();
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

    public Channel channel() {
        return channel;
    }

    public String remoteHost() {
        return remoteHost;
    }

    public String user() {
        return user;
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
