package io.strata.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad configuration stops the start (bin/start.sh's main class) with a message naming file, key and expectation. */
class StartupIT {

    @Test
    void badYamlStopsTheStartWithAClearMessage(@TempDir Path conf) throws Exception {
        Files.writeString(conf.resolve("server.yaml"), "server: { port: 3307 }\nusers:\n  - { name: root }\n");
        Files.writeString(conf.resolve("config-shop.yaml"), """
                databaseName: shop
                dataSources:
                  ds_0: { url: "jdbc:oracle:thin:@x", username: u }
                """);
        Result result = run(conf);
        assertEquals(1, result.exitCode());
        assertTrue(result.output().contains("config-shop.yaml: dataSources.ds_0.url: expected a JDBC URL like "
                + "jdbc:mariadb://host:3306/schema"), result.output());
    }

    @Test
    void aMissingServerFileIsNamed(@TempDir Path conf) throws Exception {
        Result result = run(conf);
        assertEquals(1, result.exitCode());
        assertTrue(result.output().contains("server.yaml"), result.output());
    }

    @Test
    void aTakenPortStopsTheStartNamingTheAddress(@TempDir Path conf) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Result result = startOn(conf, taken, "{ name: root }");
            assertEquals(1, result.exitCode());
            assertTrue(result.output().contains("Strata cannot start")
                    && result.output().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()), result.output());
        }
    }

    @Test
    void aPasswordLikeAMistypedHashIsWarnedOf(@TempDir Path conf) throws Exception {
        // a taken port ends the start by itself, after the configuration was read and checked
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Result result = startOn(conf, taken, "{ name: ops, password: '*617D70D9B08072FB88ED37E21D4B3F4F5843AC2' }");
            assertTrue(result.output().contains("the password of user 'ops' starts with '*' but is not '*' and 40 "
                    + "hex digits"), result.output());
        }
    }

    /** Starts Strata with one user on the port {@code taken} holds; the backend need not be up to start. */
    private static Result startOn(Path conf, ServerSocket taken, String user) throws Exception {
        Files.writeString(conf.resolve("server.yaml"), "server: { host: 127.0.0.1, port: " + taken.getLocalPort()
                + " }\nusers:\n  - " + user + "\n");
        Files.writeString(conf.resolve("config-shop.yaml"), """
                databaseName: shop
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1:1/shop", username: u }
                """);
        return run(conf, List.of());
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(Path conf) throws Exception {
        return run(conf, List.of("-p", "0"));
    }

    private static Result run(Path conf, List<String> options) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "io.strata.bootstrap.Main", "-c", conf.toString()));
        command.addAll(options);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "Strata must stop by itself");
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes()));
    }
}
