package io.strata.bootstrap.reload;

import io.strata.config.LimitsConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The keys of server.yaml that only a start applies: the listeners (host, port, socket), TLS material, the event
 * loops, the executor, the metrics endpoint, and two limits sized once (packetMemory, shutdownTimeout). A reload keeps their
 * running values and names the ones its files changed.
 *
 * @param effective the reloaded configuration with the running values of those keys
 * @param pending   the keys whose files' values differ from the running ones ("server.port", ...)
 */
public record RestartOnly(StrataConfig effective, List<String> pending) {

    /**
     * @param filedBefore what the files said at the start (a port given on the command line is not a change of
     *                    the file)
     * @param read        what they say now
     * @param running     the running configuration
     */
    static RestartOnly between(StrataConfig filedBefore, StrataConfig read, StrataConfig running) {
        return new RestartOnly(withLocal(read, running.server()), pending(filedBefore, read));
    }

    /**
     * {@code shared} with the restart-only keys of {@code local}: what a cluster member runs, the members' shared
     * configuration with its own listeners, loops and limits (each member has its own port, its own cores).
     */
    public static StrataConfig withLocal(StrataConfig shared, ServerConfig local) {
        ServerConfig now = shared.server();
        LimitsConfig limits = new LimitsConfig(now.limits().maxConnections(), now.limits().idleTimeoutMillis(),
                now.limits().handshakeTimeoutMillis(), local.limits().shutdownTimeoutMillis(),
                local.limits().packetMemory());
        ServerConfig server = new ServerConfig(local.host(), local.port(), now.users(), now.authPlugin(),
                now.maxAllowedPacket(), local.workerThreads(), local.executor(), local.tls(), local.metrics(),
                now.slowLog(), now.digests(), limits, now.watchConfig(), now.proxyProtocol(), local.socket());
        return new StrataConfig(server, shared.databases());
    }

    /** The restart-only keys whose values the files changed since the start ("server.port", ...). */
    public static List<String> pending(StrataConfig filedBefore, StrataConfig filedNow) {
        ServerConfig was = filedBefore.server();
        ServerConfig now = filedNow.server();
        List<String> pending = new ArrayList<>();
        check(pending, "server.host", was.host(), now.host());
        check(pending, "server.port", was.port(), now.port());
        check(pending, "server.workerThreads", was.workerThreads(), now.workerThreads());
        check(pending, "server.executor", was.executor(), now.executor());
        check(pending, "server.tls", was.tls(), now.tls());
        check(pending, "server.metrics", was.metrics(), now.metrics());
        check(pending, "server.socket", was.socket(), now.socket());
        check(pending, "server.packetMemory", was.limits().packetMemory(), now.limits().packetMemory());
        check(pending, "server.shutdownTimeout", was.limits().shutdownTimeoutMillis(),
                now.limits().shutdownTimeoutMillis());
        return List.copyOf(pending);
    }

    /** A key is pending while the files say something else than they said at the start. */
    private static void check(List<String> pending, String key, Object atStart, Object filedNow) {
        if (!Objects.equals(atStart, filedNow)) {
            pending.add(key);
        }
    }
}
