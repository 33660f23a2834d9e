package io.strata.it;

import io.strata.config.LimitsConfig;
import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The limits that protect the service: server.maxConnections and users[].maxConnections refuse the next login at once
 * while everyone else keeps working, server.idleTimeout closes a session idle in the command phase (not one running a
 * long statement), server.handshakeTimeout closes a connection that never logs in.
 */
class LimitsIT {

    private static StrataFixture start(LimitsConfig limits) {
        return StrataFixture.start(s -> s.withLimits(limits).withUsers(List.of(
                new UserConfig("root", "root", List.of("*"), true),
                new UserConfig("app", "app", List.of("it"), false, 2))), ServerConfig.NATIVE_PASSWORD);
    }

    private static Connection connect(StrataFixture strata, Driver driver, String user) throws SQLException {
        return strata.connect(driver, "it", user, user, new Properties());
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void theConnectionLimitsRefuseTheNextLoginAndNoOneElse() throws SQLException {
        try (StrataFixture strata = start(new LimitsConfig(3, 0, 10_000))) {
            List<Connection> open = new ArrayList<>();
            try {
                open.add(connect(strata, Driver.MARIADB, "app"));
                open.add(connect(strata, Driver.MYSQL, "app"));
                SQLException perUser = assertThrows(SQLException.class, () -> connect(strata, Driver.MARIADB, "app"));
                assertEquals(1203, perUser.getErrorCode(), perUser.getMessage());
                open.add(connect(strata, Driver.MYSQL, "root"));
                for (Driver driver : Driver.values()) {
                    SQLException global = assertThrows(SQLException.class, () -> connect(strata, driver, "app"));
                    assertTrue(global.getErrorCode() == 1040 || global.getErrorCode() == 1203, global.getMessage());
                }
                open.add(connect(strata, Driver.MARIADB, "root")); // an administrator's one more, as MySQL's
                SQLException full = assertThrows(SQLException.class, () -> connect(strata, Driver.MYSQL, "root"));
                assertEquals(1040, full.getErrorCode(), full.getMessage());
                for (Connection c : open) {
                    assertEquals(1, selectOne(c), "the sessions let in keep working");
                }
                open.remove(0).close(); // an app session goes, and the administrator's one more
                open.remove(open.size() - 1).close();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                Connection again = null;
                while (again == null) { // a closed session leaves the count once Strata sees the close
                    try {
                        again = connect(strata, Driver.MARIADB, "app");
                    } catch (SQLException e) {
                        if (System.nanoTime() > deadline) {
                            throw e;
                        }
                    }
                }
                open.add(again);
                assertEquals(1, selectOne(again));
            } finally {
                for (Connection c : open) {
                    c.close();
                }
            }
        }
    }

    @Test
    void anIdleSessionIsClosedAndABusyOneIsNot() throws Exception {
        try (StrataFixture strata = start(new LimitsConfig(0, 600, 10_000));
             Connection idle = connect(strata, Driver.MARIADB, "root");
             Connection busy = connect(strata, Driver.MYSQL, "root")) {
            try (Statement st = busy.createStatement(); ResultSet rs = st.executeQuery("SELECT SLEEP(1.2)")) {
                assertTrue(rs.next(), "a statement longer than the idle limit runs to its end");
            }
            assertEquals(1, selectOne(busy), "and its session is still there");
            Thread.sleep(1000);
            assertThrows(SQLException.class, () -> selectOne(idle), "the idle session was closed");
            assertThrows(SQLException.class, () -> selectOne(busy), "after its statement, idle long enough too");
        }
    }

    @Test
    void aConnectionBorrowedAndNeverReturnedIsReportedWithItsStack() throws Exception {
        try (StrataFixture strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                java.util.Map.of("leakDetectionThreshold", 300))) {
            io.strata.backend.connection.BackendPool pool = strata.backends().pool("it", "ds_0");
            try (Connection c = connect(strata, Driver.MARIADB, "root")) {
                assertEquals(1, selectOne(c)); // statements borrow and return: no leak
            }
            var leaked = pool.acquire(0).get(5, TimeUnit.SECONDS); // a bug path: borrowed, never returned
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (pool.leaks() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(1, pool.leaks(), "reported once");
            assertTrue(java.util.Arrays.stream(pool.lastLeak().getStackTrace()).anyMatch(frame ->
                    frame.getMethodName().equals("aConnectionBorrowedAndNeverReturnedIsReportedWithItsStack")),
                    "with the stack that borrowed it");
            Thread.sleep(500);
            assertEquals(1, pool.leaks(), "a leak is reported once, not at every check");
            pool.release(leaked);
        }
    }

    @Test
    void aConnectionThatNeverLogsInIsClosedAfterTheHandshakeTimeout() throws Exception {
        try (StrataFixture strata = start(new LimitsConfig(0, 0, 300));
             Socket silent = new Socket("127.0.0.1", strata.port())) {
            silent.setSoTimeout(5000);
            InputStream in = silent.getInputStream();
            long start = System.nanoTime();
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // the greeting, then nothing until Strata closes
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 250 && millis < 3000, "closed after about 300 ms: " + millis);
            try (Connection c = connect(strata, Driver.MARIADB, "root")) {
                assertEquals(1, selectOne(c), "others log in and work");
            }
        }
    }
}
