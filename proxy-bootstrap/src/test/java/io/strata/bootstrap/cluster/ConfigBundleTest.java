package io.strata.bootstrap.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.strata.config.StrataConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a member publishes of its conf folder, and what another member loads from it. */
class ConfigBundleTest {

    @TempDir
    Path conf;
    @TempDir
    Path cache;

    @Test
    void aMemberPublishesItsRulesAndUsersButKeepsItsListenersAndModeToItself() throws Exception {
        Files.writeString(conf.resolve("server.yaml"), """
                # this member's port
                mode: { type: Cluster, repository: { type: ZooKeeper, props: { server-lists: "zk:2181" } } }
                server: { host: 10.0.0.7, port: 3307, workerThreads: 4, slowLog: { enabled: true, threshold: 50 } }
                users:
                  - { name: app, password: app }
                """);
        Files.writeString(conf.resolve("config-shop.yaml"), """
                # kept as written
                databaseName: shop
                dataSources:
                  ds_0: { url: "jdbc:mariadb://db:3306/shop", username: u, password: p }
                rules: []
                """);
        Files.writeString(conf.resolve("notes.txt"), "not configuration");

        ConfigBundle bundle = ConfigBundle.read(conf, 3, "m1");

        assertEquals(java.util.Set.of("server.yaml", "config-shop.yaml"), bundle.files().keySet());
        assertEquals(Files.readString(conf.resolve("config-shop.yaml")), bundle.files().get("config-shop.yaml"));
        String server = bundle.files().get("server.yaml");
        assertFalse(server.contains("mode") || server.contains("3307") || server.contains("10.0.0.7")
                || server.contains("workerThreads"), server);
        assertTrue(server.contains("threshold: 50") && server.contains("name: app"), server);

        ConfigBundle received = ConfigBundle.parse(bundle.bytes());
        assertEquals(bundle, received);
        StrataConfig loaded = received.load(cache);
        assertEquals(50, loaded.server().slowLog().thresholdMillis());
        assertEquals("jdbc:mariadb://db:3306/shop", loaded.databases().get("shop").dataSources().get("ds_0").url());
        assertTrue(Files.exists(cache.resolve("v3").resolve("config-shop.yaml")));
    }

    @Test
    void aFileNameFromTheRegistryNeverEscapesTheCacheFolder() {
        ConfigBundle hostile = new ConfigBundle(2, "someone", Instant.now(), Map.of("../../etc/cron.d/x", "boom"));
        assertThrows(IllegalStateException.class, () -> hostile.load(cache));
        assertFalse(Files.exists(cache.resolve("../../etc/cron.d/x").normalize()));
    }
}
