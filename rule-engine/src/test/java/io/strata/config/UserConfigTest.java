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

    @Test
    void aStarAndFortyHexDigitsIsAHashedPassword() {
        assertTrue(new UserConfig("ops", "*617D70D9B08072FB88ED37E21D4B3F4F5843AC25", List.of()).passwordHashed());
        assertTrue(new UserConfig("ops", "*617d70d9b08072fb88ed37e21d4b3f4f5843ac25", List.of()).passwordHashed());
        assertFalse(new UserConfig("ops", "*617D70D9B08072FB88ED37E21D4B3F4F5843AC2", List.of()).passwordHashed());
        assertFalse(new UserConfig("ops", "617D70D9B08072FB88ED37E21D4B3F4F5843AC25", List.of()).passwordHashed());
        assertFalse(new UserConfig("ops", "*617D70D9B08072FB88ED37E21D4B3F4F5843AC2Z", List.of()).passwordHashed());
        assertFalse(new UserConfig("ops", "secret", List.of()).passwordHashed());
    }

    @Test
    void aHashWithADigitTooFewOrTooManyOrAWrongOneLooksMistyped() {
        assertTrue(mistyped("*617D70D9B08072FB88ED37E21D4B3F4F5843AC2"));
        assertTrue(mistyped("*617D70D9B08072FB88ED37E21D4B3F4F5843AC255"));
        assertTrue(mistyped("*617D70D9B08072FB88ED37E21D4B3F4F5843AC2Z"));
        assertFalse(mistyped("*617D70D9B08072FB88ED37E21D4B3F4F5843AC25"));
        assertFalse(mistyped("*secret*"));
        assertFalse(mistyped("secret"));
    }

    private static boolean mistyped(String password) {
        return new UserConfig("ops", password, List.of()).passwordLooksLikeMistypedHash();
    }
}
