package io.strata.kernel.slowlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The slow log's text (as mysqld writes it), its password masking, and a log() that never waits. */
class SlowLogTest {

    private static final String HEADER = """
            /strata/mysqld, Version: 8.0.0-Strata (Strata MySQL proxy). started with:
            Tcp port: 0  Unix socket: (none)
            Time                 Id Command    Argument
            """;
    /** 2026-11-26T05:40:01.123Z. */
    private static final long START = 1_795_671_601_123L;

    @TempDir
    Path dir;

    @Test
    void writesEntriesAsMysql8Does() throws IOException {
        Path file = dir.resolve("logs/nested/slow.log");
        try (SlowLog log = new SlowLog(file, 1000)) {
            log.log(new SlowQuery(START, 1.002345, "app", "10.0.0.5", 13, "shop", 1, 0, 0, "SELECT SLEEP(1)"));
            log.log(new SlowQuery(START + 3877, 2.5, "app", "10.0.0.5", 13, "shop", 3, 1200, 0,
                    "SELECT * FROM orders WHERE customer_id = 7;\n  "));
        }

        assertEquals(HEADER + """
                # Time: 2026-11-26T05:40:02.125345Z
                # User@Host: app[app] @ 10.0.0.5 [10.0.0.5]  Id:    13
                # Query_time: 1.002345  Lock_time: 0.000000 Rows_sent: 1  Rows_examined: 0
                use shop;
                SET timestamp=1795671601;
                SELECT SLEEP(1);
                # Time: 2026-11-26T05:40:07.500000Z
                # User@Host: app[app] @ 10.0.0.5 [10.0.0.5]  Id:    13
                # Query_time: 2.500000  Lock_time: 0.000000 Rows_sent: 3  Rows_examined: 1200
                SET timestamp=1795671605;
                SELECT * FROM orders WHERE customer_id = 7;
                """, Files.readString(file));
    }

    @Test
    void writesUseOnlyWhenTheSchemaDiffersFromTheLastOneWritten() throws IOException {
        Path file = dir.resolve("slow.log");
        try (SlowLog log = new SlowLog(file, 0)) {
            log.log(query(1, "shop", "SELECT 1"));   // first schema: use
            log.log(query(1, "shop", "SELECT 2"));   // same connection, same schema: none
            log.log(query(1, "crm", "SELECT 3"));    // the connection changed schema: use
            log.log(query(1, "crm", "SELECT 4"));
            log.log(query(2, "crm", "SELECT 5"));    // another connection, but the file's schema is still crm
            log.log(query(2, "shop", "SELECT 6"));
            log.log(query(1, "crm", "SELECT 7"));    // unchanged for connection 1, but the file moved on to shop
            log.log(query(3, null, "SELECT 8"));     // no schema: none, and the file's stays crm
            log.log(query(3, "", "SELECT 9"));
            log.log(query(2, "crm", "SELECT 10"));
        }

        assertEquals(List.of("use shop; SELECT 1;", "SELECT 2;", "use crm; SELECT 3;", "SELECT 4;", "SELECT 5;",
                "use shop; SELECT 6;", "use crm; SELECT 7;", "SELECT 8;", "SELECT 9;", "SELECT 10;"),
                useAndStatements(Files.readString(file)));
    }

    @Test
    void writesTheBannerOnlyIntoANewFileAndRepeatsUseAfterReopening() throws IOException {
        Path file = dir.resolve("slow.log");
        try (SlowLog log = new SlowLog(file, 0)) {
            log.log(query(1, "shop", "SELECT 1"));
        }
        try (SlowLog log = new SlowLog(file, 0)) {
            log.log(query(1, "shop", "SELECT 2"));
        }

        String text = Files.readString(file);
        assertTrue(text.startsWith(HEADER), text);
        assertEquals(1, text.split("started with:", -1).length - 1, text);
        assertEquals(List.of("use shop; SELECT 1;", "use shop; SELECT 2;"), useAndStatements(text));
    }

    @Test
    void thresholdInNanoseconds() {
        try (SlowLog log = new SlowLog(dir.resolve("slow.log"), 250)) {
            assertEquals(250_000_000L, log.thresholdNanos());
        }
        assertThrows(IllegalArgumentException.class, () -> new SlowLog(dir.resolve("other.log"), -1));
    }

    static Stream<Arguments> statementsWithSecrets() {
        return Stream.of(
                Arguments.of("SET PASSWORD = 'hunter2'", "SET PASSWORD = '<secret>'"),
                Arguments.of("set password for 'app'@'%'='hunter2'", "set password for 'app'@'%'='<secret>'"),
                Arguments.of("SET PASSWORD FOR app@localhost = PASSWORD(\"hunter2\")",
                        "SET PASSWORD FOR app@localhost = PASSWORD('<secret>')"),
                Arguments.of("SET PASSWORD FOR 'a='@'h' = OLD_PASSWORD( 'hunter2' )",
                        "SET PASSWORD FOR 'a='@'h' = OLD_PASSWORD( '<secret>' )"),
                Arguments.of("SET PASSWORD = 'new' REPLACE 'old' RETAIN CURRENT PASSWORD",
                        "SET PASSWORD = '<secret>' REPLACE '<secret>' RETAIN CURRENT PASSWORD"),
                // statements the server refuses (1064) are logged too: a typo must not bare the password
                Arguments.of("SET PASSWORD = PASSWORD 'hunter2'", "SET PASSWORD = PASSWORD '<secret>'"),
                Arguments.of("SET PASSWORD = PASSWORD('hun' \"ter2\")",
                        "SET PASSWORD = PASSWORD('<secret>' '<secret>')"),
                Arguments.of("SET PASSWORD FOR `a'b` = /* 'c' */ PASSWORD('hunter2')",
                        "SET PASSWORD FOR `a'b` = /* 'c' */ PASSWORD('<secret>')"),
                Arguments.of("CREATE USER app IDENTIFIED BY PASSWORD('hunter2')",
                        "CREATE USER app IDENTIFIED BY PASSWORD('<secret>')"),
                Arguments.of("CREATE USER 'app'@'%' IDENTIFIED BY 'it''s \\' a \"secret\"' PASSWORD EXPIRE",
                        "CREATE USER 'app'@'%' IDENTIFIED BY '<secret>' PASSWORD EXPIRE"),
                Arguments.of("create user if not exists a identified by \"x\", b IDENTIFIED BY 'y'",
                        "create user if not exists a identified by '<secret>', b IDENTIFIED BY '<secret>'"),
                Arguments.of("CREATE\n\tUSER  app\n  IDENTIFIED\n\tBY\n  'hunter2'",
                        "CREATE\n\tUSER  app\n  IDENTIFIED\n\tBY\n  '<secret>'"),
                Arguments.of("/* it's a comment */ CREATE USER app /* it's */ IDENTIFIED BY 'hunter2'",
                        "/* it's a comment */ CREATE USER app /* it's */ IDENTIFIED BY '<secret>'"),
                Arguments.of("CREATE OR REPLACE USER app IDENTIFIED BY 'hunter2'",
                        "CREATE OR REPLACE USER app IDENTIFIED BY '<secret>'"),
                Arguments.of("ALTER USER app IDENTIFIED BY 'new' REPLACE 'old'",
                        "ALTER USER app IDENTIFIED BY '<secret>' REPLACE '<secret>'"),
                Arguments.of("ALTER USER USER() IDENTIFIED BY RANDOM PASSWORD", null),
                Arguments.of("GRANT ALL ON shop.* TO 'app'@'%' IDENTIFIED BY 'hunter2' WITH GRANT OPTION",
                        "GRANT ALL ON shop.* TO 'app'@'%' IDENTIFIED BY '<secret>' WITH GRANT OPTION"),
                Arguments.of("CREATE USER app IDENTIFIED WITH mysql_native_password BY 'hunter2'",
                        "CREATE USER app IDENTIFIED WITH mysql_native_password BY '<secret>'"),
                Arguments.of("ALTER USER app IDENTIFIED WITH 'caching_sha2_password' BY \"hunter2\"",
                        "ALTER USER app IDENTIFIED WITH 'caching_sha2_password' BY '<secret>'"),
                Arguments.of("CREATE USER app IDENTIFIED WITH caching_sha2_password AS '$A$005$salthash'",
                        "CREATE USER app IDENTIFIED WITH caching_sha2_password AS '<secret>'"),
                Arguments.of("GRANT USAGE ON *.* TO app IDENTIFIED BY PASSWORD "
                                + "'*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'",
                        "GRANT USAGE ON *.* TO app IDENTIFIED BY PASSWORD '<secret>'"),
                Arguments.of("CREATE USER app IDENTIFIED VIA ed25519 USING PASSWORD('hunter2') OR unix_socket",
                        "CREATE USER app IDENTIFIED VIA ed25519 USING PASSWORD('<secret>') OR unix_socket"),
                Arguments.of("CHANGE REPLICATION SOURCE TO SOURCE_HOST='db1', SOURCE_PASSWORD = 'hunter2'",
                        "CHANGE REPLICATION SOURCE TO SOURCE_HOST='db1', SOURCE_PASSWORD = '<secret>'"),
                Arguments.of("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD 'hunter2')",
                        "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD '<secret>')"));
    }

    /** A null expectation: nothing to mask, and the very same String comes back. */
    @ParameterizedTest
    @MethodSource("statementsWithSecrets")
    void masksEachFormOfSecret(String sql, String expected) {
        if (expected == null) {
            assertSame(sql, SlowLog.masked(sql));
        } else {
            assertEquals(expected, SlowLog.masked(sql));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 1",
        "SELECT password FROM users WHERE password = 'hunter2'",
        "UPDATE users SET password = PASSWORD('hunter2') WHERE id = 1",
        "INSERT INTO notes VALUES ('a user IDENTIFIED BY ''hunter2''')",
        "SHOW GRANTS FOR app",
        "CREATE TABLE t (password VARCHAR(64))"
    })
    void leavesOtherStatementsUntouched(String sql) {
        assertSame(sql, SlowLog.masked(sql));
    }

    @Test
    void logMasksWhatItWrites() throws IOException {
        Path file = dir.resolve("slow.log");
        try (SlowLog log = new SlowLog(file, 0)) {
            log.log(query(1, null, "CREATE USER 'app'@'%' IDENTIFIED BY 'hunter2'"));
        }

        String text = Files.readString(file);
        assertTrue(text.contains("\nCREATE USER 'app'@'%' IDENTIFIED BY '<secret>';\n"), text);
        assertTrue(!text.contains("hunter2"), text);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void burstFromFourThreadsIsCountedWhole() throws Exception {
        Path file = dir.resolve("slow.log");
        SlowLog log = new SlowLog(file, 0);
        burst(log, 4, 12_500);
        log.close();

        assertEquals(50_000, log.written() + log.dropped());
        assertEquals(log.written(), entries(Files.readString(file)));
    }

    /**
     * The writer is stuck in a write to a pipe that nobody reads (a disk that stopped): all 50,000 calls return
     * all the same, those past the queue's room dropped; once the pipe is read, close() writes the rest.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void logNeverWaitsForAStalledWriter() throws Exception {
        Path fifo = dir.resolve("slow.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        CountDownLatch readNow = new CountDownLatch(1);
        AtomicReference<String> read = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                readNow.await();
                read.set(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException | InterruptedException e) {
                read.set(e.toString());
            }
        });
        SlowLog log = new SlowLog(fifo, 0);

        burst(log, 4, 12_500);
        assertTrue(log.dropped() >= 50_000 - SlowLog.CAPACITY - 2_000, "dropped " + log.dropped());

        readNow.countDown();
        log.close();
        reader.join();
        assertEquals(50_000, log.written() + log.dropped());
        assertEquals(log.written(), entries(read.get()));
    }

    /** Calls log() from {@code threads} threads at once, and waits until every call has returned. */
    private static void burst(SlowLog log, int threads, int perThread) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    log.log(query(thread, "shop", "SELECT * FROM orders WHERE id = " + i));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
    }

    private static SlowQuery query(long connectionId, String schema, String sql) {
        return new SlowQuery(START, 1.5, "app", "10.0.0.5", connectionId, schema, 1, 1, 0, sql);
    }

    private static long entries(String text) {
        return Pattern.compile("^# Time: ", Pattern.MULTILINE).matcher(text).results().count();
    }

    /** Each entry's use line (if any) and statement, on one line. */
    private static List<String> useAndStatements(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("Rows_examined: \\d+\\n(use \\S+\\n)?SET timestamp=\\d+;\\n(.*)\\n").matcher(text);
        while (m.find()) {
            out.add(m.group(1) == null ? m.group(2) : m.group(1).strip() + " " + m.group(2));
        }
        return out;
    }
}
