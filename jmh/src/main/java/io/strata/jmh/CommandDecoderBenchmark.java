package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.protocol.CommandType;
import io.strata.protocol.command.ClientCommand;
import io.strata.protocol.command.ComQuery;
import io.strata.protocol.command.CommandDecoder;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What decoding a COM_QUERY into a {@link ClientCommand} adds to every statement, next to what the command handler
 * does without it. Both make the statement's text a String once; the decoder also allocates the record (24 bytes:
 * it keeps the payload itself, not a slice of it).
 *
 * <ul>
 *   <li>{@code inline}: the command byte looked up and the text decoded, as {@code CommandHandler.dispatch} and
 *       {@code query} read the payload themselves;</li>
 *   <li>{@code decoder}: {@link CommandDecoder#decode} and a pattern switch to the text, as a handler dispatching on
 *       records would.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CommandDecoderBenchmark {

    /** The statement as a client's COM_QUERY payload (command byte, then the text), in a direct buffer. */
    @State(Scope.Thread)
    public static class Payload {
        @Param({"point_select", "insert"})
        String statement;
        ByteBuf payload;

        @Setup(Level.Trial)
        public void setup() {
            byte[] text = ClassifierBenchmark.STATEMENTS.get(statement).getBytes(StandardCharsets.UTF_8);
            payload = Unpooled.directBuffer(text.length + 1).writeByte(0x03).writeBytes(text);
        }

        @TearDown(Level.Trial)
        public void release() {
            payload.release();
        }
    }

    @Benchmark
    public String inline(Payload p) {
        ByteBuf payload = p.payload;
        CommandType type = CommandType.of(payload.getUnsignedByte(payload.readerIndex()));
        if (type != CommandType.COM_QUERY) {
            throw new IllegalStateException(type.name());
        }
        return payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8);
    }

    @Benchmark
    public String decoder(Payload p) {
        return switch (CommandDecoder.decode(p.payload)) {
            case ComQuery query -> query.sql();
            case ClientCommand other -> throw new IllegalStateException(other.type().name());
        };
    }
}
