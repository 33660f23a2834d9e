package io.strata.it;

import io.strata.bootstrap.Strata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard the distribution ships names only metrics Strata exports: after a short workload on each
 * executor (the relay's pools and HikariCP's), every metric its queries use is on /metrics.
 */
class DashboardIT {

    private static final Path DASHBOARD = Path.of("..", "conf", "grafana", "strata-dashboard.json");
    private static final Pattern EXPR = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern METRIC = Pattern.compile("\\b((?:strata|hikaricp|jvm|process)_[a-z_]+)");

    @TempDir
    Path conf;

    @Test
    void everyMetricTheDashboardQueriesIsExportedAfterAShortWorkload() throws Exception {
        Set<String> named = new TreeSet<>();
        Matcher expr = EXPR.matcher(Files.readString(DASHBOARD));
        while (expr.find()) {
            Matcher metric = METRIC.matcher(expr.group(1));
            while (metric.find()) {
                named.add(metric.group(1));
            }
        }
        assertTrue(named.size() > 20, "the dashboard's queries name its metrics: " + named);
        String scraped = scrapeAfterWorkload("relay") + scrapeAfterWorkload("jdbc");
        Set<String> missing = new TreeSet<>();
        for (String metric : named) {
            if (scraped.lines().noneMatch(line -> line.startsWith(metric + "{") || line.startsWith(metric + " "))) {
                missing.add(metric);
            }
        }
        assertEquals(Set.of(), missing, "metrics the dashboard names that Strata does not export");
    }

    /** A Strata from a conf folder (so it reloads), some statements, a reload and a refused one; then /metrics. */
    private String scrapeAfterWorkload(String executor) throws Exception {
        Path folder = Files.createDirectories(conf.resolve(executor));
        int metricsPort = Ports.free();
        Files.writeString(folder.resolve("server.yaml"), """
                server:
                  host: 127.0.0.1
                  executor: %s
                  metrics: { enabled: true, host: 127.0.0.1, port: %d }
                  digests: { enabled: true }
                  slowLog: { enabled: true, threshold: 0, file: "%s" }
                users:
                  - { name: root, password: root, databases: ["*"], admin: true }
                """.formatted(executor, metricsPort, folder.resolve("slow.log")));
        Files.writeString(folder.resolve("config-app.yaml"), """
                databaseName: app
                dataSources:
                  ds_0: { url: "%s", username: strata, password: strata, maximumPoolSize: 4 }
                rules: []
                """.formatted(Backend.server().jdbcUrl(Backend.SCHEMA)));
        try (Strata strata = Strata.builder().confDir(folder).port(0).start();
             Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port()
                     + "/app?user=root&password=root"); Statement st = c.createStatement()) {
            for (int i = 0; i < 5; i++) {
                st.executeQuery("SELECT " + i + " FROM DUAL WHERE 1 = 1").close();
            }
            assertThrows(SQLException.class, () -> st.executeQuery("SELECT no_such_column FROM DUAL"));
            st.executeQuery("RELOAD STRATA CONFIG").close();
            Files.writeString(folder.resolve("config-app.yaml"), "databaseName: app\nrulez: []\n");
            assertThrows(SQLException.class, () -> st.executeQuery("RELOAD STRATA CONFIG"));
            // GC pause timers appear with the JVM's first collection since they were bound: make one
            System.gc();
            String body = "";
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!body.contains("jvm_gc_pause_seconds_sum") && System.nanoTime() < deadline) {
                HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode());
                body = response.body();
                Thread.sleep(body.contains("jvm_gc_pause_seconds_sum") ? 0 : 100);
            }
            return body;
        }
    }

}
