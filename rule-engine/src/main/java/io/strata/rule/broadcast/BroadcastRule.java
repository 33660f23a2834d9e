package io.strata.rule.broadcast;

import io.strata.rule.ResultMerge;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RoutingRule;
import io.strata.rule.RuleBinding;
import io.strata.rule.StatementContext;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.HealthCheck;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.NameSet;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.SqlParser;
import io.strata.rule.sql.parser.StatementType;
import io.strata.rule.sql.parser.TableName;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * BROADCAST: each listed table is kept whole on every data source of the logical database (a read/write group
 * counting once), as ShardingSphere's broadcast tables. A statement that changes one (DML, DDL, LOAD DATA) runs on
 * every data source as one statement, answered with one copy's count; a read of broadcast tables only goes to one
 * data source, round robin over those in rotation; a statement that also names a table of one data source runs
 * there. Statements that name no listed table are not parsed.
 */
public final class BroadcastRule implements RoutingRule {

    /** How often the data sources it spreads reads over are checked, when no other rule checks them. */
    private static final HealthCheck CHECK = new HealthCheck(1000, 1000, Long.MAX_VALUE, null, null);

    private final String database;
    private final List<String> tables;
    /** The listed names, compared without case (as ShardingSphere matches logical tables). */
    private final NameSet names;
    private final HealthRegistry health;
    private final RuleBinding binding;
    /** The data sources in rotation are looked for from here on: reads go round. */
    private final AtomicInteger nextRead = new AtomicInteger();

    BroadcastRule(String database, List<String> tables, HealthRegistry health, RuleBinding binding) {
        this.database = database;
        this.tables = List.copyOf(tables);
        this.names = new NameSet(tables);
        this.health = health;
        this.binding = binding;
    }

    /** The tables it keeps on every data source, as configured. */
    public List<String> tables() {
        return tables;
    }

    /** The data sources its tables live on (a read/write group by its name). */
    public List<String> dataSources() {
        return binding.dataSources();
    }

    /**
     * Bound to the database's data sources; those that are no group are checked by the health monitor, so that one
     * found unreachable by a read comes back into rotation when it answers again.
     */
    @Override
    public RoutingRule bind(RuleBinding chain) {
        for (String dataSource : chain.dataSources()) {
            if (chain.groups().contains(dataSource)) {
                continue; // no data source of its own: the rule that made the group checks its members
            }
            DataSourceStatus status = health.status(database, dataSource);
            if (health.watchOf(status) == null) {
                health.watch(status, HealthRegistry.Role.PRIMARY, "broadcast", CHECK);
            }
        }
        return new BroadcastRule(database, tables, health, chain);
    }

    @Override
    public RouteResult route(StatementContext context, RouteResult routed) {
        SqlStatementInfo info = context.statement();
        if (info == null || !names.mayBeIn(info)) {
            return routed;
        }
        if (info.multiStatement()) {
            throw refused("Several statements in one query that name a broadcast table go to one data source "
                    + "only: send them one by one");
        }
        if (longInsert(info)) {
            return everywhere(info);
        }
        ParsedStatement parsed = binding.parser().parse(info.sql());
        if (!parsed.parsed()) {
            throw refused("Strata cannot read this statement, which names a broadcast table, to route it: "
                    + parsed.unparsedReason());
        }
        List<TableName> broadcast = new ArrayList<>();
        List<TableName> others = new ArrayList<>();
        for (TableName table : parsed.tables()) {
            (isBroadcast(table) ? broadcast : others).add(table);
        }
        if (broadcast.isEmpty()) {
            return routed;
        }
        if (broadcast.stream().anyMatch(TableName::written)) {
            if (!others.isEmpty()) {
                throw refused("This statement changes broadcast table " + broadcast.get(0).name() + ", which is on "
                        + "every data source, and names " + others.get(0).name() + ", which is on one: run it on "
                        + "each data source apart, or change the rule");
            }
            if (parsed.type() == StatementType.LOAD_DATA && isLocal(info)) {
                throw refused("LOAD DATA LOCAL INFILE into broadcast table " + broadcast.get(0).name() + ": the "
                        + "client's file can go to one data source only; load it into each data source apart");
            }
            return everywhere(info);
        }
        if (!others.isEmpty() || !info.readOnly() || context.inTransaction()) {
            return routed; // with a table of one data source, locking, or in a transaction: where the rest runs
        }
        return RouteResult.read(nextInRotation());
    }

    /** The statement on every data source, as one: one copy's answer. */
    private RouteResult everywhere(SqlStatementInfo info) {
        List<RouteUnit> units = new ArrayList<>(binding.dataSources().size());
        binding.dataSources().forEach(dataSource -> units.add(new RouteUnit(dataSource)));
        return new RouteResult(units, ResultMerge.ONE_COPY, false);
    }

    /** The next data source in rotation, round robin (a group counts as in rotation: its rule places the read). */
    private String nextInRotation() {
        List<String> dataSources = binding.dataSources();
        int start = Math.floorMod(nextRead.getAndIncrement(), dataSources.size());
        for (int i = 0; i < dataSources.size(); i++) {
            String dataSource = dataSources.get((start + i) % dataSources.size());
            if (binding.groups().contains(dataSource) || health.status(database, dataSource).inRotation()) {
                return dataSource;
            }
        }
        return dataSources.get(start);
    }

    private boolean isBroadcast(TableName table) {
        return names.contains(table.name())
                && (table.schema() == null || table.schema().equalsIgnoreCase(database));
    }

    /**
     * A bulk {@code INSERT | REPLACE ... INTO t [(...)] VALUES ...} into a listed table, too long for the parser (or
     * to keep its tokens): its target is read from its first words, and it names no other table.
     */
    private boolean longInsert(SqlStatementInfo info) {
        if (info.statementTokens() != null && info.sql().length() <= 16 * 1024
                || info.kind() != SqlKind.INSERT && info.kind() != SqlKind.REPLACE) {
            return false;
        }
        List<String> t = info.tokens();
        int into = -1;
        for (int i = 1; i < t.size() && into < 0; i++) {
            if (t.get(i).equalsIgnoreCase("INTO")) {
                into = i;
            }
        }
        if (into < 0 || into + 1 >= t.size()) {
            return false;
        }
        String target = t.get(into + 1);
        target = target.startsWith("`") ? target.substring(1, target.length() - 1) : target;
        if (!names.contains(target)) {
            return false;
        }
        for (int i = into + 2; i < t.size(); i++) {
            if (t.get(i).equalsIgnoreCase("SELECT") || t.get(i).equalsIgnoreCase("TABLE")) {
                return false; // INSERT ... SELECT reads other tables: only a parse can say which
            }
            if (t.get(i).equalsIgnoreCase("VALUES") || t.get(i).equalsIgnoreCase("VALUE")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isLocal(SqlStatementInfo info) {
        return info.tokenIs(2, "LOCAL") || info.tokenIs(3, "LOCAL");
    }

    private static RouteException refused(String message) {
        return new RouteException(1235, "42000", message);
    }
}
