package io.strata.kernel.slowlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real reader: Percona's {@code pt-query-digest} on a log SlowLog wrote. Runs only where the tool is on the
 * PATH; {@code bench/slowlog/pt-query-digest-check.sh} installs it and runs this class, and fails if it skipped.
 */
@EnabledIf("ptQueryDigestOnPath")
class SlowLogPtQueryDigestTest {

    /** "# Overall: 5 total, 2 unique, 0.00 QPS, 0.00x concurrency ___": events read, distinct classes. */
    private static final Pattern OVERALL = Pattern.compile("^# Overall: (\\d+) total, (\\d+) unique\\b.*$",
            Pattern.MULTILINE);
    /** A Profile row: "#    1 0x9C05EA5686390AEB296E90D8F864A512  6.0000 75.0%     3 2.0000  0.00 SELECT orders". */
    private static final Pattern PROFILE_ROW = Pattern.compile(
            "^# +\\d+ 0x[0-9A-F]+ +[0-9.]+ +[0-9.]+% +(\\d+) +\\S+ +\\S+ (.+?)\\s*$", Pattern.MULTILINE);
    private static final Pattern DATABASES = Pattern.compile("^# Databases +(.+?)\\s*$", Pattern.MULTILINE);
    private static final long START = 1_795_671_601_000L;

    @TempDir
    Path dir;

    static boolean ptQueryDigestOnPath() {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, "pt-query-digest")));
    }

    @Test
    void readsFiveQueriesInTwoClasses() throws Exception {
        Path file = dir.resolve("slow.log");
        try (SlowLog log = new SlowLog(file, 1000)) {
            for (int id = 1; id <= 3; id++) {
                log.log(new SlowQuery(START + id * 1000L, 2.0, "app", "10.0.0.5", 13, "shop", 1, 1, 0,
                        "SELECT * FROM orders WHERE id = " + id));
            }
            for (String sku : List.of("a-1", "b-2")) {
                log.log(new SlowQuery(START + 5000, 1.0, "app", "10.0.0.6", 14, "shop", 0, 1, 1,
                        "UPDATE stock SET qty = qty - 1 WHERE sku = '" + sku + "'"));
            }
        }

        String report = ptQueryDigest(file);

        Matcher overall = OVERALL.matcher(report);
        assertTrue(overall.find(), report);
        assertEquals("5", overall.group(1), overall.group());
        assertEquals("2", overall.group(2), overall.group());
        assertEquals(Map.of("SELECT orders", 3, "UPDATE stock", 2), callsByClass(report), report);
    }

    /**
     * Two connections on two schemas, interleaved: the third entry carries no use line (the file's schema is already
     * its own), and pt-query-digest still files each statement under its own database.
     */
    @Test
    void filesInterleavedConnectionsUnderTheirOwnDatabases() throws Exception {
        Path file = dir.resolve("slow.log");
        try (SlowLog log = new SlowLog(file, 1000)) {
            log.log(new SlowQuery(START, 2.0, "app", "10.0.0.5", 13, "shop", 1, 1, 0, "SELECT * FROM orders"));
            log.log(new SlowQuery(START, 2.0, "app", "10.0.0.6", 14, "crm", 1, 1, 0, "SELECT * FROM customers"));
            log.log(new SlowQuery(START, 2.0, "app", "10.0.0.5", 13, "shop", 1, 1, 0, "SELECT * FROM orders"));
            log.log(new SlowQuery(START, 2.0, "app", "10.0.0.6", 14, "crm", 1, 1, 0, "SELECT * FROM customers"));
        }

        String report = ptQueryDigest(file);

        assertEquals(List.of("crm", "shop"),
                DATABASES.matcher(report).results().map(m -> m.group(1)).sorted().toList(), report);
    }

    private static Map<String, Integer> callsByClass(String report) {
        Map<String, Integer> calls = new TreeMap<>();
        PROFILE_ROW.matcher(report).results()
                .forEach(m -> calls.put(m.group(2), Integer.parseInt(m.group(1))));
        return calls;
    }

    /** The report on stdout; --no-version-check, else it asks Percona's server over the network first. */
    private static String ptQueryDigest(Path file) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("pt-query-digest", "--no-version-check", file.toString())
                .redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "pt-query-digest did not finish");
        String report = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), report);
        return report;
    }
}
