package io.strata.rule;

import io.strata.config.ConfigException;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.DecoratingRule.Placement;
import io.strata.rule.StatementContext.Hold;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.CurrentDatabase;
import io.strata.rule.sql.parser.SqlParser;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules of one logical database. The routing rules, in order, turn the pass-through route (every statement to
 * the first data source, or its read/write group) into units; then the decorating rules, in their order
 * ({@link DecoratingRule#order}), place each unit on a data source. An
 * empty chain is the pass-through: the empty-rule proxy.
 *
 * <p>"A session holding server-side state stays where that state is" is enforced here, once: where a decorating
 * rule chooses among data sources of the same data, a session holding state on one of them stays on it, whatever
 * the rule would have chosen.
 */
public final class RuleChain {

    private final List<RoutingRule> routing = new ArrayList<>();
    private final List<DecoratingRule> decorating = new ArrayList<>();
    private final RouteResult passThrough;
    /**
     * The logical database's name where a backend schema has another (its statements then show it in place of the
     * backend's, {@link CurrentDatabase}); null where every data source's schema has the logical name.
     */
    private final String shownDatabase;

    /** A chain over one data source and no parser: for tests and tools. */
    public RuleChain(String defaultDataSource, List<Rule> rules) {
        this(List.of(defaultDataSource), rules, new SqlParser());
    }

    /**
     * @param dataSources the database's data sources in configuration order (the first is the default)
     * @param parser      the database's SQL parser
     */
    public RuleChain(List<String> dataSources, List<Rule> rules, SqlParser parser) {
        this(dataSources, rules, parser, null);
    }

    /** @param shownDatabase the logical database's name, where a backend schema has another; else null */
    private RuleChain(List<String> dataSources, List<Rule> rules, SqlParser parser, String shownDatabase) {
        this.shownDatabase = shownDatabase;
        for (Rule rule : rules) {
            if (rule instanceof DecoratingRule d) {
                decorating.add(d);
            }
        }
        List<String> logical = logical(dataSources);
        Set<String> groups = new LinkedHashSet<>(logical);
        groups.removeAll(dataSources);
        RuleBinding binding = new RuleBinding(logical, groups, parser);
        decorating.replaceAll(rule -> rule.bind(binding));
        decorating.sort(Comparator.comparingInt(DecoratingRule::order));
        for (Rule rule : rules) {
            if (rule instanceof RoutingRule r) {
                routing.add(r.bind(binding));
            }
        }
        // a rule that places tables (SINGLE) tells those that read placements (SHARDING) where its tables are
        for (RoutingRule source : List.copyOf(routing)) {
            if (source instanceof TablePlacements.Source placing) {
                routing.replaceAll(rule -> rule instanceof TablePlacements.Reader reader
                        ? reader.reading(placing.placements()) : rule);
            }
        }
        // the default data source by the name routes use: its group's, when it is in one
        this.passThrough = RouteResult.single(logical.get(0));
    }

    /** The data sources, each decorating rule's groups standing in place of their members. */
    private List<String> logical(List<String> dataSources) {
        Set<String> logical = new LinkedHashSet<>();
        for (String dataSource : dataSources) {
            String name = dataSource;
            for (DecoratingRule rule : decorating) {
                String group = rule.groupOf(name);
                if (group != null) {
                    name = group;
                }
            }
            logical.add(name);
        }
        return List.copyOf(logical);
    }

    /**
     * Builds the chain of a logical database from the rule factories the caller hands in (the built-in ones) and
     * those found on the class path ({@link ServiceLoader}); an unknown rule type fails with the file, key and known
     * types.
     */
    public static RuleChain of(DatabaseConfig database, String file, HealthRegistry health,
                               Collection<RuleFactory> builtIn) {
        Map<String, RuleFactory> factories = factories(builtIn);
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < database.rules().size(); i++) {
            RuleConfig config = database.rules().get(i);
            RuleFactory factory = factories.get(config.type());
            if (factory == null) {
                throw new ConfigException(file, "rules[" + i + "].type", "one of " + factories.keySet(),
                        config.type());
            }
            rules.add(factory.create(database, config, file, "rules[" + i + "]", health));
        }
        boolean renamed = !database.exposeSchemas() && database.dataSources().values().stream()
                .anyMatch(dataSource -> !dataSource.schema().equals(database.databaseName()));
        return new RuleChain(List.copyOf(database.dataSources().keySet()), rules, new SqlParser(),
                renamed ? database.databaseName() : null);
    }

    private static Map<String, RuleFactory> factories(Collection<RuleFactory> builtIn) {
        Map<String, RuleFactory> factories = new TreeMap<>();
        builtIn.forEach(factory -> factories.put(factory.type(), factory));
        for (RuleFactory factory : ServiceLoader.load(RuleFactory.class)) {
            factories.put(factory.type(), factory);
        }
        return factories;
    }

    /** The routing rules, as the chain runs them (bound to the database). */
    public List<RoutingRule> routingRules() {
        return List.copyOf(routing);
    }

    public boolean isEmpty() {
        return routing.isEmpty() && decorating.isEmpty();
    }

    public RouteResult route(StatementContext context) {
        RouteResult routed = passThrough;
        for (RoutingRule rule : routing) {
            RouteResult next = rule.route(context, routed);
            Steering steering = routed.steering();
            if (next.steering() == Steering.NONE && steering != Steering.NONE) {
                next = next.withSteering(steering); // a later rule's fresh route keeps what a query rule asked
            } else if (next.steering() != steering && next.steering().rewritten() != null) {
                context = context.withStatement(SqlClassifier.classify(next.steering().rewritten()));
            }
            routed = next;
        }
        if (routed.steering() != Steering.NONE && routed.steering().rewritten() != null && routed.passThrough()) {
            routed = rewritten(routed, context);
        }
        if (shownDatabase != null && context.statement() != null
                && CurrentDatabase.mayShow(context.statement().sql())) {
            routed = showingLogicalDatabase(routed, context);
        }
        return decorating.isEmpty() ? routed : decorate(routed, context);
    }

    /** The client's statement replaced by the text a query rule rewrote it to (an execute's values bound to it). */
    private static RouteResult rewritten(RouteResult routed, StatementContext context) {
        List<Object> params = context.preparing() ? List.of() : context.parameters().get();
        RouteUnit unit = new RouteUnit(routed.first().dataSource(), routed.steering().rewritten(), params);
        return routed.withUnits(List.of(unit), routed.retryable(), List.of());
    }

    /** Each unit's text with the logical database shown where the backend's schema would be. */
    private RouteResult showingLogicalDatabase(RouteResult routed, StatementContext context) {
        List<RouteUnit> units = new ArrayList<>(routed.units().size());
        boolean changed = false;
        for (RouteUnit unit : routed.units()) {
            String text = unit.rewritten() ? unit.sql() : context.statement().sql();
            String shown = CurrentDatabase.rewrite(text, shownDatabase);
            if (shown.equals(text)) {
                units.add(unit);
            } else {
                changed = true;
                List<Object> params = unit.rewritten() ? unit.params()
                        : context.preparing() ? List.of() : context.parameters().get();
                units.add(new RouteUnit(unit.dataSource(), shown, params));
            }
        }
        if (!changed) {
            return routed;
        }
        RouteResult shown = routed.withUnits(units, routed.retryable(), List.of());
        if (routed.passThrough() || routed.isSingle() && routed.steering().rewritten() != null) {
            // the client's own statement (or a query rule's text), rewritten: runs as its text, as a query rule's
            Steering steering = routed.steering();
            shown = shown.withSteering(new Steering(steering.timeoutMillis(), steering.mirrors(),
                    units.get(0).sql(), steering.rules()));
        }
        return shown;
    }

    private RouteResult decorate(RouteResult routed, StatementContext context) {
        List<RouteUnit> units = new ArrayList<>(routed.units().size());
        List<String> notes = List.of();
        boolean retryable = routed.retryable();
        boolean moved = false;
        for (RouteUnit unit : routed.units()) {
            String dataSource = unit.dataSource();
            for (DecoratingRule rule : decorating) {
                String held = heldAmong(rule.sameData(dataSource), context);
                if (held != null) {
                    dataSource = held;
                    retryable = false; // what the session holds there cannot move
                    continue;
                }
                Placement placement = rule.place(dataSource, context);
                if (placement != null) {
                    dataSource = placement.dataSource();
                    retryable = retryable || routed.isSingle() && placement.retryable();
                    if (placement.note() != null && !notes.contains(placement.note())) {
                        notes = notes.isEmpty() ? new ArrayList<>() : notes;
                        notes.add(placement.note());
                    }
                }
            }
            moved |= !dataSource.equals(unit.dataSource());
            units.add(unit.on(dataSource));
        }
        // the common case of a rule with nothing to say (a statement on tables it does not list) allocates no route
        return moved || retryable != routed.retryable() || !notes.isEmpty() ? routed.withUnits(units, retryable, notes)
                : routed;
    }

    /**
     * The data source among {@code sameData} where the session holds what the statement must find: any state, or
     * only warnings when the statement is a read or a SHOW (SHOW WARNINGS reads them); null when there is none.
     */
    private static String heldAmong(Set<String> sameData, StatementContext context) {
        if (context.held().isEmpty() || sameData.isEmpty()) {
            return null;
        }
        for (Map.Entry<String, Hold> hold : context.held().entrySet()) {
            if (sameData.contains(hold.getKey()) && (hold.getValue() == Hold.STATE || staysForWarnings(context))) {
                return hold.getKey();
            }
        }
        return null;
    }

    private static boolean staysForWarnings(StatementContext context) {
        SqlStatementInfo info = context.statement();
        return info != null && (info.kind() == SqlKind.SHOW || info.readOnly());
    }
}
