package io.strata.frontend.command;

import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RuleChain;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code SHOW STRATA ROUTE <statement>}: where the session's statement would run now, and why (which rule or
 * algorithm decided), without running it. One row per unit; a statement the rules refuse gets one row saying so.
 */
final class RouteExplain {

    private static final Pattern FORM = Pattern.compile("\\s*SHOW\\s+STRATA\\s+ROUTE\\s+(.+?)[\\s;]*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final List<ColumnDefinition41> COLUMNS = List.of(ColumnDefinition41.bigint("unit"),
            ColumnDefinition41.varchar("data_source"), ColumnDefinition41.varchar("sql"),
            ColumnDefinition41.varchar("merge"), ColumnDefinition41.varchar("notes"));

    /** How the sharding rule's note of one node begins. */
    private static final String SHARDING_NODE = "sharding: ";

    private RouteExplain() {
    }

    /** The statement a SHOW STRATA ROUTE asks about, or null when {@code info} is something else. */
    static String statementOf(SqlStatementInfo info) {
        if (info.kind() != SqlKind.SHOW || !info.tokenIs(1, "STRATA") || !info.tokenIs(2, "ROUTE")) {
            return null;
        }
        Matcher matcher = FORM.matcher(info.sql());
        return matcher.matches() ? matcher.group(1) : null;
    }

    /**
     * @param context the statement's routing context: the session's as it stands (in a transaction, holding
     *                connections) so the answer is where the statement would go now
     */
    static LocalResultSet answer(RuleChain chain, StatementContext context) {
        String sql = context.statement().sql();
        List<List<Object>> rows = new ArrayList<>();
        try {
            RouteResult route = chain.route(context);
            String merge = route.isSingle() ? null : route.query() != null ? route.query().merge().describe()
                    : route.merge().name();
            for (int i = 0; i < route.units().size(); i++) {
                RouteUnit unit = route.units().get(i);
                List<String> notes = notesOf(route, i);
                rows.add(Arrays.asList((long) i, unit.dataSource(), unit.rewritten() ? unit.sql() : sql, merge,
                        notes.isEmpty() ? null : String.join("; ", notes)));
            }
        } catch (RouteException refused) {
            rows.add(Arrays.asList(null, null, sql, null, "refused: " + refused.getMessage()));
        }
        return new LocalResultSet(COLUMNS, rows);
    }

    /**
     * The notes of unit {@code i}: those of the whole route, and of the nodes the sharding rule notes one per unit
     * in the units' order ({@code sharding: ds_0 t_order -> t_order_1}), its own only.
     */
    private static List<String> notesOf(RouteResult route, int i) {
        List<String> perNode = route.notes().stream().filter(n -> n.startsWith(SHARDING_NODE)).toList();
        boolean ownEach = perNode.size() == route.units().size();
        List<String> notes = new ArrayList<>();
        for (String note : route.notes()) {
            if (!ownEach || !note.startsWith(SHARDING_NODE)) {
                notes.add(note);
            }
        }
        if (ownEach) {
            notes.add(0, perNode.get(i));
        }
        return notes;
    }
}
