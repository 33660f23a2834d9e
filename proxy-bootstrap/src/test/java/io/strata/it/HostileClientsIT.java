package io.strata.it;

import io.netty.buffer.Unpooled;
import io.strata.config.LimitsConfig;
import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import io.strata.protocol.ErrPacket;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that try to wear the proxy down cannot take memory or threads from the others: connections that never log
 * in are closed after server.handshakeTimeout and cost no thread meanwhile; nobody may send a large packet before
 * logging in; and the packets still arriving from all clients together hold at most server.packetMemory, the next
 * large one getting 1041 (its connection closed) while small statements of everyone else go on.
 */
class HostileClientsIT {

    private static final int MIB = 1 << 20;

    private static StrataFixture start(LimitsConfig limits) {
        return StrataFixture.start(s -> s.withLimits(limits), ServerConfig.NATIVE_PASSWORD);
    }

    private static Connection connect(StrataFixture strata) throws SQLException {
        return strata.connect(Driver.MARIADB, "it", "root", "root", new Properties());
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static long strataThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("strata-")).count();
    }

    /** Reads until the server closes the connection; false if it is still open after {@code millis}. */
    private static boolean closedWithin(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            while (in.read(buffer) >= 0) {
                // the greeting, or an error, then the close
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

    /** The server's next packet as an error, or null when it is something else or the connection ended. */
    private static ErrPacket readError(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        while (true) {
            byte[] header = new byte[4];
            in.readFully(header);
            int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
            byte[] payload = new byte[length];
            in.readFully(payload);
            if ((payload[0] & 0xFF) == 0xFF) {
                return ErrPacket.decode(Unpooled.wrappedBuffer(payload));
            }
        }
    }

    private static byte[] header(int length, int sequenceId) {
        return new byte[] {(byte) length, (byte) (length >> 8), (byte) (length >> 16), (byte) sequenceId};
    }

    @Test
    void manyConnectionsThatNeverLogInTakeNoThreadAndAreClosedAfterTheHandshakeTimeout() throws Exception {
        try (StrataFixture strata = start(new LimitsConfig(0, 0, 1500)); Connection working = connect(strata)) {
            long threadsBefore = strataThreads();
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    silent.add(new Socket("127.0.0.1", strata.port()));
                }
                for (int i = 0; i < 50; i++) {
                    assertEquals(1, selectOne(working), "a logged-in session works while 300 others hang");
                }
                try (Connection late = connect(strata)) {
                    assertEquals(1, selectOne(late), "and a new one logs in");
                }
                // event loops start as their first connection comes: at most one per core more, not one per client
                assertTrue(strataThreads() <= threadsBefore + Runtime.getRuntime().availableProcessors(),
                        "the silent connections took no thread of their own: " + strataThreads());
                for (Socket socket : silent) {
                    assertTrue(closedWithin(socket, 10_000), "closed by the handshake timeout");
                }
            } finally {
                for (Socket socket : silent) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void noOneSendsALargePacketBeforeLoggingIn() throws Exception {
        try (StrataFixture strata = start(LimitsConfig.DEFAULT)) {
            for (int announced : new int[] {MIB, 0xFFFFFF}) {
                try (Socket socket = new Socket("127.0.0.1", strata.port())) {
                    socket.getInputStream().read(new byte[4096]); // the greeting
                    socket.getOutputStream().write(header(announced, 1));
                    socket.getOutputStream().write(new byte[1000]);
                    ErrPacket error = readError(socket);
                    assertEquals(1153, error.errorCode(), error.message());
                    assertTrue(error.message().contains("before it has logged in"), error.message());
                    assertTrue(closedWithin(socket, 5000));
                }
            }
            try (Connection c = connect(strata)) {
                assertEquals(1, selectOne(c));
            }
        }
    }

    @Test
    void packetsStillArrivingShareABoundedMemoryAndTheOthersGoOn() throws Exception {
        try (StrataFixture strata = start(new LimitsConfig(0, 0, 10_000, 30_000, 48L * MIB));
             Connection working = connect(strata)) {
            List<RawClient> slow = new ArrayList<>();
            try {
                // Three clients each announce a statement of 1 GiB in 16 MiB parts and send a little of the first
                // part: each part counts whole from its header, so three take the 48 MiB.
                for (int i = 0; i < 3; i++) {
                    RawClient client = RawClient.connect(strata.port(), "root", "root", "it");
                    client.writeRaw(header(0xFFFFFF, 0));
                    client.writeRaw(new byte[] {0x03});
                    client.writeRaw(new byte[MIB]);
                    slow.add(client);
                }
                awaitFull(strata, working);
                try (RawClient fourth = RawClient.connect(strata.port(), "root", "root", "it")) {
                    fourth.writeRaw(header(0xFFFFFF, 0));
                    fourth.writeRaw(new byte[] {0x03});
                    List<byte[]> answer = List.of(fourth.readPacket());
                    ErrPacket error = RawClient.error(answer);
                    assertNotNull(error, "the fourth hears why");
                    assertEquals(1041, error.errorCode(), error.message());
                    assertTrue(fourth.isClosedByServer(), "and its connection closes");
                }
                assertEquals(1, selectOne(working), "small statements of everyone else go on");
                for (RawClient client : slow) {
                    client.close();
                }
                slow.clear();
                assertEquals(2 * MIB, insertLarge(strata, 2 * MIB), "the memory comes back when they go");
            } finally {
                for (RawClient client : slow) {
                    client.close();
                }
            }
        }
    }

    /**
     * Waits until a statement of 1 MiB is refused for want of packet memory: the three slow clients' parts have
     * been seen by then (each is read on its own event loop).
     */
    private static void awaitFull(StrataFixture strata, Connection working) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                insertLarge(strata, MIB);
            } catch (SQLException e) {
                if (e.getErrorCode() == 1041) {
                    return;
                }
                // the close that follows 1041 may reach the driver first: only the error code says it was that
            }
            assertTrue(System.nanoTime() < deadline, "the slow clients never filled the packet memory");
            Thread.sleep(50);
        }
    }

    /** A statement of about {@code bytes} bytes on a new connection; returns the length the server stored. */
    private static int insertLarge(StrataFixture strata, int bytes) throws SQLException {
        try (Connection c = connect(strata)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT LENGTH(?)")) {
                ps.setString(1, "x".repeat(bytes));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        }
    }
}
