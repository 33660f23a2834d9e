package io.strata.rule.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A few names (tables a rule lists), and whether a statement may name one: the cheap test a rule makes before it
 * parses, so that statements on other tables cost it next to nothing. It looks at the classifier's tokens (quotes
 * aside, without case), and scans the text only where the classifier kept no tokens (several statements, or one
 * very long).
 */
public final class NameSet {

    /** A run of name characters: what may be a name in a text, quoted or not. */
    private static final Pattern WORDS = Pattern.compile("[A-Za-z0-9_$\\x{80}-\\x{FFFF}]+");

    private final Set<String> names;
    /** The names' lengths, one bit each up to 63: a token of another length is no name, with no string made. */
    private final long lengths;

    public NameSet(List<String> names) {
        this.names = Set.copyOf(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList());
        long bits = 0;
        for (String name : this.names) {
            bits |= 1L << Math.min(name.length(), 63);
        }
        this.lengths = bits;
    }

    /** Whether {@code name} is one of the names (without case). */
    public boolean contains(String name) {
        return names.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the statement may name one of the names (a parse then says whether it does, and how). */
    public boolean mayBeIn(SqlStatementInfo info) {
        if (info.statementTokens() == null) {
            return WORDS.matcher(info.sql()).results().anyMatch(word -> contains(word.group()));
        }
        for (String token : info.statementTokens()) {
            boolean quoted = token.length() > 2 && token.charAt(0) == '`';
            int length = quoted ? token.length() - 2 : token.length();
            if ((lengths & 1L << Math.min(length, 63)) != 0
                    && contains(quoted ? token.substring(1, token.length() - 1) : token)) {
                return true;
            }
        }
        return false;
    }
}
