package io.strata.bootstrap.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.strata.backend.connection.PoolStats;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.FrontendStats;
import io.strata.kernel.SessionRegistry;
import io.strata.kernel.StrataRuntime;
import io.strata.protocol.CommandType;
import io.strata.rule.health.DataSourceStatus;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Strata's own meters: client sessions and commands, the native backend pools, and the health of every data source.
 * All are read from the live objects when Prometheus scrapes, and the pools and data sources from the runtime of
 * that moment, so a reload's new data sources appear and removed ones go; the statement path only adds to the
 * counters of {@link FrontendStats}.
 */
final class StrataMeters implements MeterBinder {

    /** The commands Strata serves, each its own series; the rest (refused as unknown) are counted as "other". */
    static final Set<CommandType> SERVED = EnumSet.of(CommandType.COM_QUERY, CommandType.COM_INIT_DB,
            CommandType.COM_PING, CommandType.COM_QUIT, CommandType.COM_FIELD_LIST, CommandType.COM_STATISTICS,
            CommandType.COM_RESET_CONNECTION, CommandType.COM_CHANGE_USER, CommandType.COM_SET_OPTION,
            CommandType.COM_PROCESS_KILL, CommandType.COM_STMT_PREPARE, CommandType.COM_STMT_EXECUTE,
            CommandType.COM_STMT_FETCH, CommandType.COM_STMT_RESET, CommandType.COM_STMT_SEND_LONG_DATA,
            CommandType.COM_STMT_CLOSE);

    private final FrontendContext context;
    private MultiGauge active;
    private MultiGauge idle;
    private MultiGauge max;
    private MultiGauge pending;
    private MultiGauge leaks;
    private MultiGauge inRotation;
    private MultiGauge lag;

    StrataMeters(FrontendContext context) {
        this.context = context;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        bindClients(registry);
        active = MultiGauge.builder("strata.backend.connections").tag("state", "active")
                .description("Native backend connections, by state").register(registry);
        idle = MultiGauge.builder("strata.backend.connections").tag("state", "idle")
                .description("Native backend connections, by state").register(registry);
        max = MultiGauge.builder("strata.backend.connections.max")
                .description("maximumPoolSize of the data source").register(registry);
        pending = MultiGauge.builder("strata.backend.pending")
                .description("Statements waiting for a backend connection of a full pool").register(registry);
        leaks = MultiGauge.builder("strata.backend.connection.leaks")
                .description("connections borrowed longer than leakDetectionThreshold since the pool was made "
                        + "(reported in the log with the stack that borrowed them)").register(registry);
        inRotation = MultiGauge.builder("strata.data.source.in.rotation")
                .description("1 when the data source takes statements, 0 when the health check or an "
                        + "administrator took it out").register(registry);
        lag = MultiGauge.builder("strata.data.source.replication.lag").baseUnit("seconds")
                .description("Replication lag the health check last read (NaN: not a checked replica)")
                .register(registry);
        FunctionCounter.builder("strata.deadlocks.broken", context, c -> c.backends().deadlocksBroken())
                .description("deadlocks across data sources Strata broke (a victim got 1213)").register(registry);
        bindQueryRules(registry);
        refresh();
    }

    /** Reads the pools and data sources of the runtime of this moment; called before each scrape. */
    void refresh() {
        StrataRuntime runtime = context.runtime();
        List<MultiGauge.Row<?>> activeRows = new ArrayList<>();
        List<MultiGauge.Row<?>> idleRows = new ArrayList<>();
        List<MultiGauge.Row<?>> maxRows = new ArrayList<>();
        List<MultiGauge.Row<?>> pendingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> leakRows = new ArrayList<>();
        runtime.backends().pools().forEach((key, pool) -> {
            Tags tags = Tags.of("database", key.substring(0, key.indexOf('/')), "data_source", pool.name());
            PoolStats stats = pool.stats();
            activeRows.add(MultiGauge.Row.of(tags, stats.active()));
            idleRows.add(MultiGauge.Row.of(tags, stats.idle()));
            maxRows.add(MultiGauge.Row.of(tags, pool.config().maximumPoolSize()));
            pendingRows.add(MultiGauge.Row.of(tags, stats.waiting()));
            leakRows.add(MultiGauge.Row.of(tags, pool.leaks()));
        });
        active.register(activeRows, true);
        idle.register(idleRows, true);
        max.register(maxRows, true);
        pending.register(pendingRows, true);
        leaks.register(leakRows, true);
        List<MultiGauge.Row<?>> rotationRows = new ArrayList<>();
        List<MultiGauge.Row<?>> lagRows = new ArrayList<>();
        for (String database : runtime.config().databases().keySet()) {
            for (DataSourceStatus status : runtime.health().statuses(database)) {
                Tags tags = Tags.of("database", status.database(), "data_source", status.name());
                rotationRows.add(MultiGauge.Row.of(tags, status.inRotation() ? 1 : 0));
                lagRows.add(MultiGauge.Row.of(tags, status.lagSeconds() == null ? Double.NaN : status.lagSeconds()));
            }
        }
        inRotation.register(rotationRows, true);
        lag.register(lagRows, true);
    }

    private void bindQueryRules(MeterRegistry registry) {
        FunctionCounter.builder("strata.mirror.statements", context, c -> c.mirrors().sent()).tag("outcome", "sent")
                .description("statement copies a query rule's mirror sent").register(registry);
        FunctionCounter.builder("strata.mirror.statements", context, c -> c.mirrors().failed())
                .tag("outcome", "failed").description("statement copies a query rule's mirror sent")
                .register(registry);
        FunctionCounter.builder("strata.mirror.statements", context, c -> c.mirrors().dropped())
                .tag("outcome", "dropped").description("statement copies a query rule's mirror sent")
                .register(registry);
        FunctionCounter.builder("strata.slow.log.entries", context,
                        c -> c.slowLog() == null ? 0 : c.slowLog().written()).tag("outcome", "written")
                .description("slow statements written to the slow query log").register(registry);
        FunctionCounter.builder("strata.slow.log.entries", context,
                        c -> c.slowLog() == null ? 0 : c.slowLog().dropped()).tag("outcome", "dropped")
                .description("slow statements written to the slow query log").register(registry);
    }

    private void bindClients(MeterRegistry registry) {
        SessionRegistry sessions = context.sessions();
        FrontendStats stats = context.stats();
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
}
