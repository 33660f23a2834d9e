package io.strata.it;

import io.strata.config.DigestsConfig;
import io.strata.config.MetricsConfig;
import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** server.metrics: Prometheus scrapes what Strata counts, its pools, the data sources' health and the JVM. */
class MetricsIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static StrataFixture strata;

    @BeforeAll
    static void start() {
        strata = StrataFixture.start(s -> s.withMetrics(MetricsConfig.on("127.0.0.1", 0))
                        .withDigests(new DigestsConfig(true, DigestsConfig.DEFAULT_MAX_DIGESTS)),
                ServerConfig.NATIVE_PASSWORD);
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    @Test
    void commandsAreCountedByType() throws Exception {
        try (Connection connection = strata.connect(Driver.MARIADB, "it", "root", "root", serverPrepared());
             Statement statement = connection.createStatement()) {
            double queries = value(scrape(), "strata_commands_total{command=\"COM_QUERY\"}");
            double executes = value(scrape(), "strata_commands_total{command=\"COM_STMT_EXECUTE\"}");
            for (int i = 0; i < 5; i++) {
                statement.executeQuery("SELECT " + i).close();
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT ?")) {
                for (int i = 0; i < 3; i++) {
                    select.setInt(1, i);
                    select.executeQuery().close();
                }
            }
            String after = scrape();
            assertEquals(queries + 5, value(after, "strata_commands_total{command=\"COM_QUERY\"}"));
            assertEquals(executes + 3, value(after, "strata_commands_total{command=\"COM_STMT_EXECUTE\"}"));
        }
    }

    @Test
    void statementsAreTimedInHistogramsByDatabaseDataSourceKindAndOutcome() throws Exception {
        String ok = "strata_statements_seconds_count{data_source=\"ds_0\",database=\"it\",kind=\"select\","
                + "outcome=\"ok\"}";
        String failed = "strata_statements_seconds_count{data_source=\"ds_0\",database=\"it\",kind=\"select\","
                + "outcome=\"error\"}";
        String before = scrape();
        double oks = before.contains(ok) ? value(before, ok) : 0;
        double errors = before.contains(failed) ? value(before, failed) : 0;
        try (Connection connection = strata.connect(Driver.MARIADB, "it", "root", "root", new Properties());
             Statement statement = connection.createStatement()) {
            for (int i = 0; i < 6; i++) {
                statement.executeQuery("SELECT SLEEP(0.002), " + i).close();
            }
            assertThrows(SQLException.class, () -> statement.executeQuery("SELECT no_such_column"));
        }
        String after = scrape();
        assertEquals(oks + 6, value(after, ok));
        assertEquals(errors + 1, value(after, failed));
        String bucket = "strata_statements_seconds_bucket{data_source=\"ds_0\",database=\"it\",kind=\"select\","
                + "outcome=\"ok\",le=\"0.001\"}";
        String over = "strata_statements_seconds_bucket{data_source=\"ds_0\",database=\"it\",kind=\"select\","
                + "outcome=\"ok\",le=\"+Inf\"}";
        assertTrue(value(after, over) - value(after, bucket) >= 6, "six statements of 2 ms and more:\n" + after);
    }

    @Test
    void theTopStatementsByTotalTimeAreThereAsDigests() throws Exception {
        try (Connection connection = strata.connect(Driver.MYSQL, "it", "root", "root", new Properties());
             Statement statement = connection.createStatement()) {
            for (int i = 0; i < 4; i++) {
                statement.executeQuery("SELECT SLEEP(0.05), " + i + " AS metrics_digest").close();
            }
        }
        String scraped = scrape();
        String series = scraped.lines().filter(line -> line.startsWith("strata_digest_calls{")
                && line.contains("digest_text=\"SELECT SLEEP (?) , ? AS `metrics_digest`\"")).findFirst()
                .orElseThrow(() -> new AssertionError("no digest series in\n" + scraped));
        assertTrue(series.contains("user=\"root\"") && series.contains("data_source=\"ds_0\""), series);
        assertTrue(series.endsWith(" 4.0"), series);
        assertTrue(scraped.contains("strata_mirror_statements_total{outcome=\"sent\"}"), "mirror counters");
        assertTrue(scraped.lines().filter(line -> line.startsWith("strata_digest_time_seconds{")).count()
                <= 20, "at most the top 20 statements");
    }

    @Test
    void clientConnectionsAreTheSessionsLoggedInNow() throws Exception {
        awaitValue("strata_client_connections", 0); // the other tests' connections are closed (tests run one by one)
        double accepted = value(scrape(), "strata_client_connections_accepted_total");
        try (Connection connection = strata.connect(Driver.MARIADB)) {
            assertEquals(1, value(scrape(), "strata_client_connections"));
            assertEquals(accepted + 1, value(scrape(), "strata_client_connections_accepted_total"));
        }
        awaitValue("strata_client_connections", 0);
    }

    @Test
    void aWrongPasswordIsCountedAsARefusedLogin() throws Exception {
        double refused = value(scrape(), "strata_client_logins_refused_total");
        assertThrows(SQLException.class, () -> strata.connect(Driver.MARIADB, "it", "root", "wrong",
                new Properties()).close());
        assertEquals(refused + 1, value(scrape(), "strata_client_logins_refused_total"));
    }

    @Test
    void theExecutorsPoolsAreThere() throws Exception {
        try (Connection connection = strata.connect(Driver.MARIADB);
             Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1").close();
            String scrape = scrape();
            assertEquals(16, value(scrape, "strata_backend_connections_max{data_source=\"ds_0\",database=\"it\"}"));
            assertEquals(0, value(scrape, "strata_backend_pending{data_source=\"ds_0\",database=\"it\"}"));
            if (StrataFixture.executor().equals(ServerConfig.JDBC)) {
                // HikariCP reports through its own Micrometer tracker
                assertEquals(16, value(scrape, "hikaricp_connections_max{pool=\"it/ds_0\"}"));
            } else {
                double idle = value(scrape, "strata_backend_connections{data_source=\"ds_0\",database=\"it\","
                        + "state=\"idle\"}");
                double active = value(scrape, "strata_backend_connections{data_source=\"ds_0\",database=\"it\","
                        + "state=\"active\"}");
                assertTrue(idle + active >= 1, scrape); // the connection that ran the SELECT
            }
        }
    }

    @Test
    void dataSourcesInRotationAndTheJvmAreReported() throws Exception {
        String scrape = scrape();
        assertEquals(1, value(scrape, "strata_data_source_in_rotation{data_source=\"ds_0\",database=\"it\"}"));
        assertTrue(scrape.contains("jvm_memory_used_bytes{area=\"heap\""), scrape);
        assertTrue(scrape.contains("process_cpu_usage"), scrape);
    }

    @Test
    void otherPathsAre404AndOtherMethods405() throws Exception {
        HttpResponse<String> root = HTTP.send(HttpRequest.newBuilder(uri("/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, root.statusCode());
        assertTrue(root.body().contains("/metrics"), root.body());
        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(uri("/metrics"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
    }

    @Test
    void theEndpointIsOffUnlessConfigured() {
        try (StrataFixture plain = StrataFixture.start()) {
            assertEquals(-1, plain.strata.metricsPort());
        }
    }

    @Test
    void aTakenMetricsPortStopsTheStartNamingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> StrataFixture.start(
                    s -> s.withMetrics(MetricsConfig.on("127.0.0.1", port)), ServerConfig.NATIVE_PASSWORD));
            assertTrue(e.getMessage().contains("metrics endpoint cannot listen on 127.0.0.1:" + port), e.getMessage());
        }
    }

    private static Properties serverPrepared() {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        return props;
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + strata.strata.metricsPort() + path);
    }

    private static String scrape() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        return response.body();
    }

    /** The value of one series (name and labels exactly as Prometheus prints them). */
    private static double value(String scrape, String series) {
        return Arrays.stream(scrape.split("\n")).filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no series " + series + " in:\n" + scrape));
    }

    /** A session leaves the registry when its channel closes, just after the client's close returns. */
    private static void awaitValue(String series, double expected) throws Exception {
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (value(scrape(), series) != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(expected, value(scrape(), series));
    }
}
