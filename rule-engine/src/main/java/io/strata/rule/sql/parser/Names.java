package io.strata.rule.sql.parser;

/** Names as the server reads them, for the rules that compare what a statement names. */
public final class Names {

    private Names() {
    }

    /** {@code `a``b`} is {@code a`b}; a name without backquotes (or double quotes) stays as written; null stays null. */
    public static String unquote(String name) {
        return SqlTokens.unquote(name);
    }
}
