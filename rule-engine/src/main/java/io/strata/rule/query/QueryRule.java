package io.strata.rule.query;

import io.strata.config.ClientAddress;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.DigestText;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One query rule: its matchers (every one given must hold) and its actions.
 *
 * @param user          the session's user, or null for any
 * @param schema        the logical database the statement runs in, or null for any
 * @param clientAddress the session's client address or CIDR block, or null for any
 * @param digest        the statement's exact digest text, or null
 * @param digestPattern a regex found in the digest text, or null
 * @param pattern       a regex found in the statement as sent (after an earlier rule's rewrite), or null
 * @param negate        the statement matchers (digest, digestPattern, pattern) match what they would not
 * @param dataSource    where the statement runs (a data source or read/write group), or null
 * @param error         the error the client gets in place of running anything, or null
 * @param timeoutMillis the statement is killed on its backend after this long; 0 for none
 * @param rewrite       the statement's text rewritten before it runs, or null
 * @param mirror        a data source where a copy runs, its answer discarded; or null
 * @param continues     later rules are tried too ({@code continue: true}); else this match decides
 */
record QueryRule(String name, String user, String schema, ClientAddress clientAddress, String digest,
                 Regex digestPattern, Regex pattern, boolean negate, String dataSource, Error error,
                 long timeoutMillis, Rewrite rewrite, String mirror, boolean continues) {

    /** An error action: MySQL's code, SQL state and message. */
    record Error(int code, String sqlState, String message) {
    }

    /** A rewrite action: {@link java.util.regex.Matcher#replaceAll} of the pattern in the statement's text. */
    record Rewrite(Pattern pattern, String replacement) {

        String apply(String sql) {
            return pattern.matcher(sql).replaceAll(replacement);
        }
    }

    /** Whether the rule has a statement matcher, which reads the text (the others read only the session). */
    boolean readsStatement() {
        return digest != null || digestPattern != null || pattern != null;
    }

    /**
     * @param sql    the statement's text as it runs now (an earlier rule may have rewritten it)
     * @param digest the digest text of {@code sql}, made when a rule first asks
     */
    boolean matches(StatementContext context, String sql, DigestOf digest) {
        SessionRouteState session = context.session();
        if (user != null && !user.equals(session.user())
                || schema != null && !schema.equals(context.database())
                || clientAddress != null && !clientAddress.matches(session.clientAddress())) {
            return false;
        }
        if (!readsStatement()) {
            return true;
        }
        boolean statement = (this.digest == null || this.digest.equals(digest.get()))
                && (digestPattern == null || digestPattern.found(digest.get()))
                && (pattern == null || pattern.found(sql));
        return statement != negate;
    }

    /**
     * A matcher's regex, found anywhere in the text. One anchored at the start ({@code ^...}, after inline flags
     * without {@code m}) is tried there only: {@code find()} would try it at every position, each failing at once.
     */
    record Regex(Pattern pattern, boolean anchored) {

        static Regex of(Pattern pattern) {
            return new Regex(pattern, anchored(pattern.pattern()));
        }

        boolean found(String text) {
            return anchored ? pattern.matcher(text).lookingAt() : pattern.matcher(text).find();
        }

        static boolean anchored(String regex) {
            int at = 0;
            while (regex.startsWith("(?", at) && regex.indexOf(')', at) > 0) {
                String flags = regex.substring(at + 2, regex.indexOf(')', at));
                if (flags.isEmpty() || !flags.chars().allMatch(Character::isLetter) || flags.indexOf('m') >= 0) {
                    return false; // a group, not flags; or multiline, where ^ matches after every line break
                }
                at = regex.indexOf(')', at) + 1;
            }
            return regex.startsWith("^", at);
        }

        @Override
        public String toString() {
            return pattern.pattern();
        }
    }

    /** The digest text of the statement being matched, made once for all rules. */
    static final class DigestOf {
        private final StatementContext context;
        private final String sql;
        private String digest;

        DigestOf(StatementContext context, String sql) {
            this.context = context;
            this.sql = sql;
        }

        String get() {
            if (digest == null) {
                // the session keeps the digest of the client's own text for the statistics too
                digest = sql == context.statement().sql() ? context.session().digest(context.statement())
                        : DigestText.of(sql);
            }
            return digest;
        }
    }

    /** What SHOW STRATA QUERY RULES shows of the rule's matchers. */
    String matchersText() {
        List<String> parts = new java.util.ArrayList<>();
        if (user != null) {
            parts.add("user=" + user);
        }
        if (schema != null) {
            parts.add("schema=" + schema);
        }
        if (clientAddress != null) {
            parts.add("clientAddress=" + clientAddress.written());
        }
        if (digest != null) {
            parts.add("digest=" + digest);
        }
        if (digestPattern != null) {
            parts.add("digestPattern=" + digestPattern);
        }
        if (pattern != null) {
            parts.add("pattern=" + pattern);
        }
        if (negate) {
            parts.add("negate");
        }
        return String.join(" ", parts);
    }

    /** What SHOW STRATA QUERY RULES shows of the rule's actions. */
    String actionsText() {
        List<String> parts = new java.util.ArrayList<>();
        if (dataSource != null) {
            parts.add("dataSource=" + dataSource);
        }
        if (error != null) {
            parts.add("error=" + error.code() + " " + error.message());
        }
        if (timeoutMillis > 0) {
            parts.add("timeout=" + timeoutMillis);
        }
        if (rewrite != null) {
            parts.add("rewrite=" + rewrite.pattern().pattern() + " -> " + rewrite.replacement());
        }
        if (mirror != null) {
            parts.add("mirror=" + mirror);
        }
        if (continues) {
            parts.add("continue");
        }
        return String.join(" ", parts);
    }
}
