package io.strata.frontend.command;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.strata.backend.Backends;
import io.strata.backend.execute.Mirrors;
import io.strata.config.ConfigLoader;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.FrontendStats;
import io.strata.frontend.Phases;
import io.strata.frontend.Authenticator;
import io.strata.kernel.Kernel;
import io.strata.kernel.Session;
import io.strata.kernel.StrataRuntime;
import io.strata.protocol.Capabilities;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.PacketMemory;
import io.strata.rule.RuleChain;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MySQL adapter on its own: packets in through Netty's EmbeddedChannel, packets out, a kernel behind it whose
 * only data source is a port nobody listens on. What a client sees of the command phase: answers in order, a dead
 * backend as an error after which the session goes on, MySQL's error for a command it does not know.
 */
class CommandHandlerTest {

    private static final int OK = 0x00;
    private static final int ERR = 0xFF;
    private static final int CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF
            | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_TRANSACTIONS;

    private final NioEventLoopGroup backendLoops = new NioEventLoopGroup(1);
    private EmbeddedChannel client;

    @BeforeEach
    void connect(@TempDir Path conf) throws IOException {
        Files.writeString(conf.resolve("server.yaml"),
                "users: [ { name: app, password: secret, databases: [\"*\"] } ]\n");
        Files.writeString(conf.resolve("config-shop.yaml"), """
                databaseName: shop
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1:1/shop", username: u, password: p, connectionTimeout: 250 }
                rules: []
                """);
        StrataConfig config = ConfigLoader.load(conf);
        HealthRegistry health = new HealthRegistry();
        Map<String, RuleChain> chains = new LinkedHashMap<>();
        for (DatabaseConfig database : config.databases().values()) {
            chains.put(database.databaseName(), RuleChain.of(database, "config-shop.yaml", health,
                    BuiltInRules.factories()));
        }
        Backends backends = new Backends(config, backendLoops);
        Kernel kernel = new Kernel(new StrataRuntime(config, chains, backends, null, health, new Mirrors(backends)),
                null, null);
        FrontendContext context = new FrontendContext(kernel, new Authenticator(config.server()), null,
                new FrontendStats());

        client = new EmbeddedChannel();
        Session session = new Session(kernel.sessions().nextId(), new InetSocketAddress("10.0.0.7", 50000),
                new Session.Client() {
                    @Override
                    public void close() {
                        client.close();
                    }

                    @Override
                    public void stopAtBoundary() {
                    }
                });
        session.login("app", CAPABILITIES, 0, 45);
        session.state().use("shop", null);
        kernel.sessions().add(session);
        client.pipeline().addLast(PacketFrameDecoder.forClient(1 << 24, new PacketMemory(1 << 26)),
                PacketEncoder.INSTANCE, new CommandHandler(context, NO_CHANGE_USER, session));
    }

    @AfterEach
    void close() {
        client.finishAndReleaseAll();
        backendLoops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    /** A client whose socket fails (reset by peer) is closed quietly: no error packet thrown after it. */
    @Test
    void aClientWhoseConnectionFailsIsClosedWithNoAnswer() {
        client.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
        client.runPendingTasks();

        assertFalse(client.isActive(), "closed");
        assertNull(client.readOutbound(), "nothing written to a socket that is gone");
    }

    @Test
    void aPingIsAnsweredWithAnOk() {
        client.writeInbound(Unpooled.wrappedBuffer(packet(0, 0x0e)));

        List<byte[]> answer = answers(1);
        assertEquals(OK, first(answer.get(0)));
        assertEquals(1, answer.get(0)[3], "the answer's sequence id follows the command's");
    }

    @Test
    void pipelinedCommandsAreAnsweredOneAfterTheOtherInTheirOrder() {
        ByteBuf pipelined = Unpooled.wrappedBuffer(packet(0, 0x0e), query("SELECT CONNECTION_ID()"),
                packet(0, 0x0e));
        client.writeInbound(pipelined);

        List<byte[]> answer = answers(6); // OK; column count, column, row, end; OK
        assertEquals(OK, first(answer.get(0)));
        assertEquals(1, first(answer.get(1)), "one column");
        assertEquals("CONNECTION_ID()", columnName(answer.get(2)));
        assertEquals("1", text(answer.get(3)), "the session's id, as Strata numbers them");
        assertEquals(0xFE, first(answer.get(4)), "the result set's end (an OK with 0xFE: CLIENT_DEPRECATE_EOF)");
        assertEquals(OK, first(answer.get(5)), "then the second ping's");
    }

    /** The embedded channel's loop can carry no socket: every backend connection fails, as to a dead server. */
    @Test
    void aStatementForADeadBackendGetsAnErrorAndTheSessionGoesOn() {
        client.writeInbound(Unpooled.wrappedBuffer(query("SELECT * FROM t_order")));

        byte[] error = answers(1).get(0);
        assertEquals(ERR, first(error));
        assertEquals(1429, (error[5] & 0xFF) | (error[6] & 0xFF) << 8, "ER_CONNECT_TO_FOREIGN_DATA_SOURCE");
        assertTrue(new String(error, 13, error.length - 13, StandardCharsets.UTF_8)
                .startsWith("Can't connect to backend data source 'ds_0' of database 'shop'"));

        client.writeInbound(Unpooled.wrappedBuffer(packet(0, 0x0e)));
        assertEquals(OK, first(answers(1).get(0)));
    }

    @Test
    void aCommandMySqlDoesNotKnowGetsItsUnknownCommandError() {
        client.writeInbound(Unpooled.wrappedBuffer(packet(0, 0x7a)));

        byte[] error = answers(1).get(0);
        assertEquals(ERR, first(error));
        assertEquals(1047, (error[5] & 0xFF) | (error[6] & 0xFF) << 8);
    }

    /** The next {@code count} packets the client gets, each with its 4-byte header; waits for them (10 s). */
    private List<byte[]> answers(int count) {
        List<byte[]> packets = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ByteBuf pending = Unpooled.buffer();
        while (packets.size() < count) {
            client.runPendingTasks();
            client.runScheduledPendingTasks();
            Object out;
            while ((out = client.readOutbound()) != null) {
                ByteBuf buf = (ByteBuf) out;
                pending.writeBytes(buf);
                buf.release();
            }
            while (packets.size() < count && pending.readableBytes() >= 4
                    && pending.readableBytes() >= 4 + pending.getUnsignedMediumLE(pending.readerIndex())) {
                byte[] packet = new byte[4 + pending.getUnsignedMediumLE(pending.readerIndex())];
                pending.readBytes(packet);
                packets.add(packet);
            }
            assertTrue(System.nanoTime() < deadline, "answered within 10 s: " + packets.size() + " of " + count);
            if (packets.size() < count) {
                sleep();
            }
        }
        assertEquals(0, pending.readableBytes(), "nothing more than the packets asked for has come yet");
        return packets;
    }

    private static byte[] packet(int sequenceId, int command, byte... body) {
        byte[] packet = new byte[5 + body.length];
        int length = 1 + body.length;
        packet[0] = (byte) length;
        packet[1] = (byte) (length >> 8);
        packet[2] = (byte) (length >> 16);
        packet[3] = (byte) sequenceId;
        packet[4] = (byte) command;
        System.arraycopy(body, 0, packet, 5, body.length);
        return packet;
    }

    private static byte[] query(String sql) {
        return packet(0, 0x03, sql.getBytes(StandardCharsets.UTF_8));
    }

    private static int first(byte[] packet) {
        return packet[4] & 0xFF;
    }

    /** A column definition's name: the fifth length-encoded string of its payload. */
    private static String columnName(byte[] packet) {
        int at = 4;
        for (int i = 0; i < 4; i++) {
            at += 1 + (packet[at] & 0xFF);
        }
        return new String(packet, at + 1, packet[at] & 0xFF, StandardCharsets.UTF_8);
    }

    /** A one-cell text row's value. */
    private static String text(byte[] packet) {
        return new String(packet, 5, packet[4] & 0xFF, StandardCharsets.UTF_8);
    }

    private static void sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final Phases NO_CHANGE_USER = new Phases() {
        @Override
        public ChannelHandler commands(Session session) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ChannelHandler changeUser(Session session, HandshakeResponse41 response, int sequenceId) {
            throw new UnsupportedOperationException();
        }
    };
}
