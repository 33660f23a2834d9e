package io.strata.rule.sharding;

import io.strata.rule.KeyColumns;
import io.strata.rule.RouteException;
import io.strata.rule.sql.parser.ParameterInliner;
import io.strata.rule.sql.parser.SqlParser;
import net.sf.jsqlparser.statement.select.PlainSelect;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The merge plans of SELECTs over several nodes, by their text with {@code ?} for values (a prepared statement's,
 * or a text statement's normalized): a statement of a known shape is planned once, and each run writes its values
 * into the planned text. The {@code ?} are numbered before planning, so a value keeps its place whatever the plan
 * adds or moves. A shape that plans only with its values (LIMIT ?) is remembered as {@link #NONE}: planned per run.
 */
final class PlanCache {

    /** A shape planned per run, with its values written in. */
    static final SelectPlanner.Plan NONE = new SelectPlanner.Plan("", null);
    private static final int MAX_ENTRIES = 4096;

    private final SqlParser parser;
    /** Whether a query's groups each live on one node (SelectPlanner#plan's groupsOnOneNode). */
    private final java.util.function.Predicate<PlainSelect> groupsOnOneNode;
    private final ConcurrentHashMap<String, SelectPlanner.Plan> plans = new ConcurrentHashMap<>();
    /** Per shape, the key values its answers showed are no strings: its next plan asks no weight of them. */
    private final ConcurrentHashMap<String, Set<String>> plainValues = new ConcurrentHashMap<>();

    private final LogicalColumns columns;
    /** Per shape planned over the columns behind a *, the version of the columns it was planned with. */
    private final ConcurrentHashMap<String, Long> starVersions = new ConcurrentHashMap<>();

    PlanCache(SqlParser parser, java.util.function.Predicate<PlainSelect> groupsOnOneNode, LogicalColumns columns) {
        this.parser = parser;
        this.groupsOnOneNode = groupsOnOneNode;
        this.columns = columns;
    }

    /** A shape that needs no merge: its units run the statement as it is. */
    static final SelectPlanner.Plan NONE_NEEDED = new SelectPlanner.Plan("", null);

    /** The plan of a shape, {@link #NONE} or {@link #NONE_NEEDED}. */
    SelectPlanner.Plan plan(String template) {
        SelectPlanner.Plan plan = plans.get(template);
        Long planned = starVersions.get(template);
        if (planned != null && planned != columns.version()) {
            plan = null; // planned over columns a * stood for, which changed since
        }
        if (plan == null) {
            long version = columns.version();
            plan = learning(template, planOf(template));
            if (plan.merge() != null && plan.merge().star() != null) {
                starVersions.put(template, version);
            } else {
                starVersions.remove(template);
            }
            if (plans.size() >= MAX_ENTRIES) {
                plans.clear(); // a bound, not an LRU: shapes are few in real applications
                plainValues.clear();
                starVersions.clear();
            }
            plans.put(template, plan);
        }
        return plan;
    }

    /** The plan, its merges telling this cache which of its weighed keys are no strings. */
    private SelectPlanner.Plan learning(String template, SelectPlanner.Plan plan) {
        if (plan == NONE || plan == NONE_NEEDED || plan.weighed().isEmpty()) {
            return plan;
        }
        KeyColumns learner = new KeyColumns() {
            @Override
            public void notStrings(Set<Integer> weightColumns) {
                Set<String> known = plainValues.getOrDefault(template, Set.of());
                Set<String> more = new HashSet<>(known);
                weightColumns.forEach(column -> more.add(plan.weighed().get(column)));
                more.remove(null);
                if (more.size() > known.size()) {
                    plainValues.put(template, Set.copyOf(more));
                    plans.remove(template); // planned again without those weights
                }
            }

            @Override
            public void changed() {
                plainValues.remove(template);
                plans.remove(template);
            }
        };
        return new SelectPlanner.Plan(plan.unitSql(), plan.merge().learningWith(learner), plan.weighed());
    }

    /**
     * Whether a value stands anywhere but in the WHERE clause and joins, where the plan does not look (a LIMIT of
     * numbers written in the text is planned as it is: each unit reads offset + count rows).
     */
    private static boolean marksOutsideWhere(PlainSelect select) {
        return String.valueOf(select.getSelectItems()).contains("?")
                || select.getGroupBy() != null && select.getGroupBy().toString().contains("?")
                || select.getOrderByElements() != null && select.getOrderByElements().toString().contains("?")
                || select.getHaving() != null && select.getHaving().toString().contains("?")
                || select.getLimit() != null && select.getLimit().toString().contains("?")
                || select.getOffset() != null && select.getOffset().toString().contains("?");
    }

    private SelectPlanner.Plan planOf(String template) {
        try {
            if (parser == null || !(parser.parseUncached(ParameterInliner.numbered(template)).ast()
                    instanceof PlainSelect select)) {
                return NONE;
            }
            if (marksOutsideWhere(select)) {
                return NONE; // ORDER BY 2 read as ORDER BY ?: a position, not a value; plan with the values
            }
            SelectPlanner.Plan plan = SelectPlanner.plan(select, plainValues.getOrDefault(template, Set.of()),
                    groupsOnOneNode.test(select), columns);
            return plan == null ? NONE_NEEDED : plan;
        } catch (RouteException e) {
            return NONE; // planned again with the values: refused then, or planned (LIMIT ? has its number)
        }
    }
}
