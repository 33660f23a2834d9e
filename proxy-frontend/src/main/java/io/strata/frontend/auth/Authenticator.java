package io.strata.frontend.auth;

import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.protocol.Scramble;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks client credentials against the users of server.yaml with mysql_native_password or caching_sha2_password.
 * Like MySQL, caching_sha2_password takes the fast path only for a user who has once passed full authentication
 * (over TLS, or with the password RSA-encrypted under this server's key) since start; this keeps both paths real.
 *
 * <p>Thread-safe.
 */
public final class Authenticator {

    private final ServerConfig config;
    private final Set<String> sha2Cache = ConcurrentHashMap.newKeySet();
    private volatile KeyPair rsaKeys;

    public Authenticator(ServerConfig config) {
        this.config = config;
    }

    public String defaultPlugin() {
        return config.authPlugin();
    }

    public Optional<UserConfig> user(String name) {
        return config.user(name);
    }

    /** Verifies a scramble computed with {@code plugin} over {@code nonce}. Unknown users never pass. */
    public boolean verify(String plugin, String user, byte[] nonce, byte[] response) {
        Optional<UserConfig> found = config.user(user);
        if (found.isEmpty()) {
            return false;
        }
        String password = found.get().password();
        byte[] expected = switch (plugin) {
            case Scramble.CACHING_SHA2_PASSWORD -> Scramble.cachingSha2(password, nonce);
            default -> Scramble.nativePassword(password, nonce);
        };
        return MessageDigest.isEqual(expected, response);
    }

    /** Whether caching_sha2_password may take the fast path for this user (a full authentication succeeded). */
    public boolean sha2Cached(String user) {
        return sha2Cache.contains(user);
    }

    /** Full authentication with the clear-text password (sent over TLS or RSA-decrypted). */
    public boolean verifyClearText(String user, String password) {
        Optional<UserConfig> found = config.user(user);
        boolean ok = found.isPresent() && MessageDigest.isEqual(found.get().password().getBytes(),
                password.getBytes());
        if (ok) {
            sha2Cache.add(user);
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
