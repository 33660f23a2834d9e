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
record RestartOnly(StrataConfig effective, List<String> pending) {

    /**
     * @param filedBefore what the files said at the start (a port given on the command line is not a change of
     *                    the file)
     * @param read        what they say now
     * @param running     the running configuration
     */
    static RestartOnly between(StrataConfig filedBefore, StrataConfig read, StrataConfig running) {
        ServerConfig was = filedBefore.server();
        ServerConfig now = read.server();
        ServerConfig live = running.server();
        List<String> pending = new ArrayList<>();
        check(pending, "server.host", was.host(), now.host(), live.host());
        check(pending, "server.port", was.port(), now.port(), live.port());
        check(pending, "server.workerThreads", was.workerThreads(), now.workerThreads(), live.workerThreads());
        check(pending, "server.executor", was.executor(), now.executor(), live.executor());
        check(pending, "server.tls", was.tls(), now.tls(), live.tls());
        check(pending, "server.metrics", was.metrics(), now.metrics(), live.metrics());
        check(pending, "server.socket", was.socket(), now.socket(), live.socket());
        check(pending, "server.packetMemory", was.limits().packetMemory(), now.limits().packetMemory(),
                live.limits().packetMemory());
        check(pending, "server.shutdownTimeout", was.limits().shutdownTimeoutMillis(),
                now.limits().shutdownTimeoutMillis(), live.limits().shutdownTimeoutMillis());
        LimitsConfig limits = new LimitsConfig(now.limits().maxConnections(), now.limits().idleTimeoutMillis(),
                now.limits().handshakeTimeoutMillis(), live.limits().shutdownTimeoutMillis(),
                live.limits().packetMemory());
        ServerConfig server = new ServerConfig(live.host(), live.port(), now.users(), now.authPlugin(),
                now.maxAllowedPacket(), live.workerThreads(), live.executor(), live.tls(), live.metrics(),
                now.slowLog(), now.digests(), limits, now.watchConfig(), now.proxyProtocol(), live.socket());
        return new RestartOnly(new StrataConfig(server, read.databases()), List.copyOf(pending));
    }

    /** A key is pending while the files say something else than they said at the start. */
    private static void check(List<String> pending, String key, Object atStart, Object filedNow, Object live) {
        if (!Objects.equals(atStart, filedNow)) {
            pending.add(key);
        }
    }
}
