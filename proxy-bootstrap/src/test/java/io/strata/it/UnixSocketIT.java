package io.strata.it;

import io.strata.config.ServerConfig;
import io.strata.config.SocketConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * server.socket: clients on the same host through a Unix domain socket, beside TCP, with the same logins: the
 * mariadb command-line client, MariaDB Connector/J ({@code localSocket}) and MySQL Connector/J (junixsocket's socket
 * factory); the file's mode as configured; a stale
 * file from an unclean stop replaced at start; the file removed at stop.
 */
class UnixSocketIT {

    @TempDir
    Path folder;

    @Test
    void clientsLogInThroughTheSocketWhichIsReplacedWhenStaleAndRemovedAtStop() throws Exception {
        Path socket = folder.resolve("strata.sock");
        try (ServerSocketChannel stale = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            stale.bind(UnixDomainSocketAddress.of(socket)); // closed without removing its file: as after a kill -9
        }
        assertTrue(Files.exists(socket));
        try (StrataFixture strata = StrataFixture.start(s -> s.withSocket(new SocketConfig(socket.toString(), "0660")),
                ServerConfig.NATIVE_PASSWORD)) {
            assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));

            List<String> cli = cli(socket, "SELECT 40 + 2; SELECT DATABASE()");
            assertEquals(List.of("42", "it"), cli);
            assertEquals(List.of("ERROR 1045"), cli(socket, "wrong", "SELECT 1").stream()
                    .map(line -> line.substring(0, Math.min(10, line.length()))).toList(), "the same logins");

            try (Connection c = DriverManager.getConnection("jdbc:mariadb://localhost/it?user=root&password=root"
                    + "&localSocket=" + socket); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT 6 * 7")) {
                    assertTrue(rs.next());
                    assertEquals(42, rs.getInt(1));
                }
                List<String> hosts = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SHOW PROCESSLIST")) {
                    while (rs.next()) {
                        hosts.add(rs.getString("Host"));
                    }
                }
                assertTrue(hosts.contains("localhost"), "a socket client is localhost, as on MySQL: " + hosts);
            }
            // MySQL Connector/J speaks to a socket file through junixsocket's socket factory
            try (Connection c = DriverManager.getConnection("jdbc:mysql://localhost/it?user=root&password=root"
                    + "&sslMode=DISABLED&allowPublicKeyRetrieval=true"
                    + "&socketFactory=org.newsclub.net.mysql.AFUNIXDatabaseSocketFactoryCJ"
                    + "&junixsocket.file=" + socket); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT CONCAT('via ', 'socket'), DATABASE()")) {
                assertTrue(rs.next());
                assertEquals("via socket", rs.getString(1));
                assertEquals("it", rs.getString(2));
            }
            try (Connection tcp = strata.connect(StrataFixture.Driver.MARIADB); Statement st = tcp.createStatement();
                 ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next(), "TCP goes on beside the socket");
            }
        }
        assertFalse(Files.exists(socket), "the socket file goes with Strata");
    }

    private static List<String> cli(Path socket, String sql) throws IOException, InterruptedException {
        return cli(socket, "root", sql);
    }

    /** The mariadb client's output lines (-N: no headers), stderr included. */
    private static List<String> cli(Path socket, String password, String sql) throws IOException,
            InterruptedException {
        Path client = Files.isExecutable(Path.of("/usr/bin/mariadb")) ? Path.of("/usr/bin/mariadb")
                : Backend.server().program("mariadb");
        Process process = new ProcessBuilder(client.toString(), "--no-defaults", "-S", socket.toString(), "-uroot",
                "-p" + password, "-D", "it", "-N", "-B", "-e", sql).redirectErrorStream(true).start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the client ended");
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
}
