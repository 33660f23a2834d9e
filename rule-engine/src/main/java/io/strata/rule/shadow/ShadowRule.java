package io.strata.rule.shadow;

import io.strata.rule.DecoratingRule;
import io.strata.rule.RouteException;
import io.strata.rule.RuleBinding;
import io.strata.rule.StatementContext;
import io.strata.rule.shadow.ShadowAlgorithm.ColumnMatch;
import io.strata.rule.shadow.ShadowAlgorithm.Operation;
import io.strata.rule.sql.LeadingHint;
import io.strata.rule.sql.NameSet;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.Condition;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.SqlParser;
import io.strata.rule.sql.parser.StatementValues;
import io.strata.rule.sql.parser.TableName;
import io.strata.rule.sql.parser.Value;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SHADOW: a decorating rule that sends test traffic to a shadow data source and everything else to production, as
 * ShardingSphere's shadow databases. A statement is test traffic when it begins with the shadow hint, or when the
 * values a listed table's algorithms look at decide it (INSERT values of every row; {@code =}, {@code IN} and
 * {@code LIKE} conditions in UPDATE, DELETE and SELECT; literals and prepared-statement parameters alike). Where the
 * values do not decide one way (some rows match and some do not, a value is an expression, a condition is one of
 * several alternatives) the statement is refused rather than guessed: a statement that leaks either way is what
 * this rule exists to prevent. Statements that name no listed table are not parsed.
 */
public final class ShadowRule implements DecoratingRule {

    /** A production data source and its shadow (either may be a read/write group's name). */
    record Pair(String name, String production, String shadow) {
    }

    /** A listed table: the pairs it lives in, and its column algorithms. */
    record Table(String name, List<Pair> pairs, List<ColumnMatch> algorithms) {
    }

    /** What the values say. */
    private enum Verdict { NONE, PRODUCTION, SHADOW }

    private final List<Pair> pairs;
    private final Map<String, Table> tables;
    private final Map<String, Pair> byProduction = new HashMap<>();
    private final NameSet names;
    private final SqlParser parser;

    ShadowRule(List<Pair> pairs, Map<String, Table> tables) {
        this(pairs, tables, null);
    }

    private ShadowRule(List<Pair> pairs, Map<String, Table> tables, SqlParser parser) {
        this.pairs = List.copyOf(pairs);
        this.tables = Map.copyOf(tables);
        pairs.forEach(pair -> byProduction.put(pair.production(), pair));
        this.names = new NameSet(tables.values().stream().map(Table::name).toList());
        this.parser = parser;
    }

    @Override
    public DecoratingRule bind(RuleBinding binding) {
        return new ShadowRule(pairs, tables, binding.parser());
    }

    /** Before read/write splitting: a shadow pair may name groups, which that rule then places. */
    @Override
    public int order() {
        return 0;
    }

    @Override
    public Set<String> sameData(String dataSource) {
        return Set.of(); // production and shadow hold different data: nothing held on one stands for the other
    }

    @Override
    public Placement place(String dataSource, StatementContext context) {
        Pair pair = byProduction.get(dataSource);
        SqlStatementInfo info = context.statement();
        if (pair == null || info == null) {
            return null;
        }
        if (LeadingHint.of(info.sql()).says("shadow")) {
            return new Placement(pair.shadow(), false, "shadow: hint");
        }
        if (info.kind() == SqlKind.DDL || !names.mayBeIn(info)) {
            return null; // DDL is shadowed only when hinted; statements on other tables are production's
        }
        return decide(pair, info, context);
    }

    private Placement decide(Pair pair, SqlStatementInfo info, StatementContext context) {
        if (info.multiStatement()) {
            throw refused("Several statements in one query that name a shadow table: send them one by one, so "
                    + "each goes to its side");
        }
        ParsedStatement parsed = parser.parse(info.sql());
        if (!parsed.parsed()) {
            throw refused("Strata cannot read this statement, which names a shadow table, to tell test traffic "
                    + "from production: " + parsed.unparsedReason());
        }
        Operation operation = operation(parsed);
        if (operation == null) {
            return null;
        }
        Verdict verdict = Verdict.NONE;
        String decidedBy = null;
        List<Object> params = null;
        for (TableName named : parsed.tables()) {
            Table table = tables.get(named.name().toLowerCase(Locale.ROOT));
            if (table == null || !table.pairs().contains(pair)) {
                continue;
            }
            for (ColumnMatch algorithm : table.algorithms()) {
                if (algorithm.operation() != operation) {
                    continue;
                }
                params = params != null ? params : context.parameters().get();
                Verdict said = verdict(algorithm, parsed, operation, params);
                if (said != Verdict.NONE && verdict != Verdict.NONE && said != verdict) {
                    throw refused("The shadow algorithms disagree on this statement (" + decidedBy + " and "
                            + algorithm.name() + "): it would go to both sides");
                }
                if (said != Verdict.NONE) {
                    verdict = said;
                    decidedBy = algorithm.name();
                }
            }
        }
        return switch (verdict) {
            case SHADOW -> new Placement(pair.shadow(), false, "shadow: " + decidedBy);
            case PRODUCTION -> new Placement(pair.production(), false, "production: " + decidedBy);
            case NONE -> null;
        };
    }

    private static Operation operation(ParsedStatement parsed) {
        return switch (parsed.type()) {
            case INSERT, REPLACE -> Operation.INSERT;
            case UPDATE -> Operation.UPDATE;
            case DELETE -> Operation.DELETE;
            case SELECT -> Operation.SELECT;
            default -> null;
        };
    }

    private static Verdict verdict(ColumnMatch algorithm, ParsedStatement parsed, Operation operation,
                                   List<Object> params) {
        List<Value> values = operation == Operation.INSERT ? insertValues(algorithm, parsed, params)
                : conditionValues(algorithm, StatementValues.where(parsed, params));
        if (values.isEmpty()) {
            return Verdict.NONE;
        }
        if (values.stream().anyMatch(value -> value instanceof Value.Unbound)) {
            // a prepare: nothing runs yet (its answer comes from production), each execute decides with its values
            return Verdict.NONE;
        }
        int matching = 0;
        for (Value value : values) {
            if (value instanceof Value.Unreadable unreadable) {
                throw refused("The value of " + algorithm.column() + " is an expression Strata does not evaluate ("
                        + unreadable.expression() + "): it cannot tell whether this is test traffic");
            }
            matching += algorithm.matches(text(((Value.Known) value).value())) ? 1 : 0;
        }
        if (matching > 0 && matching < values.size()) {
            throw refused("Some values of " + algorithm.column() + " match " + algorithm.name() + " and some do "
                    + "not: the statement would be half test traffic. Send test and production rows apart");
        }
        return matching > 0 ? Verdict.SHADOW : Verdict.PRODUCTION;
    }

    /** Every row's value of the algorithm's column; none when the INSERT does not give it. */
    private static List<Value> insertValues(ColumnMatch algorithm, ParsedStatement parsed, List<Object> params) {
        StatementValues.Rows rows = StatementValues.insertRows(parsed, params);
        if (rows == null) {
            throw refused("An INSERT into a shadow table must name its columns and give VALUES or SET (not "
                    + "SELECT), so that Strata can read " + algorithm.column());
        }
        return rows.column(algorithm.column());
    }

    /**
     * The values the WHERE compares the algorithm's column with ({@code =}, {@code IN}, {@code LIKE}). A
     * comparison that is one alternative of an OR with conditions on other things cannot decide: refused.
     */
    private static List<Value> conditionValues(ColumnMatch algorithm, Condition where) {
        List<Value> values = new ArrayList<>();
        collect(algorithm, where, false, values);
        return values;
    }

    private static boolean collect(ColumnMatch algorithm, Condition condition, boolean inOr, List<Value> values) {
        switch (condition) {
            case null -> {
                return false;
            }
            case Condition.And and -> {
                boolean found = false;
                for (Condition part : and.parts()) {
                    found |= collect(algorithm, part, inOr, values);
                }
                return found;
            }
            case Condition.Or or -> {
                int relevant = 0;
                for (Condition part : or.parts()) {
                    relevant += collect(algorithm, part, true, values) ? 1 : 0;
                }
                if (relevant > 0 && relevant < or.parts().size()) {
                    throw refused("The condition on " + algorithm.column() + " is one of several alternatives "
                            + "(OR): the statement may reach rows either side. Write it without OR");
                }
                return relevant > 0;
            }
            case Condition.Compare compare -> {
                boolean relevant = compare.column().equalsIgnoreCase(algorithm.column())
                        && (compare.op() == Condition.Op.EQ || compare.op() == Condition.Op.IN
                        || compare.op() == Condition.Op.LIKE);
                if (relevant) {
                    values.addAll(compare.values());
                }
                return relevant;
            }
            case Condition.Opaque ignored -> {
                return false;
            }
        }
    }

    /** A value as the algorithms compare it: numbers in plain decimal, bytes as UTF-8 text, NULL as null. */
    private static String text(Object value) {
        return switch (value) {
            case null -> null;
            case BigDecimal decimal -> plain(decimal);
            case Double number when Double.isFinite(number) -> plain(BigDecimal.valueOf(number));
            case Float number when Float.isFinite(number) -> plain(new BigDecimal(number.toString()));
            case byte[] bytes -> new String(bytes, StandardCharsets.UTF_8);
            default -> value.toString();
        };
    }

    private static String plain(BigDecimal number) {
        return number.stripTrailingZeros().toPlainString();
    }

    private static RouteException refused(String message) {
        return new RouteException(1235, "42000", message);
    }
}
