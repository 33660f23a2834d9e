package io.strata.bootstrap.metrics;

import io.strata.backend.execute.Mirrors;
import io.strata.kernel.slowlog.SlowLog;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.strata.backend.Backends;
import io.strata.backend.connection.BackendPool;
import io.strata.frontend.FrontendStats;
import io.strata.kernel.SessionRegistry;
import io.strata.protocol.CommandType;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.HealthRegistry;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * Strata's own meters: client sessions and commands, the native backend pools, and the health of every data source.
 * All are read from the live objects when Prometheus scrapes; the statement path only adds to the counters of
 * {@link FrontendStats}.
 */
final class StrataMeters implements MeterBinder {

    /** The commands Strata serves, each its own series; the rest (refused as unknown) are counted as "other". */
    static final Set<CommandType> SERVED = EnumSet.of(CommandType.COM_QUERY, CommandType.COM_INIT_DB,
            CommandType.COM_PING, CommandType.COM_QUIT, CommandType.COM_FIELD_LIST, CommandType.COM_STATISTICS,
            CommandType.COM_RESET_CONNECTION, CommandType.COM_CHANGE_USER, CommandType.COM_SET_OPTION,
            CommandType.COM_PROCESS_KILL, CommandType.COM_STMT_PREPARE, CommandType.COM_STMT_EXECUTE,
            CommandType.COM_STMT_FETCH, CommandType.COM_STMT_RESET, CommandType.COM_STMT_SEND_LONG_DATA,
            CommandType.COM_STMT_CLOSE);

    private final SessionRegistry sessions;
    private final FrontendStats stats;
    private final Backends backends;
    private final HealthRegistry health;
    private final Collection<String> databases;
    private final Mirrors mirrors;
    private final SlowLog slowLog;

    /** @param slowLog the slow query log, or null when it is off */
    StrataMeters(SessionRegistry sessions, FrontendStats stats, Backends backends, HealthRegistry health,
                 Collection<String> databases, Mirrors mirrors, SlowLog slowLog) {
        this.mirrors = mirrors;
        this.slowLog = slowLog;
        this.sessions = sessions;
        this.stats = stats;
        this.backends = backends;
        this.health = health;
        this.databases = databases;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        bindClients(registry);
        backends.pools().forEach((key, pool) -> bindPool(registry, key.substring(0, key.indexOf('/')), pool));
        FunctionCounter.builder("strata.deadlocks.broken", backends, Backends::deadlocksBroken)
                .description("deadlocks across data sources Strata broke (a victim got 1213)").register(registry);
        for (String database : databases) {
            health.statuses(database).forEach(status -> bindHealth(registry, status));
        }
        bindQueryRules(registry);
    }

    private void bindQueryRules(MeterRegistry registry) {
        FunctionCounter.builder("strata.mirror.statements", mirrors, Mirrors::sent).tag("outcome", "sent")
                .description("statement copies a query rule's mirror sent").register(registry);
        FunctionCounter.builder("strata.mirror.statements", mirrors, Mirrors::failed).tag("outcome", "failed")
                .description("statement copies a query rule's mirror sent").register(registry);
        FunctionCounter.builder("strata.mirror.statements", mirrors, Mirrors::dropped).tag("outcome", "dropped")
                .description("statement copies a query rule's mirror sent").register(registry);
        if (slowLog != null) {
            FunctionCounter.builder("strata.slow.log.entries", slowLog, SlowLog::written).tag("outcome", "written")
                    .description("slow statements written to the slow query log").register(registry);
            FunctionCounter.builder("strata.slow.log.entries", slowLog, SlowLog::dropped).tag("outcome", "dropped")
                    .description("slow statements written to the slow query log").register(registry);
        }
    }

    private void bindClients(MeterRegistry registry) {
        Gauge.builder("strata.client.connections", sessions, SessionRegistry::size)
                .description("Client sessions logged in now").register(registry);
        FunctionCounter.builder("strata.client.connections.accepted", sessions, SessionRegistry::accepted)
                .description("Client connections accepted since start, logged in or not").register(registry);
        FunctionCounter.builder("strata.client.logins.refused", stats, FrontendStats::loginsRefused)
                .description("Connections refused before the command phase (wrong password, database denied, "
                        + "broken handshake)").register(registry);
        for (CommandType type : SERVED) {
            FunctionCounter.builder("strata.commands", stats, s -> s.commands(type)).tag("command", type.name())
                    .description("Commands received from clients, by type").register(registry);
        }
        FunctionCounter.builder("strata.commands", stats, StrataMeters::otherCommands).tag("command", "other")
                .description("Commands received from clients, by type").register(registry);
    }

    private static double otherCommands(FrontendStats stats) {
        long other = 0;
        for (CommandType type : CommandType.values()) {
            if (!SERVED.contains(type)) {
                other += stats.commands(type);
            }
        }
        return other;
    }

    /** Native pools: each gauge takes the pool's lock once per scrape. */
    private static void bindPool(MeterRegistry registry, String database, BackendPool pool) {
        String dataSource = pool.name();
        Gauge.builder("strata.backend.connections", pool, p -> p.stats().active())
                .tags("database", database, "data_source", dataSource, "state", "active")
                .description("Native backend connections, by state").register(registry);
        Gauge.builder("strata.backend.connections", pool, p -> p.stats().idle())
                .tags("database", database, "data_source", dataSource, "state", "idle")
                .description("Native backend connections, by state").register(registry);
        Gauge.builder("strata.backend.connections.max", pool, p -> p.config().maximumPoolSize())
                .tags("database", database, "data_source", dataSource)
                .description("maximumPoolSize of the data source").register(registry);
        Gauge.builder("strata.backend.pending", pool, p -> p.stats().waiting())
                .tags("database", database, "data_source", dataSource)
                .description("Statements waiting for a backend connection of a full pool").register(registry);
        FunctionCounter.builder("strata.backend.connection.leaks", pool, BackendPool::leaks)
                .tags("database", database, "data_source", dataSource)
                .description("connections borrowed longer than leakDetectionThreshold (reported in the log with the "
                        + "stack that borrowed them)").register(registry);
    }

    private static void bindHealth(MeterRegistry registry, DataSourceStatus status) {
        Gauge.builder("strata.data.source.in.rotation", status, s -> s.inRotation() ? 1 : 0)
                .tags("database", status.database(), "data_source", status.name())
                .description("1 when the data source takes statements, 0 when the health check took it out")
                .register(registry);
        Gauge.builder("strata.data.source.replication.lag", status,
                        s -> s.lagSeconds() == null ? Double.NaN : s.lagSeconds())
                .tags("database", status.database(), "data_source", status.name()).baseUnit("seconds")
                .description("Replication lag the health check last read (NaN: not a checked replica)")
                .register(registry);
    }
}
