package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseParser;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.EofPacket;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.OkPacket;
import io.strata.protocol.ServerStatus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link ResponseParser}, the relay executor's only per-packet work on a backend response: it follows the
 * response's structure (column count, column definitions, rows, terminator) to find where it ends, and relays the
 * packets untouched. Every packet of every result passes through it on the backend event loop, so its cost per
 * packet, and whether it stays flat for rows it never looks into, is the relay's overhead. Results are in ns per
 * packet, parser construction and summary included.
 *
 * <ul>
 *   <li>{@code pointSelect}: sysbench's point select ({@code SELECT c FROM sbtest1 WHERE id=N}) to a
 *       CLIENT_DEPRECATE_EOF connection: column count, one column definition, one row, OK (4 packets);</li>
 *   <li>{@code pointSelectClassicEof}: the same without CLIENT_DEPRECATE_EOF: EOF after the column definitions and
 *       at the end (5 packets);</li>
 *   <li>{@code rows1000}: {@code SELECT id, k, c, pad} returning 1000 full sbtest rows (1006 packets).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ResponseParserBenchmark {

    static final int POINT_SELECT_PACKETS = 4;
    static final int POINT_SELECT_CLASSIC_PACKETS = 5;
    static final int ROWS = 1000;
    static final int ROWS_PACKETS = 1 + 4 + ROWS + 1;

    /** The responses, each packet a slice of one buffer as the frame decoder hands them over. */
    @State(Scope.Thread)
    public static class Responses {
        ByteBuf pointSelectWire;
        ByteBuf pointSelectClassicWire;
        ByteBuf rowsWire;
        ByteBuf[] pointSelect;
        ByteBuf[] pointSelectClassic;
        ByteBuf[] rows;

        @Setup(Level.Trial)
        public void setup() {
            pointSelectWire = Wire.direct(512);
            pointSelect = pointSelect(pointSelectWire, true);
            pointSelectClassicWire = Wire.direct(512);
            pointSelectClassic = pointSelect(pointSelectClassicWire, false);
            rowsWire = Wire.direct(ROWS * 200 + 1024);
            rows = rows(rowsWire);
            check(pointSelect, POINT_SELECT_PACKETS, true);
            check(pointSelectClassic, POINT_SELECT_CLASSIC_PACKETS, false);
            check(rows, ROWS_PACKETS, true);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Wire.release(pointSelectWire);
            Wire.release(pointSelectClassicWire);
            Wire.release(rowsWire);
        }

        private static ByteBuf[] pointSelect(ByteBuf wire, boolean deprecateEof) {
            Writer w = new Writer(wire);
            w.packet(out -> MySQLBuf.writeIntLenenc(out, 1));
            w.packet(out -> Wire.column(out, "c", Wire.UTF8MB4_GENERAL_CI, 480, Wire.TYPE_STRING, 1));
            if (!deprecateEof) {
                w.packet(out -> new EofPacket(0, ServerStatus.AUTOCOMMIT).encode(out));
            }
            w.packet(out -> MySQLBuf.writeStringLenenc(out, Wire.C));
            w.terminator(deprecateEof);
            return w.packets();
        }

        private static ByteBuf[] rows(ByteBuf wire) {
            Writer w = new Writer(wire);
            w.packet(out -> MySQLBuf.writeIntLenenc(out, 4));
            w.packet(out -> Wire.column(out, "id", Wire.BINARY, 11, Wire.TYPE_LONG, 0x4203));
            w.packet(out -> Wire.column(out, "k", Wire.BINARY, 11, Wire.TYPE_LONG, 0x4009));
            w.packet(out -> Wire.column(out, "c", Wire.UTF8MB4_GENERAL_CI, 480, Wire.TYPE_STRING, 1));
            w.packet(out -> Wire.column(out, "pad", Wire.UTF8MB4_GENERAL_CI, 240, Wire.TYPE_STRING, 1));
            for (int i = 0; i < ROWS; i++) {
                int id = 5021 + i;
                w.packet(out -> {
                    MySQLBuf.writeStringLenenc(out, Integer.toString(id));
                    MySQLBuf.writeStringLenenc(out, Integer.toString(id * 7 % 10000));
                    MySQLBuf.writeStringLenenc(out, Wire.C);
                    MySQLBuf.writeStringLenenc(out, Wire.PAD);
                });
            }
            w.terminator(true);
            return w.packets();
        }

        /** The test data must be what the parser expects: complete exactly at the last packet. */
        private static void check(ByteBuf[] packets, int expected, boolean deprecateEof) {
            if (packets.length != expected) {
                throw new IllegalStateException(expected + " packets expected, built " + packets.length);
            }
            ResponseParser parser = new ResponseParser(ResponseKind.QUERY, deprecateEof);
            for (int i = 0; i < packets.length; i++) {
                if (parser.accept(packets[i]) != (i == packets.length - 1)) {
                    throw new IllegalStateException("response not complete exactly at its last packet: " + i);
                }
            }
            if (parser.summary().statusFlags() != ServerStatus.AUTOCOMMIT) {
                throw new IllegalStateException("unexpected summary " + parser.summary());
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(POINT_SELECT_PACKETS)
    public ResponseSummary pointSelect(Responses r) {
        return parse(r.pointSelect, true);
    }

    @Benchmark
    @OperationsPerInvocation(POINT_SELECT_CLASSIC_PACKETS)
    public ResponseSummary pointSelectClassicEof(Responses r) {
        return parse(r.pointSelectClassic, false);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS_PACKETS)
    public ResponseSummary rows1000(Responses r) {
        return parse(r.rows, true);
    }

    /** As the backend connection does: a parser per response, each packet offered until it says complete. */
    private static ResponseSummary parse(ByteBuf[] packets, boolean deprecateEof) {
        ResponseParser parser = new ResponseParser(ResponseKind.QUERY, deprecateEof);
        for (ByteBuf packet : packets) {
            if (parser.accept(packet)) {
                return parser.summary();
            }
        }
        throw new IllegalStateException("response incomplete");
    }

    /** Writes consecutive packets into one buffer and keeps a slice of each. */
    private static final class Writer {
        private final ByteBuf wire;
        private final List<ByteBuf> packets = new ArrayList<>();
        private int sequenceId = 1;

        Writer(ByteBuf wire) {
            this.wire = wire;
        }

        void packet(Consumer<ByteBuf> payload) {
            int start = wire.writerIndex();
            Wire.packet(wire, sequenceId++, payload);
            packets.add(wire.slice(start, wire.writerIndex() - start));
        }

        void terminator(boolean deprecateEof) {
            if (deprecateEof) {
                packet(out -> new OkPacket(OkPacket.EOF_HEADER, 0, 0, ServerStatus.AUTOCOMMIT, 0, "").encode(out));
            } else {
                packet(out -> new EofPacket(0, ServerStatus.AUTOCOMMIT).encode(out));
            }
        }

        ByteBuf[] packets() {
            return packets.toArray(ByteBuf[]::new);
        }
    }
}
