package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.ProxyProtocolConfig;
import io.strata.config.StrataConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * server.proxyProtocol behind a real HAProxy (send-proxy-v2 and send-proxy): the client connects from 127.0.0.2,
 * HAProxy from 127.0.0.1 (trusted); Strata must see 127.0.0.2 in its process list and in a query rule's
 * clientAddress. A header from a peer outside trustedNetworks is refused; a plain client from there works.
 */
class ProxyProtocolIT {

    private static Strata strata;
    private static Process haproxy;
    private static int v2Port;
    private static int v1Port;
    private static Path folder;

    @BeforeAll
    static void start() throws Exception {
        for (String schema : List.of("proxy_a", "proxy_b")) {
            Backend.execute("CREATE DATABASE IF NOT EXISTS " + schema,
                    "CREATE TABLE IF NOT EXISTS " + schema + ".marker (id INT PRIMARY KEY, v VARCHAR(20))",
                    "REPLACE INTO " + schema + ".marker VALUES (1, '" + schema + "')");
        }
        StrataConfig shop = StrataFixture.shop(Backend.server(), "proxy_a", Backend.server(), "proxy_b", """
                - type: QUERY_ROUTING
                  rules:
                    - { name: from-two, clientAddress: 127.0.0.2, dataSource: ds_1 }
                """);
        strata = Strata.builder().config(new StrataConfig(shop.server().withProxyProtocol(
                new ProxyProtocolConfig(true, List.of("127.0.0.1"))), shop.databases())).start();
        v2Port = Ports.free();
        v1Port = Ports.free();
        folder = Files.createTempDirectory("strata-haproxy");
        Path config = folder.resolve("haproxy.cfg");
        Files.writeString(config, """
                global
                  maxconn 200
                defaults
                  mode tcp
                  timeout connect 5s
                  timeout client 60s
                  timeout server 60s
                listen v2
                  bind 127.0.0.1:%d
                  server strata 127.0.0.1:%d send-proxy-v2
                listen v1
                  bind 127.0.0.1:%d
                  server strata 127.0.0.1:%d send-proxy
                """.formatted(v2Port, strata.port(), v1Port, strata.port()));
        Path binary = List.of(Path.of("/usr/sbin/haproxy"), Path.of("/usr/bin/haproxy")).stream()
                .filter(Files::isExecutable).findFirst().orElseThrow(() -> new AssertionError(
                        "this test runs a real HAProxy: apt-get install haproxy"));
        haproxy = new ProcessBuilder(binary.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(folder.resolve("haproxy.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!listening(v2Port) || !listening(v1Port)) {
            assertTrue(haproxy.isAlive() && System.nanoTime() < deadline,
                    () -> "HAProxy did not start: " + read(folder.resolve("haproxy.log")));
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (haproxy != null) {
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
        if (strata != null) {
            strata.close();
        }
    }

    @Test
    void theRealClientAddressFromBothHeaderVersionsIsWhatRulesAndTheProcessListSee() throws Exception {
        for (int port : new int[] {v2Port, v1Port}) {
            try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port
                    + "/shop?user=root&password=root&localSocketAddress=127.0.0.2");
                 Statement st = c.createStatement()) {
                assertEquals("proxy_b", marker(st), "the clientAddress rule matched the real client");
                List<String> hosts = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SHOW PROCESSLIST")) {
                    while (rs.next()) {
                        hosts.add(rs.getString("Host"));
                    }
                }
                assertTrue(hosts.stream().anyMatch(host -> host.startsWith("127.0.0.2:")), hosts.toString());
                assertTrue(hosts.stream().noneMatch(host -> host.startsWith("127.0.0.1:")),
                        "HAProxy's own address is nowhere: " + hosts);
            }
        }
    }

    @Test
    void aHeaderFromAnUntrustedPeerIsRefusedAndAPlainClientFromThereWorks() throws Exception {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 0));
            socket.connect(new InetSocketAddress("127.0.0.1", strata.port()), 5000);
            socket.setSoTimeout(5000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            readPacket(in); // the greeting
            socket.getOutputStream().write("PROXY TCP4 10.9.9.9 127.0.0.1 5555 3307\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            byte[] error = readPacket(in);
            assertEquals((byte) 0xFF, error[0]);
            String message = new String(error, 9, error.length - 9, StandardCharsets.UTF_8);
            assertTrue(message.contains("server.proxyProtocol.trustedNetworks does not trust"), message);
            assertEquals(-1, in.read(), "and the connection is closed");
        }
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port()
                + "/shop?user=root&password=root&localSocketAddress=127.0.0.3"); Statement st = c.createStatement()) {
            assertEquals("proxy_a", marker(st));
        }
    }

    private static String marker(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT v FROM marker WHERE id = 1")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private static byte[] readPacket(DataInputStream in) throws IOException {
        int length = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
        in.readUnsignedByte();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return payload;
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }


    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
