package io.strata.frontend;

import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.protocol.Scramble;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Passwords in clear or as their mysql_native_password hash, checked with either plugin. */
class AuthenticatorTest {

    /** MariaDB's own {@code SELECT PASSWORD('ops')}. */
    private static final String OPS_HASH = "*617D70D9B08072FB88ED37E21D4B3F4F5843AC25";
    private static final String NATIVE = Scramble.NATIVE_PASSWORD;
    private static final String SHA2 = Scramble.CACHING_SHA2_PASSWORD;

    private final Authenticator authenticator = new Authenticator(ServerConfig.defaults(List.of(
            new UserConfig("app", "app", List.of("*")),
            new UserConfig("ops", OPS_HASH, List.of("*")),
            new UserConfig("lower", OPS_HASH.toLowerCase(), List.of("*")),
            new UserConfig("guest", "", List.of("*")))));
    private final byte[] nonce = Scramble.nonce();

    @Test
    void nativePasswordChecksClearAndHashedPasswordsAlike() {
        assertTrue(authenticator.verify(NATIVE, "app", nonce, Scramble.nativePassword("app", nonce)));
        assertTrue(authenticator.verify(NATIVE, "ops", nonce, Scramble.nativePassword("ops", nonce)));
        assertTrue(authenticator.verify(NATIVE, "lower", nonce, Scramble.nativePassword("ops", nonce)));
        assertFalse(authenticator.verify(NATIVE, "ops", nonce, Scramble.nativePassword("app", nonce)));
        assertFalse(authenticator.verify(NATIVE, "ops", nonce, Scramble.nativePassword(OPS_HASH, nonce)),
                "the hash itself is not the password");
        assertFalse(authenticator.verify(NATIVE, "ops", Scramble.nonce(), Scramble.nativePassword("ops", nonce)),
                "a scramble over another nonce");
        assertFalse(authenticator.verify(NATIVE, "ops", nonce, new byte[0]));
    }

    @Test
    void cachingSha2TakesTheFastPathOnlyAfterAFullAuthentication() {
        assertFalse(authenticator.sha2Cached("ops"));
        assertFalse(authenticator.verify(SHA2, "ops", nonce, Scramble.cachingSha2("ops", nonce)));

        assertFalse(authenticator.verifyClearText("ops", "wrong"));
        assertFalse(authenticator.sha2Cached("ops"));
        assertTrue(authenticator.verifyClearText("ops", "ops"));
        assertTrue(authenticator.sha2Cached("ops"));

        assertTrue(authenticator.verify(SHA2, "ops", nonce, Scramble.cachingSha2("ops", nonce)));
        assertFalse(authenticator.verify(SHA2, "ops", nonce, Scramble.cachingSha2("app", nonce)));
        assertTrue(authenticator.sha2Cached("ops"), "a wrong fast-path scramble leaves the cache as it was");
        assertTrue(authenticator.verify(SHA2, "ops", nonce, Scramble.cachingSha2("ops", nonce)));
    }

    @Test
    void aReloadChecksLoginsAgainstItsUsersAndForgetsTheFastPathOfAChangedPassword() {
        assertTrue(authenticator.verifyClearText("app", "app"));
        assertTrue(authenticator.verifyClearText("ops", "ops"));
        authenticator.reconfigure(ServerConfig.defaults(List.of(
                new UserConfig("app", "new secret", List.of("*")),
                new UserConfig("ops", OPS_HASH, List.of("*")),
                new UserConfig("late", "late", List.of("*")))));

        assertFalse(authenticator.verify(NATIVE, "app", nonce, Scramble.nativePassword("app", nonce)));
        assertTrue(authenticator.verify(NATIVE, "app", nonce, Scramble.nativePassword("new secret", nonce)));
        assertFalse(authenticator.sha2Cached("app"), "the old password's fast path is gone with it");
        assertFalse(authenticator.verify(SHA2, "app", nonce, Scramble.cachingSha2("app", nonce)));
        assertTrue(authenticator.sha2Cached("ops"), "an unchanged user keeps its fast path");
        assertTrue(authenticator.verify(NATIVE, "late", nonce, Scramble.nativePassword("late", nonce)));
        assertFalse(authenticator.verify(NATIVE, "lower", nonce, Scramble.nativePassword("ops", nonce)),
                "a removed user logs in no more");
        assertFalse(authenticator.loggedIn("lower").admin(), "a removed user's session goes on without rights");
    }

    @Test
    void aUserWithoutPasswordPassesWithAnEmptyResponseOnly() {
        assertTrue(authenticator.verify(NATIVE, "guest", nonce, new byte[0]));
        assertTrue(authenticator.verify(SHA2, "guest", nonce, new byte[0]));
        assertFalse(authenticator.verify(NATIVE, "guest", nonce, Scramble.nativePassword("x", nonce)));
        assertFalse(authenticator.verify(SHA2, "guest", nonce, Scramble.cachingSha2("x", nonce)));
        assertTrue(authenticator.verifyClearText("guest", ""));
        assertFalse(authenticator.verifyClearText("guest", "x"));
    }

    @Test
    void unknownUsersNeverPass() {
        for (String password : new String[] {"", "app", "x"}) {
            assertFalse(authenticator.verify(NATIVE, "nobody", nonce, Scramble.nativePassword(password, nonce)));
            assertFalse(authenticator.verify(SHA2, "nobody", nonce, Scramble.cachingSha2(password, nonce)));
            assertFalse(authenticator.verifyClearText("nobody", password));
        }
        assertFalse(authenticator.sha2Cached("nobody"));
        assertFalse(authenticator.verify(NATIVE, "App", nonce, Scramble.nativePassword("app", nonce)),
                "user names are case-sensitive");
    }
}
