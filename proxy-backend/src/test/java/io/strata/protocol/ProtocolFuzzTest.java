package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.strata.protocol.command.CommandDecoder;
import io.strata.protocol.command.ExecuteParameters;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Whatever bytes a client sends, the parsers of what a client sends (the frame decoder, the handshake response, every
 * command, the values of an execute) either read them or refuse them with a clear error: no other exception, no
 * allocation beyond a small multiple of the input, no hang. Inputs are valid packets mutated (bytes flipped, set to
 * the lengths' markers 0xFB-0xFF, cut, repeated, spliced) and plain random bytes, from a fixed seed, so a failure
 * names the input that found it.
 *
 * <p>CI runs {@value #DEFAULT_INPUTS} inputs per parser; {@code bench/fuzz.sh} runs ten million
 * ({@code -Dstrata.fuzz.inputs}, {@code -Dstrata.fuzz.seed}).
 */
class ProtocolFuzzTest {

    private static final int DEFAULT_INPUTS = 20_000;
    private static final int INPUTS = Integer.getInteger("strata.fuzz.inputs", DEFAULT_INPUTS);
    private static final long SEED = Long.getLong("strata.fuzz.seed", 31L);
    /** What a parser may allocate beyond {@value #ALLOCATION_FACTOR} times its input (Strings, records, lists). */
    private static final long ALLOCATION_SLACK = 64 * 1024;
    private static final int ALLOCATION_FACTOR = 16;
    private static final int WARM_UP = 2_000;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A parser under test: reads the bytes or throws; which throwables count as a clear refusal is the caller's. */
    private interface Parser {
        void parse(byte[] input);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    private static byte[] handshake(int caps, Map<String, String> attrs) {
        ByteBuf out = Unpooled.buffer();
        new HandshakeResponse41(caps, 1 << 24, 45, "app", new byte[20], "shop", Scramble.NATIVE_PASSWORD, attrs)
                .encode(out);
        return bytes(out);
    }

    private static byte[] command(int code, byte[] argument) {
        byte[] out = new byte[argument.length + 1];
        out[0] = (byte) code;
        System.arraycopy(argument, 0, out, 1, argument.length);
        return out;
    }

    /** COM_STMT_EXECUTE of statement 1 with {@code params} parameters, their types and values given. */
    private static byte[] execute(byte[] types, byte[] values, int params) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(0x17).writeIntLE(1).writeByte(0).writeIntLE(1);
        out.writeZero((params + 7) / 8).writeByte(1).writeBytes(types).writeBytes(values);
        return bytes(out);
    }

    private static final List<byte[]> HANDSHAKES = List.of(
            handshake(Capabilities.SERVER_DEFAULT, Map.of()),
            handshake(Capabilities.SERVER_DEFAULT | Capabilities.CLIENT_CONNECT_ATTRS,
                    Map.of("_client_name", "fuzz", "_pid", "42")),
            handshake(Capabilities.SERVER_DEFAULT & ~Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA, Map.of()));

    private static final byte[] TYPES = {(byte) ColumnType.LONGLONG, 0, (byte) ColumnType.VAR_STRING, 0,
        (byte) ColumnType.DATETIME, 0, (byte) ColumnType.NEWDECIMAL, 0};

    private static final List<byte[]> COMMANDS = List.of(
            command(0x03, "SELECT c FROM sbtest1 WHERE id = 1".getBytes(StandardCharsets.UTF_8)),
            command(0x02, "shop".getBytes(StandardCharsets.UTF_8)),
            command(0x16, "INSERT INTO t VALUES (?, ?)".getBytes(StandardCharsets.UTF_8)),
            execute(TYPES, new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 3, 'a', 'b', 'c', 4, (byte) 0xEA, 7, 1, 2, 3, '1', '.',
                '5'}, 4),
            command(0x19, new byte[] {1, 0, 0, 0}),
            command(0x1A, new byte[] {1, 0, 0, 0}),
            command(0x1C, new byte[] {1, 0, 0, 0, 10, 0, 0, 0}),
            command(0x18, new byte[] {1, 0, 0, 0, 0, 0, 'x', 'y'}),
            command(0x11, new byte[] {'a', 'p', 'p', 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                18, 19, 20, 's', 0, 45, 0, 'm', 'y', 's', 'q', 'l', '_', 'n', 'a', 't', 'i', 'v', 'e', 0}),
            command(0x1B, new byte[] {0, 0}),
            command(0x0C, new byte[] {7, 0, 0, 0}),
            command(0x04, new byte[] {'t', 0, '%'}),
            command(0x0E, new byte[0]));

    /** A valid input with one to four mutations, or (one time in eight) random bytes. */
    private static byte[] mutate(Random random, List<byte[]> seeds) {
        if (random.nextInt(8) == 0) {
            byte[] noise = new byte[random.nextInt(96)];
            random.nextBytes(noise);
            return noise;
        }
        byte[] input = seeds.get(random.nextInt(seeds.size())).clone();
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            input = mutateOnce(random, input);
        }
        return input;
    }

    private static byte[] mutateOnce(Random random, byte[] input) {
        if (input.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        int at = random.nextInt(input.length);
        switch (random.nextInt(6)) {
            case 0 -> input[at] ^= (byte) (1 << random.nextInt(8));
            case 1 -> input[at] = (byte) (0xFB + random.nextInt(5)); // lenenc markers: NULL, 2, 3, 8 bytes, EOF
            case 2 -> input[at] = (byte) random.nextInt(256);
            case 3 -> input = Arrays.copyOf(input, at); // cut short
            case 4 -> { // a run repeated
                int length = Math.min(input.length - at, 1 + random.nextInt(16));
                byte[] grown = new byte[input.length + length];
                System.arraycopy(input, 0, grown, 0, at + length);
                System.arraycopy(input, at, grown, at + length, input.length - at);
                input = grown;
            }
            default -> { // 0xFE and eight bytes of a huge length
                byte[] grown = Arrays.copyOf(input, input.length + 9);
                System.arraycopy(input, at, grown, at + 9, input.length - at);
                grown[at] = (byte) 0xFE;
                for (int i = 1; i <= 8; i++) {
                    grown[at + i] = (byte) (random.nextInt(4) == 0 ? 0x7F : random.nextInt(256));
                }
                input = grown;
            }
        }
        return input;
    }

    /**
     * Runs the parser on {@link #INPUTS} inputs; each must parse or be refused with one of {@code refusals}, within
     * the allocation bound.
     */
    @SafeVarargs
    private static void fuzz(String what, List<byte[]> seeds, Parser parser,
                             Class<? extends Throwable>... refusals) {
        Random random = new Random(SEED ^ what.hashCode());
        int refused = 0;
        for (int i = 0; i < INPUTS; i++) {
            byte[] input = mutate(random, seeds);
            long before = THREADS.getCurrentThreadAllocatedBytes();
            try {
                parser.parse(input);
            } catch (Throwable e) {
                if (Arrays.stream(refusals).noneMatch(type -> type.isInstance(e))) {
                    fail(what + ": input " + i + " " + hex(input) + " threw " + e, e);
                }
                refused++;
            }
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            // the first inputs also load and initialise classes on this thread, which allocates: not weighed
            assertTrue(i < WARM_UP || allocated <= ALLOCATION_SLACK + (long) ALLOCATION_FACTOR * input.length,
                    what + ": input " + i + " " + hex(input) + " allocated " + allocated + " bytes");
        }
        assertTrue(refused > 0 && refused < INPUTS, what + ": the inputs were all read or all refused: " + refused);
    }

    private static String hex(byte[] input) {
        StringBuilder out = new StringBuilder();
        for (byte b : input) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }

    @Test
    void theHandshakeResponseIsReadOrRefusedClearly() {
        fuzz("handshake response", HANDSHAKES, input -> HandshakeResponse41.decode(Unpooled.wrappedBuffer(input)),
                MySQLException.class, IndexOutOfBoundsException.class);
    }

    /**
     * Found by this test (seed 31, input 2209): an auth response whose length-encoded size is 0xFE and eight bytes
     * made the parser allocate that many bytes before reading them. Now it is refused for what it is.
     */
    @Test
    void aLengthBeyondThePacketIsRefusedBeforeAnythingIsAllocated() {
        byte[] input = HexFormat.of().parseHex("cfb73f01000000012d0000000000fe5e5b7f68035d7f3600000000000000000000fe90"
                + "cde2c9607f7f000000000000000000610000000000617070fec71e387f7f55557f001400000000000000000000000000000000"
                + "00000000000073686f70006d7973716c5f6e61746976655f70617373776f7264");
        MySQLException refused = assertThrows(MySQLException.class,
                () -> HandshakeResponse41.decode(Unpooled.wrappedBuffer(input)));
        assertEquals(1835, refused.packet().errorCode());
        long before = THREADS.getCurrentThreadAllocatedBytes(); // again, its classes loaded: what the input costs
        assertThrows(MySQLException.class, () -> HandshakeResponse41.decode(Unpooled.wrappedBuffer(input)));
        assertTrue(THREADS.getCurrentThreadAllocatedBytes() - before < ALLOCATION_SLACK);
    }

    @Test
    void everyCommandIsReadOrRefusedClearly() {
        fuzz("command", COMMANDS, input -> CommandDecoder.decode(Unpooled.wrappedBuffer(input)),
                MySQLException.class);
    }

    @Test
    void theValuesOfAnExecuteAreReadOrRefusedClearly() {
        List<byte[]> executes = List.of(COMMANDS.get(3));
        fuzz("execute values", executes, input -> ExecuteParameters.decode(Unpooled.wrappedBuffer(input), 4, TYPES,
                Map.of(), StandardCharsets.UTF_8), MySQLException.class);
    }

    /**
     * Streams of packets cut at random places: frames come out or the stream is refused (1153, or 1041 when the shared
     * packet memory is full), and a closed connection gives back all it held.
     */
    @Test
    void theFrameDecoderFramesOrRefusesAnyStreamAndHoldsNothingAfterwards() {
        Random random = new Random(SEED);
        PacketMemory memory = new PacketMemory(4 << 20);
        int streams = Math.max(1, INPUTS / 20);
        for (int i = 0; i < streams; i++) {
            PacketFrameDecoder decoder = PacketFrameDecoder.forClient(1 << 20, memory);
            EmbeddedChannel channel = new EmbeddedChannel(decoder);
            if (random.nextBoolean()) {
                decoder.loggedIn();
            }
            byte[] stream = stream(random);
            List<MySQLFrame> frames = new ArrayList<>();
            Consumer<MySQLFrame> release = MySQLFrame::release;
            try {
                for (int from = 0; from < stream.length; ) {
                    int to = Math.min(stream.length, from + 1 + random.nextInt(4096));
                    channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, from, to)));
                    from = to;
                    for (Object frame; (frame = channel.readInbound()) != null; ) {
                        frames.add((MySQLFrame) frame);
                    }
                }
            } catch (DecoderException e) {
                int code = MySQLException.toErrPacket(e).errorCode();
                assertTrue(code == 1153 || code == 1041, "stream " + i + ": " + e);
            }
            frames.forEach(release);
            try {
                channel.finishAndReleaseAll(); // the close decodes what is left, which may be refused too
            } catch (DecoderException e) {
                int code = MySQLException.toErrPacket(e).errorCode();
                assertTrue(code == 1153 || code == 1041, "stream " + i + " at its close: " + e);
            }
            assertEquals(0, memory.used(), "stream " + i + ": the closed connection gave back what it held");
        }
    }

    /** Packets with random headers (lengths small, large, or 0xFFFFFF), some of their bytes, random order. */
    private static byte[] stream(Random random) {
        ByteBuf out = Unpooled.buffer();
        for (int n = 1 + random.nextInt(6); n > 0; n--) {
            int length = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(200);
                case 1 -> random.nextInt(300_000);
                case 2 -> PacketFrameDecoder.MAX_PAYLOAD;
                default -> random.nextInt(1 << 24);
            };
            out.writeMediumLE(length).writeByte(random.nextInt(256));
            // whole when small enough to be quick, else cut short (the decoder must hold it, counted, until the end)
            int sent = length <= 300_000 && random.nextBoolean() ? length : Math.min(length, random.nextInt(70_000));
            byte[] body = new byte[sent];
            random.nextBytes(body);
            out.writeBytes(body);
        }
        return bytes(out);
    }
}
