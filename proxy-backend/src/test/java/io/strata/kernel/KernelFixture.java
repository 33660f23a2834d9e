package io.strata.kernel;

import io.netty.channel.DefaultEventLoopGroup;
import io.strata.backend.Backends;
import io.strata.backend.execute.Mirrors;
import io.strata.config.ConfigLoader;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import io.strata.rule.RuleChain;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A kernel's runtime made from a logical database's YAML, with pools that never connect, and its sessions. */
final class KernelFixture implements AutoCloseable {

    /** Two data sources; a query rule sends reports to ds_1 with a 50 ms time limit and refuses big_table scans. */
    static final String SHOP = """
            databaseName: shop
            dataSources:
              ds_0: { url: "jdbc:mariadb://127.0.0.1:1/shop", username: u, password: p }
              ds_1: { url: "jdbc:mariadb://127.0.0.1:1/shop", username: u, password: p }
            rules:
              - type: QUERY_ROUTING
                rules:
                  - { name: reports, pattern: "(?i)^select .* from report", dataSource: ds_1, timeout: 50 }
                  - { name: no-scans, pattern: "(?i)from big_table$", error: { code: 1317, message: "no scans" } }
            """;

    private final DefaultEventLoopGroup backendLoops = new DefaultEventLoopGroup(1);

    /** The runtime of a folder holding {@code database} as config-shop.yaml and one user, app. */
    StrataRuntime runtime(Path conf, String database) throws IOException {
        Files.createDirectories(conf);
        Files.writeString(conf.resolve("server.yaml"),
                "users: [ { name: app, password: secret, databases: [\"*\"] } ]\n");
        Files.writeString(conf.resolve("config-shop.yaml"), database);
        StrataConfig config = ConfigLoader.load(conf);
        HealthRegistry health = new HealthRegistry();
        Map<String, RuleChain> chains = new LinkedHashMap<>();
        for (DatabaseConfig db : config.databases().values()) {
            chains.put(db.databaseName(), RuleChain.of(db, "config-shop.yaml", health, BuiltInRules.factories()));
        }
        Backends backends = new Backends(config, backendLoops);
        return new StrataRuntime(config, chains, backends, null, health, new Mirrors(backends));
    }

    /** A session of app's from 10.0.0.7, in the logical database shop, registered with the kernel. */
    static Session session(Kernel kernel) {
        Session session = new Session(kernel.sessions().nextId(), new InetSocketAddress("10.0.0.7", 50000),
                new Session.Client() {
                    @Override
                    public void close() {
                    }

                    @Override
                    public void stopAtBoundary() {
                    }
                });
        session.login("app", 0, 0, 45);
        session.state().use("shop", null);
        kernel.sessions().add(session);
        return session;
    }

    @Override
    public void close() {
        backendLoops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }
}
