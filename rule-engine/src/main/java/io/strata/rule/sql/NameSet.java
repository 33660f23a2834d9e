package io.strata.rule.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A few names (tables a rule lists), and whether a statement may name one: the cheap test a rule makes before it
 * parses, so that statements on other tables cost it next to nothing. It reads the statement's names as the
 * classifier's lexer would (quotes aside, without case) but in place, making no token.
 */
public final class NameSet {

    private final Set<String> names;
    /** The same names, compared in place with a statement's when they are few. */
    private final String[] few;
    private final SqlClassifier.NameTest isName = this::isName;
    /** The names' lengths, one bit each up to 63: a token of another length is no name, with no string made. */
    private final long lengths;

    public NameSet(List<String> names) {
        this.names = Set.copyOf(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList());
        long bits = 0;
        for (String name : this.names) {
            bits |= 1L << Math.min(name.length(), 63);
        }
        this.lengths = bits;
        this.few = this.names.size() <= 16 ? this.names.toArray(String[]::new) : null;
    }

    /** Whether {@code name} is one of the names (without case). */
    public boolean contains(String name) {
        return names.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the statement may name one of the names (a parse then says whether it does, and how). */
    public boolean mayBeIn(SqlStatementInfo info) {
        return SqlClassifier.anyName(info.sql(), isName);
    }

    /** Whether the text from {@code start} to {@code end} is one of the names, without case; no string is made. */
    private boolean isName(String sql, int start, int end) {
        int length = end - start;
        if ((lengths & 1L << Math.min(length, 63)) == 0) {
            return false;
        }
        if (few == null) {
            return contains(sql.substring(start, end));
        }
        for (String name : few) {
            if (name.length() == length && sql.regionMatches(true, start, name, 0, length)) {
                return true;
            }
        }
        return false;
    }
}
