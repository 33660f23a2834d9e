package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.strata.frontend.packet.TextRow;
import io.strata.protocol.MySQLBuf;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Text-protocol row encoding, the per-row work of results Strata writes itself: the JDBC executor's rows
 * ({@code ResultPackets.row}: every cell's string encoded in the client's character set, then written as a
 * length-encoded string into a pooled buffer of initial capacity 128) and Strata's local results
 * ({@code LocalResultSet.write}: {@code MySQLBuf.writeStringLenenc} into a buffer of 64). In JDBC executor mode it
 * is paid once per row of every result, on top of the driver's own decoding. The row is a full sysbench row:
 * id INT, k INT, c CHAR(120), pad CHAR(60), 190 bytes encoded, so both initial capacities have to grow.
 *
 * <ul>
 *   <li>{@code jdbcRow}, {@code localRow}: the two loops as written, buffer released after each row;</li>
 *   <li>{@code whatIfJdbcRowPresized}: {@code jdbcRow} with an initial capacity of 256, to price the growth;</li>
 *   <li>{@code whatIfJdbcRowDirectUtf8}: {@code jdbcRow} writing UTF-8 straight into the buffer
 *       ({@link ByteBufUtil#utf8Bytes} then {@link ByteBufUtil#writeUtf8}), without the intermediate byte[].</li>
 * </ul>
 * The two what-ifs are not Strata code: they show what those changes would buy.
 *
 * <p>{@code thread} says whose allocator it is. {@code ResultPackets} runs on the statement's virtual thread,
 * which Netty's default pooled allocator serves without a thread cache ({@code other}); {@code LocalResultSet} runs
 * on the event loop, which has one ({@code event_loop}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RowEncodingBenchmark {

    /** One row as the JDBC executor hands it over (text columns read with getString) and as a local result. */
    @State(Scope.Thread)
    public static class Row {
        @Param({"other", "event_loop"})
        String thread;

        ByteBufAllocator alloc;
        Charset charset;
        Object[] cells;
        List<Object> localRow;

        @Setup(Level.Trial)
        public void setup() {
            alloc = thread.equals("event_loop") ? Wire.EVENT_LOOP_ALLOC : Wire.OTHER_THREAD_ALLOC;
            charset = StandardCharsets.UTF_8; // utf8mb4 clients
            cells = new Object[] {"5021", "4993", Wire.C, Wire.PAD};
            localRow = Arrays.asList(cells.clone());
            ByteBuf out = alloc.buffer(128);
            jdbc(out, cells, charset);
            if (out.readableBytes() != 190) {
                throw new IllegalStateException("a sysbench row is 190 bytes, encoded " + out.readableBytes());
            }
            out.release();
        }
    }

    @Benchmark
    public void jdbcRow(Row r, Blackhole bh) {
        ByteBuf out = r.alloc.buffer(128);
        jdbc(out, r.cells, r.charset);
        consume(out, bh);
    }

    @Benchmark
    public void localRow(Row r, Blackhole bh) {
        ByteBuf out = r.alloc.buffer(64);
        for (Object cell : r.localRow) {
            if (cell == null) {
                out.writeByte(0xFB);
            } else {
                MySQLBuf.writeStringLenenc(out, cell.toString());
            }
        }
        consume(out, bh);
    }

    @Benchmark
    public void whatIfJdbcRowPresized(Row r, Blackhole bh) {
        ByteBuf out = r.alloc.buffer(256);
        jdbc(out, r.cells, r.charset);
        consume(out, bh);
    }

    @Benchmark
    public void whatIfJdbcRowDirectUtf8(Row r, Blackhole bh) {
        ByteBuf out = r.alloc.buffer(128);
        for (Object cell : r.cells) {
            if (cell == null) {
                out.writeByte(0xFB);
            } else if (cell instanceof byte[] bytes) {
                MySQLBuf.writeBytesLenenc(out, bytes);
            } else {
                String s = cell.toString();
                MySQLBuf.writeIntLenenc(out, ByteBufUtil.utf8Bytes(s));
                ByteBufUtil.writeUtf8(out, s);
            }
        }
        consume(out, bh);
    }

    /** Row encoding as the JDBC executor and local result sets do it. */
    static void jdbc(ByteBuf out, Object[] cells, Charset charset) {
        TextRow.write(out, cells, charset);
    }

    private static void consume(ByteBuf out, Blackhole bh) {
        bh.consume(out.readableBytes());
        bh.consume(out.getByte(out.writerIndex() - 1));
        out.release();
    }
}
