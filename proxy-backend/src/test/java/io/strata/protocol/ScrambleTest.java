package io.strata.protocol;

import static io.strata.protocol.Wire.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;

class ScrambleTest {

    private static final byte[] NONCE = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);

    private static byte[] sha(String algorithm, byte[]... parts) throws Exception {
        MessageDigest md = MessageDigest.getInstance(algorithm);
        for (byte[] part : parts) {
            md.update(part);
        }
        return md.digest();
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    @Test
    void nativePasswordIsSha1OfPasswordXorSha1OfNonceAndDoubleSha1() throws Exception {
        byte[] password = "secret".getBytes(StandardCharsets.UTF_8);
        byte[] expected = xor(sha("SHA-1", password), sha("SHA-1", NONCE, sha("SHA-1", sha("SHA-1", password))));

        assertArrayEquals(expected, Scramble.nativePassword("secret", NONCE));
        // The same vector, computed once with Python's hashlib.
        assertArrayEquals(hex("8817c50fa779daef010ee7577825b0847df9842e"), Scramble.nativePassword("secret", NONCE));
    }

    @Test
    void cachingSha2IsSha256OfPasswordXorSha256OfTripleHashAndNonce() throws Exception {
        byte[] password = "secret".getBytes(StandardCharsets.UTF_8);
        byte[] expected = xor(sha("SHA-256", password),
                sha("SHA-256", sha("SHA-256", sha("SHA-256", password)), NONCE));

        assertArrayEquals(expected, Scramble.cachingSha2("secret", NONCE));
        assertArrayEquals(hex("c76e2898612a4cf042c77fa8c4702c4c64c0c2c557c53c4d75595aaa6abae809"),
                Scramble.cachingSha2("secret", NONCE));
    }

    @Test
    void passwordsAreHashedAsUtf8() throws Exception {
        byte[] password = "p\u00e4ss".getBytes(StandardCharsets.UTF_8);
        byte[] expected = xor(sha("SHA-1", password), sha("SHA-1", NONCE, sha("SHA-1", sha("SHA-1", password))));

        assertArrayEquals(expected, Scramble.nativePassword("p\u00e4ss", NONCE));
    }

    @ParameterizedTest
    @NullAndEmptySource
    void anEmptyPasswordScramblesToNothing(String password) {
        assertArrayEquals(new byte[0], Scramble.nativePassword(password, NONCE));
        assertArrayEquals(new byte[0], Scramble.cachingSha2(password, NONCE));
    }

    @Test
    void aNonceIsTwentyPrintableBytesWithoutNul() {
        byte[] nonce = Scramble.nonce();

        assertEquals(20, nonce.length);
        for (byte b : nonce) {
            assertTrue(b >= 33 && b <= 126, "printable: " + b);
        }
        assertNotEquals(Arrays.toString(nonce), Arrays.toString(Scramble.nonce()));
    }

    @Test
    void trimNonceDropsTheNulServersAppend() {
        byte[] withNul = Arrays.copyOf(NONCE, 21);

        assertArrayEquals(NONCE, Scramble.trimNonce(withNul));
        assertSame(NONCE, Scramble.trimNonce(NONCE));
    }

    @Test
    void xorWithNonceIsUndoneByXoringAgain() {
        byte[] scrambled = Scramble.xorWithNonce("a password longer than twenty bytes", NONCE);

        byte[] plain = new byte[scrambled.length];
        for (int i = 0; i < plain.length; i++) {
            plain[i] = (byte) (scrambled[i] ^ NONCE[i % NONCE.length]);
        }
        assertEquals("a password longer than twenty bytes\0", new String(plain, StandardCharsets.UTF_8));
    }

    @Test
    void nativeStage2IsWhatMariaDbStores() {
        // SELECT PASSWORD('root') on MariaDB
        assertEquals("81F5E21E35407D884A6CD4A731AEBFB6AF209E1B",
                java.util.HexFormat.of().withUpperCase().formatHex(Scramble.nativeStage2("root")));
    }
}
