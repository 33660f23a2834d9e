package io.strata.rule;

import java.util.List;

/**
 * What a query rule asks of a statement besides where it runs: a time limit, copies on other data sources, and the
 * text it runs as. It rides on the route through the rest of the chain, whichever rule makes the final route.
 *
 * @param timeoutMillis the statement is killed on its backend after this long (0: no limit of Strata's)
 * @param mirrors       data sources where a copy of the statement runs, its answer discarded
 * @param rewritten     the statement's text after a rewrite, which the later rules read, or null when unchanged
 * @param rules         the query rules that matched, in order (SHOW STRATA ROUTE)
 */
public record Steering(long timeoutMillis, List<String> mirrors, String rewritten, List<String> rules) {

    public static final Steering NONE = new Steering(0, List.of(), null, List.of());

    public Steering {
        mirrors = List.copyOf(mirrors);
        rules = List.copyOf(rules);
    }
}
