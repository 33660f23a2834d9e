package io.strata.bootstrap.sandbox;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A ready-to-use Strata on a fresh machine: an embedded MariaDB primary (port 3306 by default, or
 * {@code -Dsandbox.mariadb.port}) with two replicas replicating from it (ports 3316 and 3317, or from
 * {@code -Dsandbox.replica.port}; how many: {@code -Dsandbox.replicas}, 0 for none), schema and user
 * {@code sbtest}/{@code sbtest}, and Strata in front of them on port 3307 (or {@code -Dsandbox.port}) with users
 * {@code root}/{@code root} and {@code sbtest}/{@code sbtest} and a READWRITE_SPLITTING rule: writes to the primary,
 * reads round robin over the replicas. The database exposes its backend's schemas (exposeSchemas). The executor is
 * the relay, or {@code -Dsandbox.executor=jdbc}. Ctrl-C stops everything.
 */
public final class Sandbox {

    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);

    private Sandbox() {
    }

    /**
     * The sandbox runs in Maven's JVM (exec:java), which bin/start.sh's JDK options do not reach: from JDK 24 on,
     * without them, Netty's native transport and its use of sun.misc.Unsafe make the JDK print warnings that read as
     * trouble. There the sandbox asks Netty for its NIO transport and no Unsafe (set before any Netty class loads):
     * a little slower, and quiet. The distribution passes the options and keeps both.
     */
    private static void quietOnNewJdks() {
        boolean allowed = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(argument -> argument.startsWith("--enable-native-access"));
        if (Runtime.version().feature() >= 24 && !allowed) {
            System.setProperty("io.netty.noUnsafe", "true");
            System.setProperty("io.netty.transport.noNative", "true");
        }
    }

    public static void main(String[] args) throws InterruptedException {
        quietOnNewJdks();
        int mariadbPort = Integer.getInteger("sandbox.mariadb.port", 3306);
        int replicaPort = Integer.getInteger("sandbox.replica.port", 3316);
        int replicas = Integer.getInteger("sandbox.replicas", 2);
        int port = Integer.getInteger("sandbox.port", ServerConfig.DEFAULT_PORT);
        ReplicatedMariaDb servers = ReplicatedMariaDb.start(mariadbPort, replicaPort, replicas, "sbtest", "sbtest",
                "sbtest");
        Strata strata = Strata.builder().config(config(servers, port)).start();
        LOG.info("Sandbox ready: MariaDB primary on 127.0.0.1:{}, replicas on {}, Strata on 127.0.0.1:{}",
                servers.primary().port(), servers.replicas().stream().map(EmbeddedMariaDb::port).toList(),
                strata.port());
        System.out.printf("%nStrata sandbox is up. Connect with:%n  mariadb -h127.0.0.1 -P%d -uroot -proot sbtest%n"
                + "and see where statements go with SHOW STRATA DATA SOURCES.%n"
                + "Ctrl-C stops Strata and the embedded MariaDB servers.%n", strata.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            strata.close();
            servers.close();
            stopped.countDown();
        }, "sandbox-shutdown"));
        stopped.await();
    }

    static StrataConfig config(ReplicatedMariaDb servers, int port) {
        ServerConfig server = ServerConfig.defaults(List.of(
                new UserConfig("root", "root", List.of("*"), true),
                new UserConfig("sbtest", "sbtest", List.of("sbtest")))).withPort(port)
                .withExecutor(System.getProperty("sandbox.executor", ServerConfig.RELAY));
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("primary", dataSource("primary", servers.primary()));
        List<String> readers = new ArrayList<>();
        for (int i = 0; i < servers.replicas().size(); i++) {
            readers.add("replica_" + i);
            dataSources.put("replica_" + i, dataSource("replica_" + i, servers.replicas().get(i)));
        }
        List<RuleConfig> rules = readers.isEmpty() ? List.of() : List.of(new RuleConfig("READWRITE_SPLITTING",
                Map.of("groups", List.of(Map.of("name", "rw", "writeDataSource", "primary",
                                "readDataSources", readers, "loadBalancer", "ROUND_ROBIN")),
                        "healthCheck", Map.of("username", ReplicatedMariaDb.MONITOR_USER,
                                "password", ReplicatedMariaDb.MONITOR_PASSWORD))));
        // a single backend's view: tools that make and use their own schemas (mariadb-slap) work as directly
        DatabaseConfig database = new DatabaseConfig("sbtest", dataSources, rules, true);
        return new StrataConfig(server, Map.of("sbtest", database));
    }

    private static DataSourceConfig dataSource(String name, EmbeddedMariaDb server) {
        return DataSourceConfig.of(name, server.jdbcUrl("sbtest"), "sbtest", "sbtest",
                Map.of("maximumPoolSize", 64));
    }
}
