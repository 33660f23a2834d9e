package io.strata.rule.sharding;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Expands {@code actualDataNodes} as ShardingSphere does: comma-separated items (commas inside {@code ${...}} do not
 * separate), each {@code ${...}} a range ({@code 0..3}, {@code 0..<4}), a list ({@code ['a', 'b']}) or one value;
 * several in one item give their cartesian product, the first varying slowest:
 * {@code ds_${0..1}.t_${0..1}} is ds_0.t_0, ds_0.t_1, ds_1.t_0, ds_1.t_1. A leading {@code <GROOVY>} is
 * ShardingSphere's default and changes nothing; {@code <LITERAL>} takes the items as written.
 */
final class DataNodesExpression {

    /** Beyond this many names the configuration is surely a typo (and would take the memory of the proxy). */
    static final int MAX_NAMES = 100_000;

    private DataNodesExpression() {
    }

    /** The names, in order. @throws ExpressionException with the position of what cannot be read */
    static List<String> expand(String text) {
        if (text.startsWith("<LITERAL>")) {
            return literal(text.substring("<LITERAL>".length()));
        }
        String groovy = text.startsWith("<GROOVY>") ? text.substring("<GROOVY>".length()) : text;
        if (groovy.startsWith("<")) {
            throw new ExpressionException("only the <GROOVY> and <LITERAL> expression types are supported", 0);
        }
        int offset = text.length() - groovy.length();
        List<String> names = new ArrayList<>();
        for (int[] item : items(groovy)) {
            names.addAll(expandItem(text, offset + item[0], offset + item[1]));
            if (names.size() > MAX_NAMES) {
                throw new ExpressionException("more than " + MAX_NAMES + " data nodes", offset + item[0]);
            }
        }
        return names;
    }

    private static List<String> literal(String text) {
        List<String> names = new ArrayList<>();
        for (String item : text.split(",")) {
            names.add(item.strip());
        }
        return names;
    }

    /** [start, end) of each comma-separated item, ignoring commas inside ${...}. */
    private static List<int[]> items(String text) {
        List<int[]> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                items.add(new int[] {start, i});
                start = i + 1;
            }
        }
        items.add(new int[] {start, text.length()});
        return items;
    }

    private static List<String> expandItem(String text, int start, int end) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (start == end) {
            throw new ExpressionException("an empty item between commas", start);
        }
        // Parsed on a copy blanked outside the item, so that positions still index into the whole text.
        String blanked = " ".repeat(start) + text.substring(start, end);
        InlineExpression item = InlineExpression.parse(blanked, true);
        if (!item.variables().isEmpty()) {
            throw new ExpressionException("a data node cannot depend on a column (" + item.variables() + ")", start);
        }
        List<String> names = List.of("");
        for (Object part : item.parts()) {
            names = product(names, values(part));
            if (names.size() > MAX_NAMES) {
                throw new ExpressionException("more than " + MAX_NAMES + " data nodes", start);
            }
        }
        return names.stream().map(String::strip).toList();
    }

    private static List<String> values(Object part) {
        if (part instanceof String literal) {
            return List.of(literal);
        }
        Object value = ExpressionEvaluator.evaluate((Expr) part, Map.of());
        List<?> values = value instanceof List<?> list ? list : List.of(value);
        LinkedHashSet<String> printed = new LinkedHashSet<>();
        for (Object each : values) {
            printed.add(InlineExpression.print(each));
        }
        return List.copyOf(printed);
    }

    private static List<String> product(List<String> prefixes, List<String> suffixes) {
        List<String> names = new ArrayList<>(prefixes.size() * suffixes.size());
        for (String prefix : prefixes) {
            for (String suffix : suffixes) {
                names.add(prefix + suffix);
            }
        }
        return names;
    }
}
