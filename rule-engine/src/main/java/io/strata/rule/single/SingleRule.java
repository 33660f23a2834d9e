package io.strata.rule.single;

import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RoutingRule;
import io.strata.rule.RuleBinding;
import io.strata.rule.StatementContext;
import io.strata.rule.TablePlacements;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.StatementType;
import io.strata.rule.sql.parser.TableName;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SINGLE: tables that live whole on one data source each, as ShardingSphere's single tables. Those its
 * {@code tables} patterns name ({@code *.*}, {@code ds_1.*}, {@code ds_1.t_merchant}) are found on their data sources
 * at start ({@link #found}); a statement naming them runs on the data source that holds them, one naming tables of two
 * data sources is refused (1235), and a new table Strata creates goes to {@code defaultDataSource}. Tables other
 * rules claim (sharded, broadcast) are not single tables.
 */
public final class SingleRule implements RoutingRule, TablePlacements.Source {

    /**
     * One entry of {@code tables}.
     *
     * @param dataSource the data source it names, or null for {@code *}
     * @param table      the table it names (lower case), or null for {@code *}
     */
    record Pattern(String dataSource, String table) {

        boolean covers(String candidateDataSource, String candidateTable) {
            return (dataSource == null || dataSource.equals(candidateDataSource))
                    && (table == null || table.equalsIgnoreCase(candidateTable));
        }
    }

    private final String database;
    private final List<Pattern> patterns;
    /** Where new tables go; null for the database's first data source. */
    private final String defaultDataSource;
    private final SinglePlacements placements;
    private final RuleBinding binding;

    SingleRule(String database, List<Pattern> patterns, String defaultDataSource, SinglePlacements placements,
               RuleBinding binding) {
        this.database = database;
        this.patterns = List.copyOf(patterns);
        this.defaultDataSource = defaultDataSource;
        this.placements = placements;
        this.binding = binding;
    }

    @Override
    public RoutingRule bind(RuleBinding chain) {
        return new SingleRule(database, patterns, defaultDataSource, placements, chain);
    }

    /** The data sources whose tables the patterns may name, of {@code all} (the database's, in order). */
    public List<String> dataSourcesToScan(Collection<String> all) {
        return all.stream().filter(ds -> patterns.stream().anyMatch(p -> p.dataSource() == null
                || p.dataSource().equals(ds))).toList();
    }

    /**
     * The tables found on {@code dataSource}: those the patterns name and no other rule claims ({@code claimed},
     * lower case) become single tables there.
     */
    public void found(String dataSource, Collection<String> tables, Set<String> claimed) {
        placements.claimed(claimed);
        for (String table : tables) {
            if (!claimed.contains(table.toLowerCase(Locale.ROOT))
                    && patterns.stream().anyMatch(p -> p.covers(dataSource, table))) {
                placements.place(table, dataSource);
            }
        }
    }

    /** Tables found on several data sources (a start-up error: which one holds the rows?), with those. */
    public Map<String, Set<String>> conflicts() {
        return placements.conflicts();
    }

    @Override
    public TablePlacements placements() {
        return placements::dataSourceOf;
    }

    /** Every single table with its data source (lower-case names). */
    public Map<String, String> placed() {
        return placements.all();
    }

    @Override
    public RouteResult route(StatementContext context, RouteResult routed) {
        SqlStatementInfo info = context.statement();
        if (info == null || binding == null || !placements.names().mayBeIn(info) && !createsTable(info)) {
            return routed;
        }
        if (info.multiStatement()) {
            throw refused("several statements in one query that may name a single table: send them one by one");
        }
        ParsedStatement parsed = binding.parser().parse(info.sql());
        if (!parsed.parsed()) {
            throw refused("Strata cannot read this statement, which may name a single table, to route it: "
                    + parsed.unparsedReason());
        }
        if (parsed.type() == StatementType.RENAME_TABLE || renamesTable(parsed)) {
            return renamed(parsed, routed);
        }
        Set<String> dataSources = new LinkedHashSet<>();
        List<String> named = new ArrayList<>();
        List<String> unplaced = new ArrayList<>();
        for (TableName table : parsed.tables()) {
            boolean ofDatabase = table.schema() == null || table.schema().equalsIgnoreCase(database);
            String dataSource = ofDatabase ? placements.dataSourceOf(table.name()) : null;
            if (dataSource != null) {
                dataSources.add(dataSource);
                named.add(table.name() + " (" + dataSource + ")");
            } else if (ofDatabase && !placements.isClaimed(table.name()) && !table.name().equalsIgnoreCase("dual")) {
                unplaced.add(table.name());
            }
        }
        if (dataSources.isEmpty()) {
            return parsed.type() == StatementType.CREATE_TABLE ? created(parsed, routed) : routed;
        }
        if (dataSources.size() > 1) {
            throw refused("single tables " + String.join(", ", named) + " live on different data sources: no one "
                    + "data source can answer this statement");
        }
        String dataSource = dataSources.iterator().next();
        if (!routed.isSingle()) {
            throw refused("single table " + named.get(0) + " lives on one data source, and this statement also "
                    + "names tables another rule sends to several");
        }
        if (!unplaced.isEmpty() && !routed.first().dataSource().equals(dataSource)) {
            // the others are read where the chain sends a table it does not know: Strata cannot tell that they
            // live with the single table (or that another table of that name there is not theirs)
            throw refused("single table " + named.get(0) + " lives on " + dataSource + ", and " + String.join(", ",
                    unplaced) + ", which no rule places, is read on " + routed.first().dataSource()
                    + ": list it in the SINGLE rule's tables (\"" + dataSource + ".<table>\" or \"*.*\") so that "
                    + "Strata knows where it lives");
        }
        if (parsed.type() == StatementType.DROP_TABLE) {
            parsed.tables().forEach(t -> placements.move(t.name(), null)); // a new one goes where new tables go
        }
        return on(routed, dataSource, "single: " + named.get(0));
    }

    /**
     * RENAME TABLE (old TO new, ...) or ALTER TABLE ... RENAME TO of single tables: run where they live, and found
     * under their new names there from now on. Tables of two data sources in one RENAME are refused.
     */
    private RouteResult renamed(ParsedStatement parsed, RouteResult routed) {
        List<TableName> tables = parsed.tables();
        Set<String> dataSources = new LinkedHashSet<>();
        for (int i = 0; i + 1 < tables.size(); i += 2) {
            String dataSource = placements.dataSourceOf(tables.get(i).name());
            if (dataSource != null) {
                dataSources.add(dataSource);
            }
        }
        if (dataSources.isEmpty()) {
            return routed;
        }
        if (dataSources.size() > 1 || !routed.isSingle()) {
            throw refused("a RENAME of tables that live on different data sources (" + dataSources + "): one "
                    + "data source at a time");
        }
        for (int i = 0; i + 1 < tables.size(); i += 2) {
            placements.move(tables.get(i).name(), tables.get(i + 1).name());
        }
        String dataSource = dataSources.iterator().next();
        return on(routed, dataSource, "single: renamed on " + dataSource);
    }

    private static boolean renamesTable(ParsedStatement parsed) {
        return parsed.ast() instanceof net.sf.jsqlparser.statement.alter.Alter alter
                && alter.getAlterExpressions() != null && alter.getAlterExpressions().stream().anyMatch(e ->
                e.getOperation() == net.sf.jsqlparser.statement.alter.AlterOperation.RENAME_TABLE);
    }

    /** A new table: created on {@code defaultDataSource}, where it is found from now on. */
    private RouteResult created(ParsedStatement parsed, RouteResult routed) {
        if (defaultDataSource == null || !routed.isSingle() || !routed.steering().rules().isEmpty()
                || parsed.tables().isEmpty()) {
            return routed;
        }
        TableName table = parsed.tables().get(0);
        if (table.schema() != null && !table.schema().equalsIgnoreCase(database)) {
            return routed;
        }
        placements.place(table.name(), defaultDataSource);
        return on(routed, defaultDataSource, "single: new table " + table.name() + " on " + defaultDataSource);
    }

    private static RouteResult on(RouteResult routed, String dataSource, String note) {
        RouteUnit unit = routed.first();
        if (unit.dataSource().equals(dataSource)) {
            return routed;
        }
        return routed.withUnits(List.of(new RouteUnit(dataSource, unit.sql(), unit.params())), routed.retryable(),
                List.of(note));
    }

    private static boolean createsTable(SqlStatementInfo info) {
        return info.kind() == SqlKind.DDL && info.tokenIs(0, "CREATE")
                && (info.tokenIs(1, "TABLE") || info.tokenIs(1, "TEMPORARY") && info.tokenIs(2, "TABLE")
                || info.tokenIs(1, "OR") && info.tokenIs(2, "REPLACE") && info.tokenIs(3, "TABLE"));
    }

    private static RouteException refused(String what) {
        return new RouteException(1235, "42000", "Strata's SINGLE rule cannot route this statement: " + what);
    }
}
