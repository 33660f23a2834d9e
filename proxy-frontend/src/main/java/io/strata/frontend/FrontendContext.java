package io.strata.frontend;

import io.netty.handler.ssl.SslContext;
import io.strata.backend.Backends;
import io.strata.backend.execute.Mirrors;
import io.strata.config.StrataConfig;
import io.strata.kernel.Kernel;
import io.strata.kernel.SessionRegistry;
import io.strata.kernel.StrataRuntime;
import io.strata.kernel.digest.DigestTable;
import io.strata.kernel.slowlog.SlowLog;
import io.strata.protocol.Capabilities;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;

import java.util.Map;

/**
 * What every MySQL client connection shares: the kernel (the runtime, the sessions, digests and the slow log), the
 * users' password checks, the TLS context (null when off) and what the MySQL frontend counts. The accessors of the
 * runtime read the kernel's snapshot of this moment: a command that must see one runtime throughout takes it once
 * from its {@code StatementLife}.
 */
public record FrontendContext(Kernel kernel, Authenticator authenticator, SslContext sslContext,
                              FrontendStats stats) {

    public static final String VERSION_SUFFIX = "-Strata";
    /** Announced until a backend has told its own version. */
    public static final String FALLBACK_VERSION = "8.0.0";

    public StrataRuntime runtime() {
        return kernel.runtime();
    }

    public StrataConfig config() {
        return runtime().config();
    }

    public Map<String, RuleChain> ruleChains() {
        return runtime().ruleChains();
    }

    public RuleChain ruleChain(String database) {
        return runtime().ruleChain(database);
    }

    public Backends backends() {
        return runtime().backends();
    }

    public HealthRegistry health() {
        return runtime().health();
    }

    public Mirrors mirrors() {
        return runtime().mirrors();
    }

    public SessionRegistry sessions() {
        return kernel.sessions();
    }

    public DigestTable digests() {
        return kernel.digests();
    }

    public SlowLog slowLog() {
        return kernel.slowLog();
    }

    /**
     * The version clients see: the backend's own, as its greeting said it, and a Strata suffix. MariaDB before 11
     * starts it with "5.5.5-" (its replication prefix), which clients read as "older than MySQL 8": MySQL
     * Connector/J then asks for tx_isolation, which those servers have, instead of transaction_isolation, which
     * they do not. MariaDB Connector/J drops the prefix and reads the real version.
     */
    public String serverVersion() {
        String backend = backends().connector().lastServerVersion();
        return (backend == null ? FALLBACK_VERSION : backend) + VERSION_SUFFIX;
    }

    /** A MariaDB backend speaks MariaDB's extended capabilities; Strata offers clients the same. */
    public boolean backendIsMariaDb() {
        return runtime().backendIsMariaDb();
    }

    /** The capabilities of the greeting: MariaDB clears CLIENT_MYSQL (bit 0) to say it has extended ones. */
    public int serverCapabilities() {
        int capabilities = backendIsMariaDb() ? Capabilities.SERVER_DEFAULT & ~Capabilities.CLIENT_LONG_PASSWORD
                : Capabilities.SERVER_DEFAULT;
        return sslContext == null ? capabilities : capabilities | Capabilities.CLIENT_SSL;
    }

    public int serverMariaDbCapabilities() {
        return backendIsMariaDb() ? Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO : 0;
    }
}
