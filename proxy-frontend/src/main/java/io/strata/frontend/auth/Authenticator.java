package io.strata.frontend.auth;

import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.protocol.Scramble;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * <p>Thread-safe.
 */
public final class Authenticator {

    private final ServerConfig config;
    /** SHA256(SHA256(password)) of each user since its last full authentication. */
    private final Map<String, byte[]> sha2Cache = new ConcurrentHashMap<>();
    /** SHA1(SHA1(password)) of each user with a password. */
    private final Map<String, byte[]> nativeStage2 = new HashMap<>();
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
     * a password passes with an empty response only; caching_sha2_password needs {@link #sha2Cached} first.
     */
    public boolean verify(String plugin, String user, byte[] nonce, byte[] response) {
        if (config.user(user).isEmpty()) {
            return false;
        }
        boolean sha2 = plugin.equals(Scramble.CACHING_SHA2_PASSWORD);
        byte[] stage2 = sha2 ? sha2Cache.get(user) : nativeStage2.get(user);
        if (stage2 == null) {
            // no password (or, for caching_sha2, no full authentication yet: never asked, see sha2Cached)
            return response.length == 0 && !nativeStage2.containsKey(user);
        }
        return sha2 ? Scramble.matchesCachingSha2(response, nonce, stage2)
                : Scramble.matchesNative(response, nonce, stage2);
    }

    /** Whether caching_sha2_password may take the fast path for this user (a full authentication succeeded). */
    public boolean sha2Cached(String user) {
        return sha2Cache.containsKey(user);
    }

    /** Full authentication with the clear-text password (sent over TLS or RSA-decrypted). */
    public boolean verifyClearText(String user, String password) {
        if (config.user(user).isEmpty()) {
            return false;
        }
        byte[] stage2 = nativeStage2.get(user);
        boolean ok = stage2 == null ? password.isEmpty()
                : MessageDigest.isEqual(stage2, Scramble.nativeStage2(password));
        if (ok && stage2 != null) {
            sha2Cache.put(user, Scramble.cachingSha2Stage2(password));
        }
        return ok;
    }

    public void forget(String user) {
        sha2Cache.remove(user);
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
