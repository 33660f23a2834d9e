package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A backend that dies gives clients a clear error at once, not a hang; when it is back, so is service. */
class BackendFailureIT {

    private static EmbeddedMariaDb backend;
    private static StrataFixture strata;

    @BeforeAll
    static void start() {
        backend = EmbeddedMariaDb.start(0);
        backend.createDatabase(Backend.SCHEMA, "strata", "strata");
        strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, backend, Map.of("connectionTimeout", 3000));
    }

    @AfterAll
    static void stop() {
        strata.close();
        backend.close();
    }

    @Test
    void aDeadBackendIsAClearErrorAndServiceReturnsWithIt() throws Exception {
        try (Connection client = strata.connect(Driver.MARIADB); Statement st = client.createStatement()) {
            assertEquals(1, JdbcIT.queryInt(st, "SELECT 1"));
            backend.stop();
            SQLException down = assertTimeoutPreemptively(Duration.ofSeconds(15),
                    () -> assertThrows(SQLException.class, () -> st.executeQuery("SELECT 1").close()));
            assertTrue(down.getErrorCode() == 2003 || down.getErrorCode() == 2013, down.toString());
            assertTrue(down.getMessage().contains("backend data source 'ds_0'"), down.getMessage());
            backend.restart();
            assertEquals(2, JdbcIT.queryInt(st, "SELECT 2"), "the same client session works again");
        }
        try (Connection fresh = strata.connect(Driver.MYSQL); Statement st = fresh.createStatement()) {
            assertEquals(3, JdbcIT.queryInt(st, "SELECT 3"));
        }
    }

    @Test
    void aTransactionCutByABackendDeathFailsAndTheSessionGoesOn() throws Exception {
        try (Connection client = strata.connect(Driver.MARIADB); Statement st = client.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS cut (v INT)");
            client.setAutoCommit(false);
            st.executeUpdate("INSERT INTO cut VALUES (1)");
            backend.stop();
            assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO cut VALUES (2)"));
            backend.restart();
            client.setAutoCommit(true);
            assertEquals(0, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM cut"), "nothing half-committed");
        }
    }
}
