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

    private final ServerConfig config;
    /** SHA256(SHA256(password)) of each user since its last full authentication. */
    private final Map<String, byte[]> sha2Cache = new ConcurrentHashMap<>();
    /** SHA1(SHA1(password)) of each user with a password. */
    private final Map<String, byte[]> nativeStage2 = new HashMap<>();
    /** What a check that cannot pass is made against: no password's SHA1(SHA1(...)) or SHA256(SHA256(...)). */
    private final byte[] noNativeStage2 = random(20);
    private final byte[] noSha2Stage2 = random(32);
    private volatile KeyPair rsaKeys;

    public Authenticator(ServerConfig config) {
        this.config = config;
        for (UserConfig user : config.users()) {
            if (!user.password().isEmpty()) {
                nativeStage2.put(user.name(), user.passwordHashed()
                        ? HexFormat.of().parseHex(user.password().substring(1))
                        : Scramble.nativeStage2(user.password()));
            }
        }
    }

    public String defaultPlugin() {
        return config.authPlugin();
    }

    public Optional<UserConfig> user(String name) {
        return config.user(name);
    }

    /**
     * Verifies a scramble computed with {@code plugin} over {@code nonce}. Unknown users never pass; a user without
     * a password passes with an empty response only; caching_sha2_password passes only after a full authentication
     * ({@link #verifyClearText}) of the user since start.
     */
    public boolean verify(String plugin, String user, byte[] nonce, byte[] response) {
        boolean known = config.user(user).isPresent();
        if (known && response.length == 0 && !nativeStage2.containsKey(user)) {
            return true;
        }
        boolean sha2 = plugin.equals(Scramble.CACHING_SHA2_PASSWORD);
        byte[] stage2 = !known ? null : sha2 ? sha2Cache.get(user) : nativeStage2.get(user);
        boolean matches = sha2 ? Scramble.matchesCachingSha2(response, nonce, stage2 != null ? stage2 : noSha2Stage2)
                : Scramble.matchesNative(response, nonce, stage2 != null ? stage2 : noNativeStage2);
        return matches && stage2 != null;
    }

    /** Whether caching_sha2_password may take the fast path for this user (a full authentication succeeded). */
    public boolean sha2Cached(String user) {
        return sha2Cache.containsKey(user);
    }

    /**
     * Full authentication with the clear-text password (sent over TLS or RSA-decrypted); on success the user's
     * caching_sha2_password fast path is open until the end of the process (passwords change only with a restart).
     */
    public boolean verifyClearText(String user, String password) {
        boolean known = config.user(user).isPresent();
        byte[] stage2 = known ? nativeStage2.get(user) : null;
        if (known && stage2 == null && password.isEmpty()) {
            return true;
        }
        boolean matches = MessageDigest.isEqual(stage2 != null ? stage2 : noNativeStage2,
                Scramble.nativeStage2(password));
        if (!matches || stage2 == null) {
            return false;
        }
        sha2Cache.put(user, Scramble.cachingSha2Stage2(password));
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
