package io.strata.rule.sql;

import java.util.regex.Pattern;

/** SQL's LIKE patterns, for what Strata answers or lists itself (SHOW ... LIKE, JDBC metadata patterns). */
public final class SqlLike {

    private SqlLike() {
    }

    /** {@code %} any run, {@code _} one character, a backslash escapes the next; case-insensitive, as MySQL's. */
    public static Pattern pattern(String like) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == '\\' && i + 1 < like.length()) {
                regex.append(Pattern.quote(String.valueOf(like.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }
}
