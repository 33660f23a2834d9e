package io.strata.rule.sharding;

import io.strata.rule.sql.parser.Names;
import io.strata.rule.sql.parser.Condition;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.StatementValues;
import io.strata.rule.sql.parser.Value;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a statement's WHERE as the sharding conditions of one table: an OR of AND branches of comparisons of its
 * sharding columns with values ({@code =}, IN, BETWEEN, {@code < <= > >=}). Whatever else a branch holds (a function,
 * LIKE, a column of another table, an unreadable value) constrains nothing, so the branch reaches every node it
 * cannot rule out: never fewer nodes than the rows may be on.
 */
final class ShardingConditionReader {

    /** Beyond this many OR branches the conditions are not worth expanding: every node. */
    private static final int MAX_BRANCHES = 64;
    /** Shapes of statement whose conditions are kept read; past it the cache starts again. */
    private static final int MAX_SHAPES = 4096;

    /** A comparison of a sharding column with values, each known or a parameter's (bound per execution). */
    private record Atom(String column, Condition.Op op, List<Value> values) {
    }

    private record Shape(Statement ast, ShardedTable table) {
    }

    /**
     * The conditions of each statement shape and table, read once: a statement is parsed once per text (or, for
     * text statements, per normalized shape), so its WHERE need not be walked again for each execution; only the
     * parameters' values change.
     */
    private final Map<Shape, List<List<Atom>>> shapes = new ConcurrentHashMap<>();

    /** The OR branches of {@code table}'s conditions, {@code ?} read as {@code params}' values. */
    List<ShardingConditions> branches(ParsedStatement parsed, List<Object> params, ShardedTable table,
                                      List<ShardedTable> named) {
        List<List<Atom>> dnf = parsed.ast() == null ? read(parsed, table, named)
                : shapes.get(new Shape(parsed.ast(), table));
        if (dnf == null) {
            if (shapes.size() >= MAX_SHAPES) {
                shapes.clear();
            }
            dnf = read(parsed, table, named);
            shapes.put(new Shape(parsed.ast(), table), dnf);
        }
        return conditions(dnf, params);
    }

    /**
     * The OR branches of the conditions {@code where} (a query block's WHERE) puts on one mention of {@code table}:
     * columns qualified with {@code qualifier}, or unqualified where the block names {@code table} {@code alone}.
     */
    List<ShardingConditions> branches(Condition where, ShardedTable table, String qualifier, boolean alone,
                                      List<Object> params) {
        return conditions(where == null ? List.of(List.of()) : dnf(where, table, Set.of(qualifier), alone),
                params);
    }

    /** Each branch's comparisons with {@code ?} read as {@code params}' values. */
    private static List<ShardingConditions> conditions(List<List<Atom>> dnf, List<Object> params) {
        List<ShardingConditions> branches = new ArrayList<>(dnf.size());
        for (List<Atom> branch : dnf) {
            ShardingConditions conditions = ShardingConditions.none();
            for (Atom atom : branch) {
                List<Comparable<?>> values = bind(atom.values(), params);
                if (values == null) {
                    continue; // a value sharding cannot compare: this comparison constrains nothing
                }
                conditions = switch (atom.op()) {
                    case EQ -> conditions.withValue(atom.column(), values.get(0));
                    case IN -> conditions.withValues(atom.column(), values);
                    case BETWEEN -> conditions.withRange(atom.column(),
                            ShardingRange.between(values.get(0), values.get(1)));
                    case LT -> conditions.withRange(atom.column(), ShardingRange.lessThan(values.get(0)));
                    case LE -> conditions.withRange(atom.column(), ShardingRange.atMost(values.get(0)));
                    case GT -> conditions.withRange(atom.column(), ShardingRange.greaterThan(values.get(0)));
                    case GE -> conditions.withRange(atom.column(), ShardingRange.atLeast(values.get(0)));
                    default -> conditions;
                };
            }
            branches.add(conditions);
        }
        return branches;
    }

    /** The statement's WHERE as comparisons of {@code table}'s sharding columns, parameters left unbound. */
    private static List<List<Atom>> read(ParsedStatement parsed, ShardedTable table, List<ShardedTable> named) {
        Condition where = StatementValues.where(parsed, List.of());
        if (where == null) {
            return List.of(List.of());
        }
        return dnf(where, table, qualifiers(parsed, table), named.size() == 1);
    }

    /** The values an execution gives the atom, or null when one is not a value sharding can compare. */
    private static List<Comparable<?>> bind(List<Value> values, List<Object> params) {
        List<Comparable<?>> bound = new ArrayList<>(values.size());
        for (Value value : values) {
            Value known = value instanceof Value.Unbound unbound && unbound.index() <= params.size()
                    ? new Value.Known(params.get(unbound.index() - 1)) : value;
            Comparable<?> comparable = comparable(known);
            if (comparable == null) {
                return null;
            }
            bound.add(comparable);
        }
        return bound;
    }

    private static List<List<Atom>> dnf(Condition condition, ShardedTable table, Set<String> qualifiers,
                                        boolean only) {
        return switch (condition) {
            case Condition.Or or -> {
                List<List<Atom>> all = new ArrayList<>();
                for (Condition part : or.parts()) {
                    all.addAll(dnf(part, table, qualifiers, only));
                }
                yield all.size() > MAX_BRANCHES ? List.of(List.of()) : all;
            }
            case Condition.And and -> {
                List<List<Atom>> product = List.of(List.of());
                for (Condition part : and.parts()) {
                    List<List<Atom>> next = new ArrayList<>();
                    for (List<Atom> left : product) {
                        for (List<Atom> right : dnf(part, table, qualifiers, only)) {
                            List<Atom> both = new ArrayList<>(left);
                            both.addAll(right);
                            next.add(both);
                        }
                    }
                    product = next.size() > MAX_BRANCHES ? List.of(List.of()) : next;
                }
                yield product;
            }
            case Condition.Compare compare -> {
                Atom atom = atom(compare, table, qualifiers, only);
                yield List.of(atom == null ? List.of() : List.of(atom));
            }
            case Condition.Opaque ignored -> List.of(List.of());
        };
    }

    private static Atom atom(Condition.Compare compare, ShardedTable table, Set<String> qualifiers, boolean only) {
        String column = compare.column().toLowerCase(Locale.ROOT);
        if (!table.shardingColumns().contains(column) || compare.op() == Condition.Op.LIKE) {
            return null;
        }
        if (compare.table() == null ? !only : !qualifiers.contains(compare.table().toLowerCase(Locale.ROOT))) {
            return null; // unqualified in a join, or another table's column: says nothing of this one
        }
        for (Value value : compare.values()) {
            if (!(value instanceof Value.Unbound) && comparable(value) == null) {
                return null;
            }
        }
        return new Atom(column, compare.op(), List.copyOf(compare.values()));
    }

    /** A value sharding can compare, or null (NULL, bytes, unread): no constraint. */
    static Comparable<?> comparable(Value value) {
        if (!(value instanceof Value.Known known)) {
            return null;
        }
        return switch (known.value()) {
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case BigInteger b -> b;
            case BigDecimal d -> d;
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> BigDecimal.valueOf(f);
            case String s -> s;
            case java.time.LocalDate d -> d.atStartOfDay();
            case java.time.LocalDateTime t -> t;
            case null, default -> null;
        };
    }

    /** The names a column of {@code table} may be qualified with: its own name and its aliases. */
    private static Set<String> qualifiers(ParsedStatement parsed, ShardedTable table) {
        Set<String> names = new HashSet<>();
        names.add(table.logicalName().toLowerCase(Locale.ROOT));
        List<FromItem> from = new ArrayList<>();
        switch (parsed.ast()) {
            case PlainSelect select -> {
                from.add(select.getFromItem());
                if (select.getJoins() != null) {
                    select.getJoins().stream().map(Join::getFromItem).forEach(from::add);
                }
            }
            case net.sf.jsqlparser.statement.update.Update update -> from.add(update.getTable());
            case net.sf.jsqlparser.statement.delete.Delete delete -> from.add(delete.getTable());
            case null, default -> { }
        }
        for (FromItem item : from) {
            if (item instanceof Table t && t.getName() != null && Names.unquote(t.getName()).equalsIgnoreCase(table.logicalName())
                    && t.getAlias() != null) {
                names.add(Names.unquote(t.getAlias().getName()).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

}
