package io.strata.config;

import static io.strata.config.ConfigFiles.assertRejected;
import static io.strata.config.ConfigFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server.yaml's metrics block: the Prometheus endpoint, off unless enabled. */
class MetricsConfigTest {

    @TempDir
    Path dir;

    @Test
    void isOffWithoutABlock() {
        Path file = write(dir, "server.yaml", """
                users: [{ name: root }]
                """);

        assertEquals(MetricsConfig.DISABLED, ConfigLoader.loadServer(file).metrics());
    }

    @Test
    void enabledAloneListensOnTheDefaultPortOfEveryInterface() {
        Path file = write(dir, "server.yaml", """
                server:
                  metrics: { enabled: true }
                users: [{ name: root }]
                """);

        assertEquals(MetricsConfig.on("0.0.0.0", 9105), ConfigLoader.loadServer(file).metrics());
    }

    @Test
    void readsHostAndPort() {
        Path file = write(dir, "server.yaml", """
                server:
                  metrics:
                    enabled: true
                    host: 127.0.0.1
                    port: 19105
                users: [{ name: root }]
                """);

        assertEquals(MetricsConfig.on("127.0.0.1", 19105), ConfigLoader.loadServer(file).metrics());
    }

    @Test
    void enabledFalseTurnsItOffWhateverElseIsSet() {
        Path file = write(dir, "server.yaml", """
                server:
                  metrics: { enabled: false, port: 19105 }
                users: [{ name: root }]
                """);

        assertEquals(MetricsConfig.DISABLED, ConfigLoader.loadServer(file).metrics());
    }

    @Test
    void rejectsAPortOutOfRange() {
        assertRejected(dir, "server.yaml", """
                server:
                  metrics: { enabled: true, port: 70000 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.metrics.port", "70000");
    }

    @Test
    void rejectsUnknownKeys() {
        assertRejected(dir, "server.yaml", """
                server:
                  metrics: { enabled: true, path: /stats }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.metrics.path", "one of enabled, host, port");
    }

    @Test
    void rejectsABlockThatIsNotAMapping() {
        assertRejected(dir, "server.yaml", """
                server:
                  metrics: 9105
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.metrics", "a mapping like { enabled: true");
    }
}
