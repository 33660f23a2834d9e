package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.strata.backend.merge.MemoryBound;
import io.strata.backend.merge.ResultMerger;
import io.strata.backend.merge.UnitAnswer;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.protocol.MySQLBuf;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Function;
import io.strata.rule.QueryMerge.SortKey;
import io.strata.rule.ResultMerge;
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
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The merge of a sharded SELECT's result sets ({@link ResultMerger} with a {@link QueryMerge}): 4 shards of 10,000
 * text-protocol rows each, the rows as the native executor hands them over (a retained slice of the backend's read
 * per row), pulled and released as the frontend's writer does. One operation is one unit row, so the score is rows
 * merged per second.
 *
 * <ul>
 *   <li>{@code orderByInt}: {@code SELECT id, k, c FROM sbtest1 ORDER BY k}; every row passes through as it came;</li>
 *   <li>{@code orderByString}: {@code SELECT id, k, c FROM sbtest1 ORDER BY c}, each unit adding {@code
 *       WEIGHT_STRING(c)} (a hidden column: every row is cut after {@code c}, without a copy);</li>
 *   <li>{@code groupBySumCount}: {@code SELECT k, SUM(id), COUNT(*) FROM sbtest1 GROUP BY k ORDER BY k}, every
 *       shard holding the same 10,000 groups, so each merged row is made of 4 (SUM a DECIMAL, COUNT a BIGINT).</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MergeBenchmark {

    static final int SHARDS = 4;
    static final int ROWS = 10_000;
    static final int TYPE_LONGLONG = 0x08;
    static final int TYPE_NEWDECIMAL = 0xF6;
    static final int TYPE_VAR_STRING = 0xFD;

    @State(Scope.Thread)
    public static class Shards {
        List<ColumnMetadata> rowColumns;
        List<ColumnMetadata> weightedColumns;
        List<ColumnMetadata> groupColumns;
        /** Per shard, its rows sorted by k / by c (with the weight), and its groups sorted by k. */
        final List<List<ByteBuf>> byK = new ArrayList<>();
        final List<List<ByteBuf>> byC = new ArrayList<>();
        final List<List<ByteBuf>> groups = new ArrayList<>();
        final QueryMerge orderByK = new QueryMerge(3, List.of(new SortKey(1, false, -1)), false, List.of(), false,
                List.of(), null, false, List.of(), 0, -1);
        final QueryMerge orderByC = new QueryMerge(3, List.of(new SortKey(2, false, 3)), false, List.of(), false,
                List.of(), null, false, List.of(), 0, -1);
        final QueryMerge groupByK = new QueryMerge(3, List.of(new SortKey(0, false, -1)), true,
                List.of(new SortKey(0, false, -1)), true, List.of(Aggregation.of(1, Function.SUM),
                Aggregation.of(2, Function.COUNT)), null, false, List.of(), 0, -1);

        @Setup(Level.Trial)
        public void setup() {
            ColumnMetadata id = column("id", Wire.TYPE_LONG, Wire.BINARY, 0);
            ColumnMetadata k = column("k", Wire.TYPE_LONG, Wire.BINARY, 0);
            ColumnMetadata c = column("c", Wire.TYPE_STRING, Wire.UTF8MB4_GENERAL_CI, 0);
            rowColumns = List.of(id, k, c);
            weightedColumns = List.of(id, k, c, column("weight_string(c)", TYPE_VAR_STRING, Wire.BINARY, 0));
            groupColumns = List.of(k, column("sum(id)", TYPE_NEWDECIMAL, Wire.BINARY, 0),
                    column("count(*)", TYPE_LONGLONG, Wire.BINARY, 0));
            Random random = new Random(42);
            for (int shard = 0; shard < SHARDS; shard++) {
                int[] ks = random.ints(ROWS, 1, 1_000_000).sorted().toArray();
                List<ByteBuf> rows = new ArrayList<>(ROWS);
                List<ByteBuf> weighted = new ArrayList<>(ROWS);
                List<ByteBuf> grouped = new ArrayList<>(ROWS);
                String[] cs = new String[ROWS];
                for (int i = 0; i < ROWS; i++) {
                    cs[i] = String.format("%011d", random.nextLong(100_000_000_000L)) + Wire.C.substring(11);
                }
                Arrays.sort(cs);
                for (int i = 0; i < ROWS; i++) {
                    int rowId = shard * ROWS + i;
                    rows.add(text(String.valueOf(rowId), String.valueOf(ks[i]), Wire.C));
                    weighted.add(text(String.valueOf(rowId), String.valueOf(ks[i]), cs[i], cs[i]));
                    grouped.add(text(String.valueOf(i), String.valueOf(rowId * 3L), "3"));
                }
                byK.add(rows);
                byC.add(weighted);
                groups.add(grouped);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            for (List<List<ByteBuf>> all : List.of(byK, byC, groups)) {
                all.forEach(shard -> shard.forEach(Wire::release));
            }
        }

        private static ColumnMetadata column(String name, int type, int collation, int decimals) {
            return new ColumnMetadata("sbtest", "sbtest1", "sbtest1", name, name, collation, 20, type, 0, decimals,
                    null, null, collation == Wire.BINARY);
        }

        /** A text-protocol row in a buffer of its own, as a backend read holds it. */
        private static ByteBuf text(String... values) {
            ByteBuf row = Wire.direct(256);
            for (String value : values) {
                MySQLBuf.writeStringLenenc(row, value);
            }
            return row;
        }
    }

    /** A unit's result set handing out its rows as the native executor does: a retained slice each. */
    static final class Unit implements QueryResult {
        private final List<ColumnMetadata> columns;
        private final List<byte[]> definitions;
        private final List<ByteBuf> rows;
        private int next;

        Unit(List<ColumnMetadata> columns, List<ByteBuf> rows) {
            this.columns = columns;
            this.rows = rows;
            this.definitions = columns.stream().map(Unit::definition).toList();
        }

        /** The column's ColumnDefinition41, as the backend sent it. */
        private static byte[] definition(ColumnMetadata column) {
            ByteBuf out = Wire.direct(128);
            Wire.column(out, column.name(), column.collationId(), column.length(), column.type(), column.flags());
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            Wire.release(out);
            return bytes;
        }

        @Override
        public List<ColumnMetadata> columns() {
            return columns;
        }

        @Override
        public List<byte[]> columnPackets() {
            return definitions;
        }

        @Override
        public Row next() {
            if (next == rows.size()) {
                return null;
            }
            ByteBuf row = rows.get(next++);
            return new Row.Packet(row.retainedSlice(), false);
        }

        @Override
        public int statusFlags() {
            return 2;
        }

        @Override
        public int warnings() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    @Benchmark
    @OperationsPerInvocation(SHARDS * ROWS)
    public void orderByInt(Shards shards, Blackhole bh) throws InterruptedException {
        merge(shards.rowColumns, shards.byK, shards.orderByK, bh);
    }

    @Benchmark
    @OperationsPerInvocation(SHARDS * ROWS)
    public void orderByString(Shards shards, Blackhole bh) throws InterruptedException {
        merge(shards.weightedColumns, shards.byC, shards.orderByC, bh);
    }

    @Benchmark
    @OperationsPerInvocation(SHARDS * ROWS)
    public void groupBySumCount(Shards shards, Blackhole bh) throws InterruptedException {
        merge(shards.groupColumns, shards.groups, shards.groupByK, bh);
    }

    private static void merge(List<ColumnMetadata> columns, List<List<ByteBuf>> shards, QueryMerge query,
                              Blackhole bh) throws InterruptedException {
        List<UnitAnswer> answers = new ArrayList<>(shards.size());
        for (int i = 0; i < shards.size(); i++) {
            answers.add(new UnitAnswer("ds_" + i, new Unit(columns, shards.get(i))));
        }
        try (QueryResult merged = (QueryResult) ResultMerger.merge(answers, ResultMerge.CONCATENATE, query,
                MemoryBound.DEFAULT)) {
            for (Row row = merged.next(); row != null; row = merged.next()) {
                ByteBuf payload = ((Row.Packet) row).payload();
                bh.consume(payload.readableBytes());
                payload.release();
            }
        }
    }
}
