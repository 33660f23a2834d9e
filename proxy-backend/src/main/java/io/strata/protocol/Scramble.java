package io.strata.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** Password scrambles of the two authentication plugins Strata speaks, on both sides of a handshake. */
public final class Scramble {

    public static final String NATIVE_PASSWORD = "mysql_native_password";
    public static final String CACHING_SHA2_PASSWORD = "caching_sha2_password";

    private static final SecureRandom RANDOM = new SecureRandom();

    private Scramble() {
    }

    /** 20 random printable bytes without NUL, as servers send for auth-plugin-data. */
    public static byte[] nonce() {
        byte[] nonce = new byte[20];
        for (int i = 0; i < nonce.length; i++) {
            nonce[i] = (byte) (RANDOM.nextInt(94) + 33);
        }
        return nonce;
    }

    /** mysql_native_password: SHA1(password) XOR SHA1(nonce + SHA1(SHA1(password))); empty for an empty password. */
    public static byte[] nativePassword(String password, byte[] nonce) {
        if (password == null || password.isEmpty()) {
            return new byte[0];
        }
        byte[] stage1 = digest("SHA-1", password.getBytes(StandardCharsets.UTF_8));
        return nativePasswordFromStage2(stage1, digest("SHA-1", stage1), nonce);
    }

    private static byte[] nativePasswordFromStage2(byte[] stage1, byte[] stage2, byte[] nonce) {
        return xor(stage1, digest("SHA-1", nonce, stage2));
    }

    /**
     * Checks a mysql_native_password scramble against the stored SHA1(SHA1(password)) alone, as MySQL does: undoing
     * the XOR gives the SHA1(password) the client claims, whose SHA1 must be the stored one.
     */
    public static boolean matchesNative(byte[] response, byte[] nonce, byte[] stage2) {
        if (response.length != stage2.length) {
            return false;
        }
        byte[] stage1 = xor(response, digest("SHA-1", nonce, stage2));
        return MessageDigest.isEqual(digest("SHA-1", stage1), stage2);
    }

    /** caching_sha2_password's fast path checked the same way, against the cached SHA256(SHA256(password)). */
    public static boolean matchesCachingSha2(byte[] response, byte[] nonce, byte[] stage2) {
        if (response.length != stage2.length) {
            return false;
        }
        byte[] stage1 = xor(response, digest("SHA-256", stage2, nonce));
        return MessageDigest.isEqual(digest("SHA-256", stage1), stage2);
    }

    /** SHA1(SHA1(password)): what mysql_native_password stores ("*" and its upper-case hex in mysql.user). */
    public static byte[] nativeStage2(String password) {
        return digest("SHA-1", digest("SHA-1", password.getBytes(StandardCharsets.UTF_8)));
    }

    /** SHA256(SHA256(password)): what caching_sha2_password caches after a full authentication. */
    public static byte[] cachingSha2Stage2(String password) {
        return digest("SHA-256", digest("SHA-256", password.getBytes(StandardCharsets.UTF_8)));
    }

    /** caching_sha2_password fast path: SHA256(password) XOR SHA256(SHA256(SHA256(password)) + nonce). */
    public static byte[] cachingSha2(String password, byte[] nonce) {
        if (password == null || password.isEmpty()) {
            return new byte[0];
        }
        byte[] stage1 = digest("SHA-256", password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = digest("SHA-256", stage1);
        return xor(stage1, digest("SHA-256", stage2, nonce));
    }

    /** The password XOR-ed with the nonce (repeated), NUL-terminated: what caching_sha2 RSA-encrypts. */
    public static byte[] xorWithNonce(String password, byte[] nonce) {
        byte[] plain = (password + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[plain.length];
        for (int i = 0; i < plain.length; i++) {
            out[i] = (byte) (plain[i] ^ nonce[i % nonce.length]);
        }
        return out;
    }

    /** The first 20 bytes of an auth-plugin-data field (servers append a NUL). */
    public static byte[] trimNonce(byte[] data) {
        if (data.length > 20) {
            byte[] nonce = new byte[20];
            System.arraycopy(data, 0, nonce, 0, 20);
            return nonce;
        }
        return data;
    }

    public static byte[] digest(String algorithm, byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance(algorithm);
            for (byte[] part : parts) {
                md.update(part);
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JDK", e);
        }
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
