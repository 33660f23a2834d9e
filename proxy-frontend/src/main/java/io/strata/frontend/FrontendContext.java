package io.strata.frontend;

import io.strata.backend.execute.Mirrors;
import io.strata.frontend.digest.DigestTable;
import io.strata.frontend.slowlog.SlowLog;

import io.netty.handler.ssl.SslContext;
import io.strata.backend.Backends;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.config.StrataConfig;
import io.strata.frontend.auth.Authenticator;
import io.strata.frontend.session.SessionRegistry;
import io.strata.protocol.Capabilities;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every client connection shares: configuration, users, rule chains, backend pools (native ones, and the
 * HikariCP ones when the JDBC executor is on, else null), live sessions, the TLS context (null when off), the
 * status of every data source, and what the client side counts: query digests (null when off), the slow query log
 * (null when off), and the mirrors of query rules.
 */
public record FrontendContext(StrataConfig config, Authenticator authenticator, Map<String, RuleChain> ruleChains,
                              Backends backends, JdbcDataSources jdbc, SessionRegistry sessions,
                              SslContext sslContext, HealthRegistry health, FrontendStats stats,
                              DigestTable digests, SlowLog slowLog, Mirrors mirrors) {

    public static final String VERSION_SUFFIX = "-Strata";
    /** Announced until a backend has told its own version. */
    public static final String FALLBACK_VERSION = "8.0.0";

    /**
     * The chains' names are interned, as a session's database is ({@code Session.database}): looking a chain up for
     * every statement then compares the two Strings by identity.
     */
    public FrontendContext {
        Map<String, RuleChain> interned = new LinkedHashMap<>();
        ruleChains.forEach((database, chain) -> interned.put(database.intern(), chain));
        ruleChains = Collections.unmodifiableMap(interned);
    }

    /**
     * The version clients see: the backend's own, as its greeting said it, and a Strata suffix. MariaDB before 11
     * starts it with "5.5.5-" (its replication prefix), which clients read as "older than MySQL 8": MySQL
     * Connector/J then asks for tx_isolation, which those servers have, instead of transaction_isolation, which
     * they do not. MariaDB Connector/J drops the prefix and reads the real version.
     */
    public String serverVersion() {
        String backend = backends.connector().lastServerVersion();
        return (backend == null ? FALLBACK_VERSION : backend) + VERSION_SUFFIX;
    }

    /** A MariaDB backend speaks MariaDB's extended capabilities; Strata offers clients the same. */
    public boolean backendIsMariaDb() {
        String backend = backends.connector().lastServerVersion();
        return backend != null && backend.contains("MariaDB");
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

    public RuleChain ruleChain(String database) {
        return ruleChains.get(database);
    }
}
