package io.strata.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.SlowLogConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Passwords never reach a log: not a client's, right or wrong, at login or COM_CHANGE_USER, with either plugin and
 * either driver; not a data source's, whether the backend takes it or not; not one inside an account statement
 * (CREATE USER, ALTER USER, GRANT ... IDENTIFIED BY, SET PASSWORD, as text or prepared), whether the backend runs it
 * or refuses it with an error that quotes it. While it runs, every event of every logger (Strata's at TRACE, the
 * rest at DEBUG) is kept and searched, message and throwable, and so is the slow query log (threshold 0: every
 * statement). MariaDB Connector/J stays at INFO, as conf/logback.xml keeps it: at DEBUG it logs each statement's
 * text, the tests' own and, with the JDBC executor, Strata's.
 *
 * <p>The passwords share {@link #MARK}, which {@code .ci/run} looks for in the test reports after the build.
 */
class PasswordsNotLoggedIT {

    static final String MARK = "n0tInL0gs";
    private static final String USER_PASSWORD = "usr-" + MARK + "-7Qx";
    private static final String WRONG_PASSWORD = "wrg-" + MARK + "-5Jm";
    private static final String DATA_SOURCE_PASSWORD = "dsx-" + MARK + "-3Hv";
    private static final String WRONG_DATA_SOURCE_PASSWORD = "dsw-" + MARK + "-9Kp";
    private static final String STATEMENT_PASSWORD = "stm-" + MARK + "-8Lc";
    private static final List<String> PASSWORDS = List.of(USER_PASSWORD, WRONG_PASSWORD, DATA_SOURCE_PASSWORD,
            WRONG_DATA_SOURCE_PASSWORD, STATEMENT_PASSWORD);
    /** Loggers the test resources quiet; they speak at DEBUG here. */
    private static final List<String> QUIETED = List.of("io.netty", "com.zaxxer.hikari");

    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Map<String, Level> levels = new LinkedHashMap<>();

    @BeforeAll
    static void backendAccount() throws SQLException {
        Backend.execute("CREATE USER IF NOT EXISTS 'pw_backend'@'%' IDENTIFIED BY '" + DATA_SOURCE_PASSWORD + "'",
                "GRANT ALL PRIVILEGES ON *.* TO 'pw_backend'@'%' WITH GRANT OPTION");
    }

    @BeforeEach
    void captureEverything() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        setLevel(context.getLogger(Logger.ROOT_LOGGER_NAME), Level.DEBUG);
        setLevel(context.getLogger("io.strata"), Level.TRACE);
        QUIETED.forEach(name -> setLevel(context.getLogger(name), Level.DEBUG));
        setLevel(context.getLogger("org.mariadb.jdbc"), Level.INFO);
        events.setContext(context);
        events.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(events);
    }

    private void setLevel(Logger logger, Level level) {
        levels.put(logger.getName(), logger.getLevel());
        logger.setLevel(level);
    }

    @AfterEach
    void restoreLevels() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(events);
        events.stop();
        levels.forEach((name, level) -> context.getLogger(name).setLevel(level));
    }

    @ParameterizedTest
    @ValueSource(strings = {ServerConfig.NATIVE_PASSWORD, ServerConfig.CACHING_SHA2_PASSWORD})
    void noPasswordIsLogged(String plugin) throws Exception {
        Path slowLog = Files.createTempDirectory("strata-pw").resolve("slow.log");
        try (Strata strata = Strata.builder().config(config(plugin, slowLog)).start()) {
            int port = strata.port();
            for (Driver driver : Driver.values()) {
                logIns(driver, port);
                accountStatements(driver, port);
            }
            changeUser(port);
            rawLogins(port, plugin);
            for (Driver driver : Driver.values()) { // a driver's first statements at connect may already fail
                assertThrows(SQLException.class, () -> {
                    try (Connection c = driver.connect(port, "broken", "pw_user", USER_PASSWORD, props());
                         Statement st = c.createStatement()) {
                        st.execute("SELECT 1");
                    }
                }, "the data source of 'broken' refuses Strata");
            }
            try (Connection c = Driver.MARIADB.connect(port, "it", "pw_user", USER_PASSWORD, props());
                 Statement st = c.createStatement()) {
                st.execute("SELECT 'the last statement'");
            }
            String slow = awaitInFile(slowLog, "the last statement");
            assertTrue(slow.contains("IDENTIFIED BY '<secret>'"), "the slow log has the account statements");
            assertNoPassword("the slow query log", slow);
        }
        List<ILoggingEvent> logged = logged();
        assertTrue(logged.stream().anyMatch(e -> e.getLevel() == Level.DEBUG
                && e.getLoggerName().startsWith("io.strata") && e.getFormattedMessage().contains("refused")),
                "Strata's debug lines were captured: " + logged.size() + " events");
        for (ILoggingEvent event : logged) {
            String text = event.getFormattedMessage() + (event.getThrowableProxy() == null ? ""
                    : "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy()));
            assertNoPassword(event.getLevel() + " " + event.getLoggerName() + " [" + event.getThreadName() + "]",
                    text);
        }
    }

    /**
     * What was logged so far. Threads still running (the backend's output pumps, closing connections) may append
     * while we read: the copy is taken under the appender's own lock, the one its appends hold.
     */
    private List<ILoggingEvent> logged() {
        synchronized (events) {
            return new ArrayList<>(events.list);
        }
    }

    /** Both drivers, the right password and a wrong one. */
    private static void logIns(Driver driver, int port) throws SQLException {
        try (Connection c = driver.connect(port, "it", "pw_user", USER_PASSWORD, props())) {
            assertTrue(c.isValid(5));
        }
        SQLException denied = assertThrows(SQLException.class,
                () -> driver.connect(port, "it", "pw_user", WRONG_PASSWORD, props()).close());
        assertEquals(1045, denied.getErrorCode());
    }

    /**
     * Account statements that run on the backend, and two it refuses with a syntax error quoting the statement
     * from the password on; a prepared SET PASSWORD whose password is a parameter.
     */
    private static void accountStatements(Driver driver, int port) throws SQLException {
        Properties serverSide = props();
        serverSide.setProperty("useServerPrepStmts", "true");
        try (Connection c = driver.connect(port, "it", "pw_user", USER_PASSWORD, serverSide);
             Statement st = c.createStatement()) {
            st.execute("CREATE USER IF NOT EXISTS 'pw_made'@'%' IDENTIFIED BY '" + STATEMENT_PASSWORD + "'");
            st.execute("ALTER USER 'pw_made'@'%' IDENTIFIED BY '" + STATEMENT_PASSWORD + "'");
            st.execute("GRANT SELECT ON strata_it.* TO 'pw_made'@'%' IDENTIFIED BY '" + STATEMENT_PASSWORD + "'");
            st.execute("SET PASSWORD FOR 'pw_made'@'%' = PASSWORD('" + STATEMENT_PASSWORD + "')");
            try (PreparedStatement ps = c.prepareStatement("SET PASSWORD FOR 'pw_made'@'%' = PASSWORD(?)")) {
                ps.setString(1, STATEMENT_PASSWORD);
                ps.execute();
            }
            for (String refused : List.of("SET PASSWORD = PASSWORD '" + STATEMENT_PASSWORD + "'",
                    "CREATE USER IDENTIFIED BY '" + STATEMENT_PASSWORD + "'")) {
                SQLException error = assertThrows(SQLException.class, () -> st.execute(refused));
                assertEquals(1064, error.getErrorCode());
            }
            st.execute("DROP USER 'pw_made'@'%'");
        }
    }

    /** Both drivers may fetch caching_sha2_password's RSA key (no TLS here). */
    private static Properties props() {
        Properties props = new Properties();
        props.setProperty("allowPublicKeyRetrieval", "true");
        return props;
    }

    /** MySQL Connector/J's COM_CHANGE_USER, to the right password and to a wrong one. */
    private static void changeUser(int port) throws SQLException {
        try (Connection c = Driver.MYSQL.connect(port, "it", "pw_user", USER_PASSWORD, props())) {
            c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).changeUser("pw_user", USER_PASSWORD);
            assertTrue(c.isValid(5));
        }
        try (Connection c = Driver.MYSQL.connect(port, "it", "pw_user", USER_PASSWORD, props())) {
            SQLException denied = assertThrows(SQLException.class,
                    () -> c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).changeUser("pw_user", WRONG_PASSWORD));
            assertEquals(1045, denied.getErrorCode());
        }
    }

    /** The plugin's own path without a driver's choices: right, wrong, an unknown user, COM_CHANGE_USER. */
    private static void rawLogins(int port, String plugin) throws IOException {
        for (String password : List.of(USER_PASSWORD, WRONG_PASSWORD)) {
            RawClient.login(port, plugin, "pw_user", password);
            RawClient.login(port, plugin, "nobody", password);
            try (RawClient client = RawClient.greeted(port)) {
                client.login(plugin, "pw_user", USER_PASSWORD, null);
                client.changeUser(plugin, "pw_user", password);
            }
        }
    }

    /**
     * A server whose one user and data source have passwords of their own, a logical database whose data source's
     * password is wrong, and a slow query log of every statement.
     */
    private static StrataConfig config(String plugin, Path slowLog) {
        Map<String, Object> pool = Map.of("maximumPoolSize", 4, "connectionTimeout", 3000);
        ServerConfig server = new ServerConfig("127.0.0.1", 0, List.of(
                new UserConfig("pw_user", USER_PASSWORD, List.of("*"), true)), plugin, 1L << 30, 2,
                StrataFixture.executor()).withSlowLog(new SlowLogConfig(true, 0, slowLog.toString()));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>();
        databases.put("it", new DatabaseConfig("it", Map.of("ds_0", DataSourceConfig.of("ds_0",
                Backend.server().jdbcUrl(Backend.SCHEMA), "pw_backend", DATA_SOURCE_PASSWORD, pool)), List.of()));
        databases.put("broken", new DatabaseConfig("broken", Map.of("ds_broken", DataSourceConfig.of("ds_broken",
                Backend.server().jdbcUrl(Backend.SCHEMA), "pw_backend", WRONG_DATA_SOURCE_PASSWORD, pool)),
                List.of()));
        return new StrataConfig(server, databases);
    }

    private static String awaitInFile(Path file, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String content = "";
        while (System.nanoTime() < deadline) {
            content = Files.exists(file) ? Files.readString(file) : "";
            if (content.contains(text)) {
                return content;
            }
            Thread.sleep(20);
        }
        return fail("no '" + text + "' in " + file + " after 5 s");
    }

    /** Fails naming where a password was found, and the line with each password replaced by its name. */
    private static void assertNoPassword(String where, String text) {
        List<String> found = new ArrayList<>();
        for (String password : PASSWORDS) {
            if (text.contains(password)) {
                found.add(password.substring(0, 3));
            }
        }
        if (!found.isEmpty()) {
            String shown = text;
            for (String password : PASSWORDS) {
                shown = shown.replace(password, "<" + password.substring(0, 3) + " password>");
            }
            fail("the " + found + " password in " + where + ":\n" + shown);
        }
    }
}
