package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.rule.QueryMerge.Having;
import io.strata.rule.QueryMerge.Operand;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Keeps the rows that meet a HAVING condition, evaluated as MySQL does: a comparison with NULL is unknown, AND,
 * OR and NOT follow three-valued logic, and only a true condition keeps the row. Numbers compare by value (a
 * string against a number as the number it begins with), dates and times by their fields, strings by their bytes.
 */
final class HavingFilter implements RowStream {

    private static final Set<String> OPERATORS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");

    private final RowStream source;
    private final Having condition;

    HavingFilter(RowStream source, Having condition) {
        this.source = source;
        this.condition = condition;
        check(condition);
    }

    @Override
    public MergeRow next() throws InterruptedException {
        for (MergeRow row = source.next(); row != null; row = source.next()) {
            if (evaluate(condition, row) == Boolean.TRUE) {
                return row;
            }
            row.release();
        }
        return null;
    }

    @Override
    public void close() {
        source.close();
    }

    /** TRUE, FALSE, or null for unknown. */
    static Boolean evaluate(Having condition, MergeRow row) {
        return switch (condition) {
            case Having.And and -> {
                Boolean result = Boolean.TRUE;
                for (Having part : and.parts()) {
                    Boolean value = evaluate(part, row);
                    if (value == Boolean.FALSE) {
                        yield false;
                    }
                    result = value == null ? null : result;
                }
                yield result;
            }
            case Having.Or or -> {
                Boolean result = Boolean.FALSE;
                for (Having part : or.parts()) {
                    Boolean value = evaluate(part, row);
                    if (value == Boolean.TRUE) {
                        yield true;
                    }
                    result = value == null ? null : result;
                }
                yield result;
            }
            case Having.Not not -> {
                Boolean value = evaluate(not.part(), row);
                yield value == null ? null : !value;
            }
            case Having.Compare compare -> compare(compare, row);
        };
    }

    private static Boolean compare(Having.Compare compare, MergeRow row) {
        int column = compare.column();
        if (row.isNull(column)) {
            return null;
        }
        Integer c = switch (compare.right()) {
            case Operand.Column other -> row.isNull(other.column()) ? null
                    : compareColumns(row, column, other.column());
            case Operand.Literal literal -> literal.value() == null ? null : compareLiteral(row, column,
                    literal.value());
        };
        if (c == null) {
            return null;
        }
        return switch (compare.op()) {
            case "=" -> c == 0;
            case "<>", "!=" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
    }

    private static int compareColumns(MergeRow row, int left, int right) {
        ColumnKind leftKind = row.layout().kind(left);
        ColumnKind rightKind = row.layout().kind(right);
        if (leftKind == rightKind) {
            return Values.compare(row, left, row, right);
        }
        if (leftKind.numeric() || rightKind.numeric()) {
            return Values.decimal(row, left).compareTo(Values.decimal(row, right));
        }
        return Values.compareBytes(row.bytes(left), row.start(left), row.length(left), row.bytes(right),
                row.start(right), row.length(right));
    }

    private static int compareLiteral(MergeRow row, int column, Object literal) {
        ColumnKind kind = row.layout().kind(column);
        if (kind.numeric() || literal instanceof Number) {
            return Values.decimal(row, column).compareTo(number(literal));
        }
        byte[] text = literal.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuf literalBytes = Unpooled.wrappedBuffer(text);
        return switch (kind) {
            case DATE_TIME -> Long.compare(row.longValue(column), TextValues.dateTime(literalBytes, 0, text.length));
            case TIME -> Long.compare(row.longValue(column), TextValues.time(literalBytes, 0, text.length));
            default -> Values.compareBytes(row.bytes(column), row.start(column), row.length(column), literalBytes, 0,
                    text.length);
        };
    }

    private static BigDecimal number(Object literal) {
        return switch (literal) {
            case BigDecimal decimal -> decimal;
            case BigInteger integer -> new BigDecimal(integer);
            case Double d -> new BigDecimal(Double.toString(d));
            case Number number -> BigDecimal.valueOf(number.longValue());
            default -> Values.leadingNumber(literal.toString());
        };
    }

    /** A condition with an operator MySQL does not have is the rule's mistake: it fails at once. */
    private static void check(Having condition) {
        switch (condition) {
            case Having.And and -> and.parts().forEach(HavingFilter::check);
            case Having.Or or -> or.parts().forEach(HavingFilter::check);
            case Having.Not not -> check(not.part());
            case Having.Compare compare -> {
                if (!OPERATORS.contains(compare.op())) {
                    throw new IllegalArgumentException("HAVING compares with = <> < <= > >=, not " + compare.op());
                }
            }
        }
    }
}
