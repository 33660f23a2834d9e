package io.strata.frontend;

import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.protocol.Scramble;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks client credentials against the users of server.yaml with mysql_native_password or caching_sha2_password.
 * A user's password is in clear or stored as its mysql_native_password hash; either way a scramble is checked the
 * way MySQL checks it, from SHA1(SHA1(password)). Like MySQL, caching_sha2_password takes the fast path only for a
 * user who has once passed full authentication (over TLS, or with the password RSA-encrypted under this server's key)
 * since start: that is when SHA256(SHA256(password)) becomes known, and the fast path is checked against it alone.
 *
 * <p>A check that cannot pass still does the hashing of one that can: an unknown user, a user without a password
 * given one, or caching_sha2_password's fast path before a full authentication are checked against a stage2 made
 * from random bytes at start. So how long a refusal takes does not tell whether the user exists (measured by
 * {@code jmh/AuthenticatorBenchmark}).
 *
 * <p>Thread-safe.
 */
public final class Authenticator {

    /** The users as the configuration has them now: replaced whole by a reload. */
    private volatile Users users;
    /**
     * SHA256(SHA256(password)) of each user since its last full authentication, with the user's settings it was
     * made under: an entry whose user has since changed (a reload with a new password) no longer counts.
     */
    private final Map<String, Sha2> sha2Cache = new ConcurrentHashMap<>();
    /** What a check that cannot pass is made against: no password's SHA1(SHA1(...)) or SHA256(SHA256(...)). */
    private final byte[] noNativeStage2 = random(20);
    private final byte[] noSha2Stage2 = random(32);
    private volatile KeyPair rsaKeys;

    /** The configured users, and SHA1(SHA1(password)) of each user with a password. */
    private record Users(ServerConfig config, Map<String, byte[]> nativeStage2) {
        static Users of(ServerConfig config) {
            Map<String, byte[]> nativeStage2 = new HashMap<>();
            for (UserConfig user : config.users()) {
                if (!user.password().isEmpty()) {
                    nativeStage2.put(user.name(), user.passwordHashed()
                            ? HexFormat.of().parseHex(user.password().substring(1))
                            : Scramble.nativeStage2(user.password()));
                }
            }
            return new Users(config, Map.copyOf(nativeStage2));
        }
    }

    private record Sha2(UserConfig user, byte[] stage2) {
    }

    public Authenticator(ServerConfig config) {
        this.users = Users.of(config);
    }

    /**
     * A reload: logins from now on are checked against {@code config}'s users and plugin. The RSA keys stay, and so
     * does the caching_sha2_password fast path of every user whose settings did not change.
     */
    public void reconfigure(ServerConfig config) {
        this.users = Users.of(config);
    }

    public String defaultPlugin() {
        return users.config().authPlugin();
    }

    public Optional<UserConfig> user(String name) {
        return users.config().user(name);
    }

    /**
     * The settings of a logged-in session's user. A reload may have removed the user since: the session goes on,
     * as MySQL's do after DROP USER, in its database, with no other database to switch to and no admin rights.
     */
    public UserConfig loggedIn(String name) {
        return user(name).orElseGet(() -> new UserConfig(name, "", java.util.List.of(), false));
    }

    /**
     * Verifies a scramble computed with {@code plugin} over {@code nonce}. Unknown users never pass; a user without
     * a password passes with an empty response only; caching_sha2_password passes only after a full authentication
     * ({@link #verifyClearText}) of the user since start.
     */
    public boolean verify(String plugin, String user, byte[] nonce, byte[] response) {
        Users now = users;
        Optional<UserConfig> known = now.config().user(user);
        if (known.isPresent() && response.length == 0 && !now.nativeStage2().containsKey(user)) {
            return true;
        }
        boolean sha2 = plugin.equals(Scramble.CACHING_SHA2_PASSWORD);
        byte[] stage2 = known.isEmpty() ? null : sha2 ? sha2Stage2(known.get()) : now.nativeStage2().get(user);
        boolean matches = sha2 ? Scramble.matchesCachingSha2(response, nonce, stage2 != null ? stage2 : noSha2Stage2)
                : Scramble.matchesNative(response, nonce, stage2 != null ? stage2 : noNativeStage2);
        return matches && stage2 != null;
    }

    private byte[] sha2Stage2(UserConfig user) {
        Sha2 cached = sha2Cache.get(user.name());
        return cached != null && cached.user().equals(user) ? cached.stage2() : null;
    }

    /** Whether caching_sha2_password may take the fast path for this user (a full authentication succeeded). */
    public boolean sha2Cached(String user) {
        Optional<UserConfig> known = user(user);
        return known.isPresent() && sha2Stage2(known.get()) != null;
    }

    /**
     * Full authentication with the clear-text password (sent over TLS or RSA-decrypted); on success the user's
     * caching_sha2_password fast path is open until the end of the process or until a reload changes the user.
     */
    public boolean verifyClearText(String user, String password) {
        Users now = users;
        Optional<UserConfig> known = now.config().user(user);
        byte[] stage2 = known.isPresent() ? now.nativeStage2().get(user) : null;
        if (known.isPresent() && stage2 == null && password.isEmpty()) {
            return true;
        }
        boolean matches = MessageDigest.isEqual(stage2 != null ? stage2 : noNativeStage2,
                Scramble.nativeStage2(password));
        if (!matches || stage2 == null) {
            return false;
        }
        sha2Cache.put(user, new Sha2(known.get(), Scramble.cachingSha2Stage2(password)));
        return true;
    }

    /** The RSA key pair of caching_sha2_password's key exchange, made at first use. */
    public KeyPair rsaKeys() {
        KeyPair keys = rsaKeys;
        if (keys == null) {
            synchronized (this) {
                if (rsaKeys == null) {
                    rsaKeys = generate();
                }
                keys = rsaKeys;
            }
        }
        return keys;
    }

    public String publicKeyPem() {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(rsaKeys().getPublic().getEncoded());
        return "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n";
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("RSA is part of every JDK", e);
        }
    }
}
