package io.strata.kernel;

import io.netty.channel.Channel;
import io.strata.backend.Backends;
import io.strata.backend.execute.JdbcRunner;
import io.strata.backend.execute.RelayRunner;
import io.strata.backend.execute.SessionState;
import io.strata.backend.execute.StatementRunner;
import io.strata.backend.execute.Mirrors;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.config.StrataConfig;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a session's statements run against, as one immutable snapshot: the configuration (users, logical databases,
 * data sources, limits), each logical database's rule chain, the backend pools (the native ones, null in the
 * embedded driver; the HikariCP ones when the JDBC executor is on or the host is the embedded driver, else null),
 * the status of every data source, and the mirrors of query rules (null without native pools). A command reads the
 * kernel's snapshot once when it starts and keeps it to its end, so a swap (a reload) reaches the next statement,
 * never one in flight.
 */
public record StrataRuntime(StrataConfig config, Map<String, RuleChain> ruleChains, Backends backends,
                            JdbcDataSources jdbc, HealthRegistry health, Mirrors mirrors) {

    /**
     * The chains' names are interned, as a session's database is ({@code SessionState.use}): looking a chain up for
     * every statement then compares the two Strings by identity.
     */
    public StrataRuntime {
        Map<String, RuleChain> interned = new LinkedHashMap<>();
        ruleChains.forEach((database, chain) -> interned.put(database.intern(), chain));
        ruleChains = Collections.unmodifiableMap(interned);
    }

    /** The rule chain of a logical database, or null when there is none of that name. */
    public RuleChain ruleChain(String database) {
        return ruleChains.get(database);
    }

    /** Whether the backends are MariaDB servers (their errors, their capabilities), as the last greeting said. */
    public boolean backendIsMariaDb() {
        String backend = backends != null ? backends.connector().lastServerVersion() : jdbc.serverVersion();
        return backend != null && backend.contains("MariaDB");
    }

    /**
     * The relay executor of one client connection: native backend connections, the backend's packets relayed to
     * {@code client}. Commands without a JDBC form (COM_FIELD_LIST, COM_STATISTICS) take it whatever the executor.
     */
    public StatementRunner relay(Channel client, SessionState state, StatementRunner.Completion completion) {
        return new RelayRunner(backends, client, state, completion);
    }

    /** The executor of one client connection as {@code server.executor} says: {@code relay}, or the JDBC one. */
    public StatementRunner runner(Channel client, SessionState state, StatementRunner.Completion completion,
                                  StatementRunner relay) {
        return jdbc != null ? new JdbcRunner(jdbc, config, client, state, completion) : relay;
    }
}
