package io.strata.rule.sharding;

import io.strata.rule.RenamedTable;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RoutingRule;
import io.strata.rule.RuleBinding;
import io.strata.rule.StatementContext;
import io.strata.rule.TablePlacements;
import io.strata.rule.sql.LeadingHint;
import io.strata.rule.sql.NameSet;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.BulkInsert;
import io.strata.rule.sql.parser.Names;
import io.strata.rule.sql.parser.NormalizedStatement;
import io.strata.rule.sql.parser.ParameterInliner;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.SqlParser;
import io.strata.rule.sql.parser.StatementType;
import io.strata.rule.sql.parser.TableName;
import io.strata.rule.sql.parser.TableRenamer;
import io.strata.rule.sql.parser.StatementValues;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SHARDING: each configured logical table is split over data nodes (a data source's actual table), as
 * ShardingSphere's rule. A statement naming one is routed to the nodes its sharding conditions can touch, its text
 * renamed per node ({@link TableRenamer}); a SELECT over several nodes is planned by {@link SelectPlanner} and merged
 * by the executor; an INSERT's rows are split per node ({@link InsertSplitter}); DDL runs on every node. Statements
 * that name no sharded table are not parsed and go where the rules before sent them. What cannot be answered exactly
 * is refused (1235), saying why.
 */
public final class ShardingRule implements RoutingRule, TablePlacements.Reader {

    private final String database;
    private final ShardingTables tables;
    private final NameSet names;
    /** Broadcast tables (lower case): on every data source, so they join any node where it is. */
    private final Set<String> broadcast;
    private final SqlParser parser;
    private final PlanCache plans;
    private final ShardingConditionReader conditions = new ShardingConditionReader();
    /** The route of the client's own statement to one node, by its renames (as many as there are nodes). */
    private final Map<Map<String, String>, RouteResult> passthrough = new ConcurrentHashMap<>();
    /** Each statement shape's proof that its rows meet on one node, by its parsed tree (shared per shape). */
    private final Map<Statement, NodeLocality> localities = new ConcurrentHashMap<>();
    private static final int MAX_LOCALITIES = 4096;
    /** Past this many characters a text INSERT is read as a bulk one ({@link BulkInsert}): cut, not parsed whole. */
    private static final int BULK_TEXT = 1024;

    /** Where tables of one data source each (SINGLE's) are: a join with one runs only on its data source. */
    private final TablePlacements singles;

    /** The columns of the logical tables, shared by the rule and the copies its chains run. */
    private final LogicalColumns columns;

    ShardingRule(String database, ShardingTables tables, Set<String> broadcast, SqlParser parser) {
        this(database, tables, broadcast, parser, TablePlacements.NONE, new LogicalColumns());
    }

    private ShardingRule(String database, ShardingTables tables, Set<String> broadcast, SqlParser parser,
                         TablePlacements singles, LogicalColumns columns) {
        this.singles = singles;
        this.columns = columns;
        this.database = database;
        this.tables = tables;
        this.names = new NameSet(tables.tables().stream().map(ShardedTable::logicalName).toList());
        this.broadcast = Set.copyOf(broadcast);
        this.parser = parser;
        this.plans = new PlanCache(parser, this::groupsOnOneNode, columns);
    }

    public ShardingTables tables() {
        return tables;
    }

    /** The logical tables' columns, which the host reads ({@link LogicalColumns}). */
    public LogicalColumns columns() {
        return columns;
    }

    @Override
    public RoutingRule bind(RuleBinding binding) {
        return new ShardingRule(database, tables, broadcast, binding.parser(), singles, columns);
    }

    @Override
    public RoutingRule reading(TablePlacements placements) {
        return new ShardingRule(database, tables, broadcast, parser, placements, columns);
    }

    @Override
    public RouteResult route(StatementContext context, RouteResult routed) {
        try {
            return routeSharded(context, routed);
        } catch (ShardingRouteException e) {
            throw refused(e.reason());
        }
    }

    private RouteResult routeSharded(StatementContext context, RouteResult routed) {
        SqlStatementInfo info = context.statement();
        if (info == null || parser == null) {
            return routed;
        }
        // a statement's tokens are lexed when first asked for: only SHOW, DESCRIBE and EXPLAIN are looked into here
        boolean show = info.kind() == SqlKind.SHOW;
        if (show && info.tokenIs(0, "SHOW") && (info.tokenIs(1, "TABLES")
                || info.tokenIs(1, "FULL") && info.tokenIs(2, "TABLES")) && !info.multiStatement()) {
            return showTables(info);
        }
        if (!names.mayBeIn(info)) {
            return routed;
        }
        if (info.multiStatement()) {
            throw refused("several statements in one query that may name a sharded table: send them one by one");
        }
        ShardedTable described = show ? described(info) : null;
        if (described != null) { // DESCRIBE, SHOW COLUMNS, SHOW INDEX, SHOW CREATE TABLE: its first node answers
            DataNode first = described.nodes().get(0);
            Map<String, String> renames = bound(List.of(described), first);
            if (!answerNamesTable(info)) {
                return single(renames, info.sql(), "described by the first data node");
            }
            // its answer names the actual table, and indexes named for it (ShardingSphere's order_index_t_order_0):
            // the unit's own text (even where unchanged) goes through the merge, which renames them
            return single(renames, new RouteUnit(first.dataSource(), rename(info.sql(), renames), List.of()),
                    "described by the first data node")
                    .withRenamed(new RenamedTable(first.table(), described.logicalName()));
        }
        List<Object> params = context.preparing() ? List.of() : context.parameters().get();
        // an INSERT of many rows is cut at its rows' brackets rather than parsed whole (once more per node to
        // write each node's rows): a parse of its head and tail with one row stands for all of them
        boolean manyRows = params.isEmpty() && info.sql().length() > BULK_TEXT && (info.kind() == SqlKind.INSERT
                || info.kind() == SqlKind.REPLACE);
        RouteResult bulk = parser.tooLong(info.sql()) || manyRows ? bulkInsert(context, info.sql(), params, routed)
                : null;
        if (bulk != null) {
            return bulk;
        }
        // a text statement is read as the prepared one it would be: one cached parse for every literal
        NormalizedStatement normalized = params.isEmpty() && !context.preparing()
                ? parser.parseNormalized(info.sql()) : null;
        ParsedStatement parsed = normalized != null ? normalized.parsed() : parser.parse(info.sql());
        if (!parsed.parsed()) {
            throw refused("Strata cannot read this statement, which may name a sharded table, to route it: "
                    + parsed.unparsedReason());
        }
        List<ShardedTable> sharded = sharded(parsed);
        if (sharded.isEmpty()) {
            return routed;
        }
        String single = refuseOtherTables(parsed);
        if (context.preparing()) {
            return prepared(info.sql(), sharded);
        }
        Statements route = normalized != null
                ? new Statements(parsed, info.sql(), normalized.values(), sharded, info.sql(), normalized.text())
                : new Statements(parsed, info.sql(), params, sharded, null, params.isEmpty() ? null : info.sql());
        route.single = single;
        return switch (parsed.type()) {
            case SELECT -> route.select();
            case INSERT, REPLACE -> InsertSplitter.split(this, parser, route, sharded);
            case UPDATE, DELETE -> route.write();
            case CREATE_TABLE, ALTER_TABLE, DROP_TABLE, TRUNCATE_TABLE, CREATE_INDEX, DROP_INDEX -> route.everywhere();
            default -> throw refused(parsed.type().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                    + " of sharded table " + sharded.get(0).logicalName());
        };
    }

    /**
     * An INSERT or REPLACE ... VALUES too long to parse (a bulk load), read as its head and tail with one row of
     * {@code ?} ({@link BulkInsert#shape()}) and its rows' sharding values; null when it is not of that form (or
     * its rows hold a subquery, whose tables the shape would hide): the parser then reads it, or refuses it.
     */
    private RouteResult bulkInsert(StatementContext context, String sql, List<Object> params, RouteResult routed) {
        String text;
        try {
            text = params.isEmpty() ? sql : ParameterInliner.inline(sql, params);
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
        BulkInsert bulk = BulkInsert.cut(text);
        ParsedStatement shape = bulk == null ? null : parser.parse(bulk.shape());
        if (shape == null || !shape.parsed()
                || shape.type() != StatementType.INSERT && shape.type() != StatementType.REPLACE) {
            return null;
        }
        List<ShardedTable> sharded = sharded(shape);
        if (sharded.isEmpty()) {
            return routed;
        }
        if (refuseOtherTables(shape) != null) {
            throw refused("an INSERT into a sharded table that reads a single table");
        }
        if (context.preparing()) {
            return prepared(sql, sharded);
        }
        return InsertSplitter.splitBulk(this, new Statements(shape, sql, params, sharded, text, null), sharded,
                bulk);
    }

    /** The auditors a leading {@code /* SHARDINGSPHERE_HINT: DISABLE_AUDIT_NAMES=a b *}{@code /} names. */
    private static List<String> disabledAuditors(String sql) {
        String names = LeadingHint.of(sql).value("disable_audit_names");
        return names == null ? List.of() : List.of(names.strip().split("[\\s,]+"));
    }

    /** A statement being prepared: on the first node, for the parameters and columns its answer describes. */
    private RouteResult prepared(String sql, List<ShardedTable> sharded) {
        DataNode first = sharded.get(0).nodes().get(0);
        return single(bound(sharded, first), sql, "prepared on the first data node");
    }

    /**
     * What one statement does. It is routed by its parsed text (cached, {@code ?} and all) and its parameter values;
     * its values are written into the text only for units that get a text of their own.
     */
    final class Statements {
        final ParsedStatement parsed;
        /** The client's text. */
        final String sql;
        final List<Object> params;
        private final List<ShardedTable> sharded;
        private String inlined;
        /** The text with {@code ?} for its values (a prepared statement's, or a text one's normalized), or null. */
        private final String template;
        /** An execute of a prepared statement with values: its units may run prepared with them. */
        private final boolean executed;
        /** The data source of the single tables (SINGLE's) the statement names, or null for none. */
        private String single;

        /**
         * @param inlined the text with its values in it when it is known already (a text statement read as
         *                normalized: its own text), else null
         */
        Statements(ParsedStatement parsed, String sql, List<Object> params, List<ShardedTable> sharded,
                   String inlined, String template) {
            this.template = template;
            this.executed = inlined == null && template != null && !params.isEmpty();
            this.parsed = parsed;
            this.sql = sql;
            this.params = params;
            this.sharded = sharded;
            this.inlined = inlined;
        }

        /** The text with the parameter values written in, for the units' own statements. */
        String inlined() {
            if (inlined == null) {
                inlined = params.isEmpty() ? sql : ParameterInliner.inline(sql, params);
            }
            return inlined;
        }

        /** One node: the client's own statement (its bytes pass through) when renaming changes nothing. */
        RouteResult single(Map<String, String> renames) {
            String renamed = rename(sql, renames);
            String dataSource = renames.get("");
            if (renamed.equals(sql)) {
                return passthrough.computeIfAbsent(renames, r -> ShardingRule.this.single(r,
                        new RouteUnit(dataSource), null));
            }
            if (executed) { // runs prepared with the execute's values: its text is the client's, renamed
                return ShardingRule.this.single(renames, new RouteUnit(dataSource, renamed, params), null);
            }
            String text = inlined();
            return ShardingRule.this.single(renames, new RouteUnit(dataSource, text.equals(sql) ? renamed
                    : rename(text, renames), List.of()), null);
        }

        RouteResult select() {
            List<Map<String, String>> nodes = nodes();
            if (nodes.size() == 1) {
                return single(nodes.get(0));
            }
            if (!(parsed.ast() instanceof PlainSelect)) {
                throw refused(parsed.parsed() ? "a UNION, WITH or parenthesised SELECT over several shards of "
                        + sharded.get(0).logicalName() + ": add conditions on its sharding columns that pick one"
                        : "Strata cannot read this statement: " + parsed.unparsedReason());
            }
            if (selects(sql) > 1) {
                throw refused("a subquery over several shards of " + sharded.get(0).logicalName()
                        + ": add conditions on its sharding columns that pick one");
            }
            String unitSql;
            SelectPlanner.Plan plan = template == null ? null : plans.plan(template);
            boolean planned = plan != null && plan != PlanCache.NONE; // one plan per shape of statement
            String shape = !planned ? null : plan == PlanCache.NONE_NEEDED ? template : plan.unitSql();
            String prepared = shape != null && executed ? ParameterInliner.sequential(shape, params.size()) : null;
            if (prepared != null) { // the units run prepared too, with the execute's values as it sent them
                return new RouteResult(units(nodes, prepared, params), ResultMerge.CONCATENATE, false, notes(nodes),
                        plan == PlanCache.NONE_NEEDED ? null : plan.merge());
            }
            if (plan == PlanCache.NONE_NEEDED) {
                plan = null;
                unitSql = inlined();
            } else if (planned) {
                unitSql = ParameterInliner.inline(shape, params);
            } else {
                PlainSelect own = parser.parseUncached(inlined()).ast() instanceof PlainSelect p ? p : null;
                if (own == null) {
                    throw refused("Strata cannot read this statement with its values written in: " + inlined());
                }
                plan = SelectPlanner.plan(own, java.util.Set.of(), groupsOnOneNode(own), columns);
                unitSql = plan == null ? inlined() : plan.unitSql();
            }
            return new RouteResult(units(nodes, unitSql), ResultMerge.CONCATENATE, false, notes(nodes),
                    plan == null ? null : plan.merge());
        }

        RouteResult write() {
            List<Map<String, String>> nodes = nodes();
            if (sharded.size() > 1 && nodes.size() > 1) {
                throw refused("an UPDATE or DELETE of several tables over several shards");
            }
            if (parsed.ast() instanceof net.sf.jsqlparser.statement.update.Update update) {
                for (var set : update.getUpdateSets()) {
                    for (var column : set.getColumns()) {
                        String name = Names.unquote(column.getColumnName()).toLowerCase(Locale.ROOT);
                        if (sharded.stream().anyMatch(t -> t.shardingColumns().contains(name))) {
                            throw refused("UPDATE of sharding column " + name + ": its rows would belong to another "
                                    + "shard; delete and insert them instead");
                        }
                    }
                }
                if (nodes.size() > 1 && (update.getLimit() != null || update.getOrderByElements() != null)) {
                    throw refused("UPDATE ... ORDER BY / LIMIT over several shards");
                }
            }
            if (parsed.ast() instanceof net.sf.jsqlparser.statement.delete.Delete delete && nodes.size() > 1
                    && (delete.getLimit() != null || delete.getOrderByElements() != null)) {
                throw refused("DELETE ... ORDER BY / LIMIT over several shards");
            }
            if (nodes.size() == 1) {
                return single(nodes.get(0));
            }
            return new RouteResult(units(nodes, inlined()), ResultMerge.CONCATENATE, false, notes(nodes));
        }

        RouteResult everywhere() {
            if (sharded.size() > 1) {
                throw refused("DDL naming several sharded tables: one statement per table");
            }
            columns.changed(sharded.get(0).logicalName()); // read again once the DDL ran
            List<Map<String, String>> nodes = new ArrayList<>();
            for (DataNode node : sharded.get(0).nodes()) {
                nodes.add(sharded.get(0).renamesAlone(node));
            }
            return new RouteResult(units(nodes, inlined()), ResultMerge.CONCATENATE, false, notes(nodes));
        }

        /** The renames of each node the statement touches: its tables' actual names, and "" for its data source. */
        private List<Map<String, String>> nodes() {
            audit();
            ShardedTable first = sharded.get(0);
            List<DataNode> nodes = tables.nodes(first, conditions.branches(parsed, params, first, sharded),
                    hints(first));
            List<Map<String, String>> out = new ArrayList<>(nodes.size());
            for (DataNode node : nodes) {
                Map<String, String> renames = bound(sharded, node);
                if (renames != null && touched(renames)) {
                    out.add(renames);
                }
            }
            if (out.isEmpty()) {
                out.add(bound(sharded, nodes.isEmpty() ? first.nodes().get(0) : nodes.get(0)));
            }
            List<Map<String, String>> local = local(out);
            if (single != null && local.stream().anyMatch(node -> !node.get("").equals(single))) {
                throw refused("a single table on " + single + " with shards of " + first.logicalName() + " on "
                        + "other data sources: its rows are on " + single + " alone, so no other data source can join "
                        + "them (add conditions on the sharding columns that pick shards on " + single + ")");
            }
            return local;
        }

        /**
         * The nodes whose answers, merged, are the statement's: {@code nodes} when its rows meet on one node
         * ({@link NodeLocality}); else the one node where the conditions of each mention of a sharded table put
         * all its rows, or a refusal.
         */
        private List<Map<String, String>> local(List<Map<String, String>> nodes) {
            NodeLocality locality = locality(parsed);
            if (locality.everywhere() || nodes.size() == 1 && locality.components().size() <= 1) {
                return nodes;
            }
            Set<Integer> positions = new TreeSet<>();
            for (List<NodeLocality.Instance> component : locality.components()) {
                Set<Integer> common = null;
                for (NodeLocality.Instance instance : component) {
                    Set<Integer> own = positions(instance);
                    if (common == null) {
                        common = own;
                    } else {
                        common.retainAll(own);
                    }
                }
                positions.addAll(common);
            }
            if (positions.size() > 1) {
                throw refused(locality.components().size() > 1 ? locality.whyApart() : "an outer join keeps every "
                        + "row of " + locality.preservedBroadcast() + " while it joins sharded rows on several "
                        + "shards, so each shard would add the rows it does not match: keep the sharded table's "
                        + "rows instead, or add conditions on its sharding columns that pick one shard");
            }
            // one node holds every row the statement reads (or none holds any: any one node answers)
            return positions.isEmpty() ? List.of(nodes.get(0))
                    : List.of(bound(sharded, sharded.get(0).nodes().get(positions.iterator().next())));
        }

        /** The positions of the nodes where the conditions of its own query block put a mention's rows. */
        private Set<Integer> positions(NodeLocality.Instance instance) {
            var where = instance.block().where();
            List<ShardingConditions> branches = conditions.branches(where == null ? null
                            : StatementValues.condition(where), instance.table(), instance.qualifier(),
                    instance.block().single(), params);
            Set<Integer> positions = new TreeSet<>();
            for (DataNode node : tables.nodes(instance.table(), branches, hints(instance.table()))) {
                positions.add(instance.table().positionOf(node));
            }
            return positions;
        }

        /** The values the statement's leading hint gives a table with a {@code hint} strategy. */
        HintValues hints(ShardedTable table) {
            return table.hinted() ? HintValues.of(LeadingHint.of(sql), table.lowerName())
                    : HintValues.none();
        }

        /**
         * The auditors of its tables (DML_SHARDING_CONDITIONS, ShardingSphere's one): a SELECT, UPDATE or DELETE
         * whose WHERE bounds none of its sharded tables (each of its OR branches naming a table's sharding column)
         * would reach every shard, and is refused, unless a leading hint disables the auditors and their tables
         * allow it. Bound tables count together, as a join on one's sharding column routes the other.
         */
        private void audit() {
            String auditor = null;
            ShardedTable audited = null;
            for (ShardedTable table : sharded) {
                AuditConfig audit = table.config().audit().orElse(null);
                if (audit != null && auditor == null) {
                    List<String> active = new ArrayList<>(audit.auditorNames());
                    if (audit.allowHintDisable()) {
                        active.removeAll(disabledAuditors(sql));
                    }
                    auditor = active.isEmpty() ? null : active.get(0);
                    audited = table;
                }
            }
            if (auditor == null) {
                return;
            }
            for (ShardedTable table : sharded) {
                List<String> columns = table.shardingColumns();
                HintValues hints = hints(table);
                if (!hints.databaseValues().isEmpty() || !hints.tableValues().isEmpty()) {
                    return; // a hint strategy's values bound it
                }
                if (conditions.branches(parsed, params, table, sharded).stream()
                        .allMatch(branch -> branch.columnNames().stream().anyMatch(columns::contains))) {
                    return;
                }
            }
            throw refused("auditor " + auditor + " of " + audited.logicalName() + " (DML_SHARDING_CONDITIONS): a "
                    + "statement without a condition on the sharding columns " + audited.shardingColumns()
                    + " would reach every shard");
        }

        /** Whether every bound table's conditions also allow its node of this position. */
        private boolean touched(Map<String, String> renames) {
            for (int i = 1; i < sharded.size(); i++) {
                ShardedTable other = sharded.get(i);
                DataNode node = new DataNode(renames.get(""), renames.get(other.lowerName()));
                if (!tables.nodes(other, conditions.branches(parsed, params, other, sharded), hints(other))
                        .contains(node)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Whether a query's every group lives on one node: it reads one sharded table, whose rows are placed by its
     * sharding columns alone, and groups by each of them (as columns, bare or qualified with the table's name or
     * alias).
     */
    private boolean groupsOnOneNode(PlainSelect select) {
        if (select.getGroupBy() == null || select.getJoins() != null && !select.getJoins().isEmpty()
                || !(select.getFromItem() instanceof net.sf.jsqlparser.schema.Table from)) {
            return false;
        }
        ShardedTable table = tables.find(Names.unquote(from.getName())).orElse(null);
        if (table == null || !NodeLocality.linkable(table)) {
            return false;
        }
        String alias = from.getAlias() == null ? table.lowerName()
                : Names.unquote(from.getAlias().getName()).toLowerCase(Locale.ROOT);
        List<String> grouped = new ArrayList<>();
        for (Object expression : select.getGroupBy().getGroupByExpressionList()) {
            if (expression instanceof net.sf.jsqlparser.schema.Column column && (column.getTable() == null
                    || column.getTable().getName() != null
                    && Names.unquote(column.getTable().getName()).equalsIgnoreCase(alias))) {
                grouped.add(Names.unquote(column.getColumnName()).toLowerCase(Locale.ROOT));
            }
        }
        return grouped.containsAll(table.shardingColumns());
    }

    /** The proof of a statement shape, read once. */
    private NodeLocality locality(ParsedStatement parsed) {
        if (parsed.ast() == null) {
            return NodeLocality.of(null, tables, broadcast, database);
        }
        NodeLocality locality = localities.get(parsed.ast());
        if (locality == null) {
            if (localities.size() >= MAX_LOCALITIES) {
                localities.clear(); // a bound, not an LRU, as the plans'
            }
            locality = NodeLocality.of(parsed.ast(), tables, broadcast, database);
            localities.put(parsed.ast(), locality);
        }
        return locality;
    }

    /** The renames of a node and of the tables bound to it at the same position. */
    private Map<String, String> bound(List<ShardedTable> sharded, DataNode node) {
        if (sharded.size() == 1) { // a statement of one table: the table made its nodes' maps once
            return sharded.get(0).renamesAlone(node);
        }
        Map<String, String> renames = new LinkedHashMap<>();
        renames.put("", node.dataSource());
        renames.put(sharded.get(0).lowerName(), node.table());
        for (int i = 1; i < sharded.size(); i++) {
            DataNode other = tables.boundNode(sharded.get(i), node);
            if (!other.dataSource().equals(node.dataSource())) {
                throw refused("bound tables " + sharded.get(0).logicalName() + " and " + sharded.get(i).logicalName()
                        + " have nodes on different data sources");
            }
            renames.put(sharded.get(i).lowerName(), other.table());
        }
        return renames;
    }

    /** One node: the client's own statement when renaming changes nothing (its bytes then pass through). */
    private RouteResult single(Map<String, String> renames, String sql, String note) {
        String renamed = rename(sql, renames);
        return single(renames, renamed.equals(sql) ? new RouteUnit(renames.get(""))
                : new RouteUnit(renames.get(""), renamed, List.of()), note);
    }

    /** One node running {@code unit}, with why. */
    private RouteResult single(Map<String, String> renames, RouteUnit unit, String note) {
        List<String> notes = new ArrayList<>(notes(List.of(renames)));
        if (note != null) {
            notes.add(note);
        }
        return new RouteResult(List.of(unit), ResultMerge.CONCATENATE, false, notes);
    }

    List<RouteUnit> units(List<Map<String, String>> nodes, String sql) {
        return units(nodes, sql, List.of());
    }

    /** Each node's unit: {@code sql} renamed for the node, run with {@code params} for its {@code ?}. */
    private List<RouteUnit> units(List<Map<String, String>> nodes, String sql, List<Object> params) {
        List<RouteUnit> units = new ArrayList<>(nodes.size());
        for (Map<String, String> renames : nodes) {
            units.add(new RouteUnit(renames.get(""), rename(sql, renames), params));
        }
        return units;
    }

    String rename(String sql, Map<String, String> renames) {
        if (sql.indexOf('.') < 0 && keepsNames(sql, renames) && !TableRenamer.namesIndexes(sql)) {
            return sql; // the actual tables have the logical names, unqualified: nothing to rename (sysbench's case)
        }
        Map<String, String> tablesOnly = new LinkedHashMap<>(renames);
        tablesOnly.remove("");
        try {
            return TableRenamer.rename(sql, tablesOnly, database);
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
    }

    /** Whether every actual table is its logical name, written so in the text. */
    private static boolean keepsNames(String sql, Map<String, String> renames) {
        for (Map.Entry<String, String> rename : renames.entrySet()) {
            if (!rename.getKey().isEmpty() && (!rename.getValue().equalsIgnoreCase(rename.getKey())
                    || !sql.contains(rename.getValue()))) {
                return false;
            }
        }
        return true;
    }

    static List<String> notes(List<Map<String, String>> nodes) {
        List<String> notes = new ArrayList<>(nodes.size());
        for (Map<String, String> renames : nodes) {
            StringBuilder note = new StringBuilder("sharding: ").append(renames.get(""));
            renames.forEach((logical, actual) -> {
                if (!logical.isEmpty()) {
                    note.append(' ').append(logical).append(" -> ").append(actual);
                }
            });
            notes.add(note.toString());
        }
        return notes;
    }

    /**
     * SHOW [FULL] TABLES [LIKE 'pattern'] of the logical database, answered by the default data source with its own
     * tables, the actual tables of sharded ones replaced by their logical names. Other forms (FROM another
     * database, WHERE) go where the rules before sent them.
     */
    private RouteResult showTables(SqlStatementInfo info) {
        boolean full = info.tokenIs(1, "FULL");
        int next = full ? 3 : 2;
        String like = null;
        if (info.tokenIs(next, "LIKE") && info.token(next + 1).startsWith("'") && info.token(next + 2).isEmpty()) {
            like = info.token(next + 1);
        } else if (!info.token(next).isEmpty()) {
            return RouteResult.single(tables.defaultDataSource());
        }
        StringBuilder actual = new StringBuilder();
        StringBuilder logical = new StringBuilder();
        for (ShardedTable table : tables.tables()) {
            for (DataNode node : table.nodes()) {
                actual.append(actual.isEmpty() ? "" : ", ").append(quoted(node.table()));
            }
            logical.append(" UNION ALL SELECT ").append(quoted(table.logicalName())).append(", 'BASE TABLE'");
        }
        String column = "Tables_in_" + database + (like == null ? "" : " (" + like.substring(1, like.length() - 1)
                + ")");
        String sql = "SELECT n AS `" + column.replace("`", "``") + "`" + (full ? ", t AS `Table_type`" : "")
                + " FROM (SELECT table_name AS n, table_type AS t FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_name NOT IN (" + actual + ")" + logical + ") AS x"
                + (like == null ? "" : " WHERE n LIKE " + like) + " ORDER BY n";
        return new RouteResult(List.of(new RouteUnit(tables.defaultDataSource(), sql, List.of())),
                ResultMerge.CONCATENATE, true, List.of("sharding: logical tables"));
    }

    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /**
     * The sharded table a statement that describes one names: DESCRIBE / DESC / EXPLAIN t, SHOW [FULL] COLUMNS |
     * FIELDS | INDEX | INDEXES | KEYS FROM | IN t, SHOW CREATE TABLE t; else null.
     */
    private ShardedTable described(SqlStatementInfo info) {
        int at = -1;
        if (info.tokenIs(0, "DESCRIBE") || info.tokenIs(0, "DESC") || info.tokenIs(0, "EXPLAIN")) {
            at = 1;
        } else if (info.tokenIs(0, "SHOW")) {
            int i = info.tokenIs(1, "FULL") || info.tokenIs(1, "EXTENDED") ? 2 : 1;
            if (info.tokenIs(i, "CREATE") && info.tokenIs(i + 1, "TABLE")) {
                at = i + 2;
            } else if ((info.tokenIs(i, "COLUMNS") || info.tokenIs(i, "FIELDS") || info.tokenIs(i, "INDEX")
                    || info.tokenIs(i, "INDEXES") || info.tokenIs(i, "KEYS"))
                    && (info.tokenIs(i + 1, "FROM") || info.tokenIs(i + 1, "IN"))) {
                at = i + 2;
            }
        }
        String name = at < 0 ? null : info.token(at);
        if (name != null && ".".equals(info.token(at + 1))) { // shop.t_order: a table of the logical database
            name = unquoted(name).equalsIgnoreCase(database) ? info.token(at + 2) : null;
        }
        return name == null ? null : tables.find(unquoted(name)).orElse(null);
    }

    private static String unquoted(String token) {
        return token.length() > 1 && token.startsWith("`") ? token.substring(1, token.length() - 1) : token;
    }

    /** SHOW CREATE TABLE and SHOW INDEX answer with the described table's name; DESCRIBE and SHOW COLUMNS do not. */
    private static boolean answerNamesTable(SqlStatementInfo info) {
        int i = info.tokenIs(1, "FULL") || info.tokenIs(1, "EXTENDED") ? 2 : 1;
        return info.tokenIs(0, "SHOW") && !info.tokenIs(i, "COLUMNS") && !info.tokenIs(i, "FIELDS");
    }

    /** The sharded tables a statement names, in order. */
    private List<ShardedTable> sharded(ParsedStatement parsed) {
        List<ShardedTable> found = new ArrayList<>();
        for (TableName table : parsed.tables()) {
            if (table.schema() == null || table.schema().equalsIgnoreCase(database)) {
                tables.find(table.name()).filter(t -> !found.contains(t)).ifPresent(found::add);
            }
        }
        return found;
    }

    /**
     * Sharded tables meet only bound tables, broadcast tables and the single tables of one data source (SINGLE's),
     * which are not written with them.
     *
     * @return the data source of the single tables the statement names, or null for none
     */
    private String refuseOtherTables(ParsedStatement parsed) {
        ShardedTable first = null;
        String single = null;
        for (TableName table : parsed.tables()) {
            boolean ours = table.schema() == null || table.schema().equalsIgnoreCase(database);
            var found = ours ? tables.find(table.name()) : java.util.Optional.<ShardedTable>empty();
            String placed = ours && found.isEmpty() ? singles.dataSourceOf(table.name()) : null;
            if (found.isPresent()) {
                if (first == null) {
                    first = found.get();
                } else if (!tables.areBound(first.logicalName(), found.get().logicalName())) {
                    throw refused("sharded tables " + first.logicalName() + " and " + found.get().logicalName()
                            + " are not bound (bindingTables): their rows may be on different shards");
                }
            } else if (ours && broadcast.contains(table.name().toLowerCase(Locale.ROOT))) {
                if (table.written()) {
                    throw refused("a statement that changes broadcast table " + table.name() + " and names a "
                            + "sharded table");
                }
            } else if (placed != null && !table.written() && (single == null || single.equals(placed))) {
                single = placed;
            } else if (placed != null) {
                throw refused(table.written() ? "a statement that changes single table " + table.name() + " and "
                        + "names a sharded table" : "single tables on " + single + " and " + placed + " with a "
                        + "sharded table");
            } else {
                throw refused("table " + table.name() + " is neither sharded nor broadcast, so it lives on one data "
                        + "source, and this statement also names a sharded table");
            }
        }
        return single;
    }

    /** How many SELECTs the text holds outside strings: more than one means a subquery or a UNION. */
    private static int selects(String sql) {
        int count = 0;
        String upper = sql.toUpperCase(Locale.ROOT);
        for (int at = upper.indexOf("SELECT"); at >= 0; at = upper.indexOf("SELECT", at + 6)) {
            boolean wordStart = at == 0 || !Character.isLetterOrDigit(upper.charAt(at - 1)) && upper.charAt(at - 1) != '_';
            boolean wordEnd = at + 6 >= upper.length() || !Character.isLetterOrDigit(upper.charAt(at + 6))
                    && upper.charAt(at + 6) != '_';
            count += wordStart && wordEnd ? 1 : 0;
        }
        return count;
    }


    static RouteException refused(String what) {
        return new RouteException(1235, "42000", "Strata's SHARDING rule cannot answer this exactly: " + what);
    }
}
