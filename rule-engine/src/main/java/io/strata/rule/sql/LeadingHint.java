package io.strata.rule.sql;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A hint comment at a statement's very start, in Strata's spelling {@code /* strata:shadow *}{@code /} (items
 * separated by commas, each {@code key} or {@code key=value}) or ShardingSphere's
 * {@code /* SHARDINGSPHERE_HINT: SHADOW=true *}{@code /} (items {@code key=value}). Keys compare without case. Any
 * other comment is no hint; MySQL's executable comments ({@code /*!}) and optimizer hints ({@code /*+}) never are.
 *
 * @param values the hint's items, keys lower-case; a bare key's value is {@code true}
 * @param end    where the statement after the hint begins
 */
public record LeadingHint(Map<String, String> values, int end) {

    private static final LeadingHint NONE = new LeadingHint(Map.of(), 0);
    private static final String STRATA = "strata:";
    private static final String SHARDINGSPHERE = "shardingsphere_hint:";

    public LeadingHint {
        values = Map.copyOf(values);
    }

    /** The hint {@code sql} begins with, or one with no values. Costs a character's look for a text without. */
    public static LeadingHint of(String sql) {
        if (sql.isEmpty() || sql.charAt(0) != '/' && !Character.isWhitespace(sql.charAt(0))) {
            return NONE;
        }
        MySqlLexer lexer = new MySqlLexer(sql).reportComments();
        if (!lexer.next() || lexer.kind() != TokenKind.COMMENT || sql.charAt(lexer.start()) != '/'
                || lexer.unterminated()) {
            return NONE; // no comment first, a line comment, an optimizer hint, an executable or open comment
        }
        String body = sql.substring(lexer.start() + 2, lexer.end() - 2).strip();
        String lower = body.toLowerCase(Locale.ROOT);
        String items;
        if (lower.startsWith(STRATA)) {
            items = body.substring(STRATA.length());
        } else if (lower.startsWith(SHARDINGSPHERE)) {
            items = body.substring(SHARDINGSPHERE.length());
        } else {
            return NONE;
        }
        return new LeadingHint(items(items), lexer.next() ? lexer.start() : sql.length());
    }

    /** Where the statement after a leading hint begins: 0 when {@code sql} has none. */
    public static int skip(String sql) {
        return sql.isEmpty() || sql.charAt(0) != '/' && !Character.isWhitespace(sql.charAt(0)) ? 0 : of(sql).end();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** Whether the hint says {@code key} (bare, or {@code =true} in any case). */
    public boolean says(String key) {
        return "true".equalsIgnoreCase(values.get(key.toLowerCase(Locale.ROOT)));
    }

    /** The hint's value of {@code key}, or null. */
    public String value(String key) {
        return values.get(key.toLowerCase(Locale.ROOT));
    }

    private static Map<String, String> items(String text) {
        Map<String, String> values = new HashMap<>();
        for (String item : text.split(",")) {
            String trimmed = item.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            String key = (equals < 0 ? trimmed : trimmed.substring(0, equals)).strip().toLowerCase(Locale.ROOT);
            values.put(key, equals < 0 ? "true" : trimmed.substring(equals + 1).strip());
        }
        return values;
    }
}
