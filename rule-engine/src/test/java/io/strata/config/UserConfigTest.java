package io.strata.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserConfigTest {

    @Test
    void starGrantsEveryDatabase() {
        var root = new UserConfig("root", "root", List.of("*"));

        assertTrue(root.mayUse("sbtest"));
        assertTrue(root.mayUse("anything"));
    }

    @Test
    void listedDatabasesAreMatchedCaseSensitively() {
        var app = new UserConfig("app", "secret", List.of("sbtest", "orders"));

        assertTrue(app.mayUse("orders"));
        assertFalse(app.mayUse("Orders"));
        assertFalse(app.mayUse("billing"));
    }

    @Test
    void noDatabasesMeansNone() {
        assertFalse(new UserConfig("monitor", "", List.of()).mayUse("sbtest"));
    }

    @Test
    void databasesCannotBeChangedAfterwards() {
        List<String> databases = new ArrayList<>(List.of("sbtest"));
        var user = new UserConfig("app", "secret", databases);
        databases.add("orders");

        assertEquals(List.of("sbtest"), user.databases());
        assertThrows(UnsupportedOperationException.class, () -> user.databases().add("orders"));
    }

    @Test
    void toStringHidesThePassword() {
        assertFalse(new UserConfig("app", "s3cr3t", List.of("*")).toString().contains("s3cr3t"));
    }
}
