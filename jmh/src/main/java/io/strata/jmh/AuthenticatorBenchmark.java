package io.strata.jmh;

import io.strata.config.ServerConfig;
import io.strata.config.UserConfig;
import io.strata.frontend.Authenticator;
import io.strata.protocol.Scramble;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How long {@link Authenticator} takes to refuse a login: an unknown user must cost what a known user's wrong password
 * costs, or the time of a refusal tells which user names exist.
 *
 * <ul>
 *   <li>{@code scramble*}: {@link Authenticator#verify}, the check of the client's first answer (or its answer to an
 *       auth switch), per {@code plugin}: a user not configured, a configured user with a wrong password, one with
 *       the right password, a user without a password given one. For caching_sha2_password the user has passed a
 *       full authentication first (its fast path is cached); {@code scrambleUncachedUser} is one who has not.</li>
 *   <li>{@code clearText*}: {@link Authenticator#verifyClearText}, caching_sha2_password's full authentication (the
 *       password sent over TLS or RSA-decrypted; the decryption, the same for every user, is not measured).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AuthenticatorBenchmark {

    private static final String PASSWORD = "app-password";
    private static final String WRONG = "not-the-password";

    static Authenticator authenticator() {
        return new Authenticator(ServerConfig.defaults(List.of(
                new UserConfig("root", "root-password", List.of("*")),
                new UserConfig("app", PASSWORD, List.of("*")),
                new UserConfig("fresh", PASSWORD, List.of("*")),
                new UserConfig("guest", "", List.of("*")))));
    }

    @State(Scope.Thread)
    public static class Scrambles {
        @Param({Scramble.NATIVE_PASSWORD, Scramble.CACHING_SHA2_PASSWORD})
        String plugin;
        Authenticator authenticator;
        byte[] nonce;
        byte[] right;
        byte[] wrong;

        @Setup(Level.Trial)
        public void setup() {
            authenticator = authenticator();
            nonce = Scramble.nonce();
            boolean sha2 = plugin.equals(Scramble.CACHING_SHA2_PASSWORD);
            right = sha2 ? Scramble.cachingSha2(PASSWORD, nonce) : Scramble.nativePassword(PASSWORD, nonce);
            wrong = sha2 ? Scramble.cachingSha2(WRONG, nonce) : Scramble.nativePassword(WRONG, nonce);
            if (!authenticator.verifyClearText("app", PASSWORD)) {
                throw new IllegalStateException("app's full authentication failed");
            }
            if (!authenticator.verify(plugin, "app", nonce, right) || authenticator.verify(plugin, "app", nonce, wrong)
                    || authenticator.verify(plugin, "nobody", nonce, wrong)
                    || authenticator.verify(plugin, "guest", nonce, wrong)
                    || authenticator.verify(plugin, "fresh", nonce, right) != !sha2) {
                throw new IllegalStateException("the outcomes are not what the benchmark names say");
            }
        }
    }

    @State(Scope.Thread)
    public static class ClearText {
        Authenticator authenticator = authenticator();
    }

    @Benchmark
    public boolean scrambleUnknownUser(Scrambles s) {
        return s.authenticator.verify(s.plugin, "nobody", s.nonce, s.wrong);
    }

    @Benchmark
    public boolean scrambleWrongPassword(Scrambles s) {
        return s.authenticator.verify(s.plugin, "app", s.nonce, s.wrong);
    }

    @Benchmark
    public boolean scrambleRightPassword(Scrambles s) {
        return s.authenticator.verify(s.plugin, "app", s.nonce, s.right);
    }

    @Benchmark
    public boolean scrambleUserWithoutPassword(Scrambles s) {
        return s.authenticator.verify(s.plugin, "guest", s.nonce, s.wrong);
    }

    /** caching_sha2_password: a user before its first full authentication; mysql_native_password: a right one. */
    @Benchmark
    public boolean scrambleUncachedUser(Scrambles s) {
        return s.authenticator.verify(s.plugin, "fresh", s.nonce, s.right);
    }

    @Benchmark
    public boolean clearTextUnknownUser(ClearText c) {
        return c.authenticator.verifyClearText("nobody", WRONG);
    }

    @Benchmark
    public boolean clearTextWrongPassword(ClearText c) {
        return c.authenticator.verifyClearText("app", WRONG);
    }

    /** Also caches SHA256(SHA256(password)) for the fast path: a success does one hashing more. */
    @Benchmark
    public boolean clearTextRightPassword(ClearText c) {
        return c.authenticator.verifyClearText("app", PASSWORD);
    }

    @Benchmark
    public boolean clearTextUserWithoutPassword(ClearText c) {
        return c.authenticator.verifyClearText("guest", WRONG);
    }
}
