package io.strata.kernel.slowlog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces the secrets of account statements with {@code '<secret>'}, as mysqld does before it logs one: the
 * password of {@code SET PASSWORD}, of {@code IDENTIFIED BY} / {@code IDENTIFIED WITH plugin BY|AS} / {@code
 * IDENTIFIED BY PASSWORD} in {@code CREATE USER}, {@code ALTER USER} and {@code GRANT}, MariaDB's {@code IDENTIFIED
 * VIA plugin USING}, the current password of {@code REPLACE}, and the replication and federated-server passwords
 * ({@code CHANGE MASTER / REPLICATION SOURCE}, {@code START SLAVE / REPLICA}, {@code CREATE / ALTER SERVER}).
 *
 * <p>Only statements of those kinds are touched, told by their first keyword (after any comments), so that a
 * {@code WHERE password = 'x'} or a string that merely reads "identified by" keeps its literal. Within one, quoted
 * strings, identifiers and comments are matched whole before any keyword, so a user name such as {@code 'a='} or a
 * comment such as {@code /* it's *}{@code /} cannot hide the secret that follows. Most statements mention neither
 * PASSWORD nor IDENTIFIED: a scan for those two words comes first and returns the text itself, with no regex run.
 */
final class PasswordMask {

    static final String SECRET = "'<secret>'";

    /** A string literal, either quote, with backslash escapes and doubled quotes inside. */
    private static final String QUOTED =
            "'(?:[^'\\\\]++|\\\\[\\s\\S]|'')*+'|\"(?:[^\"\\\\]++|\\\\[\\s\\S]|\"\")*+\"";
    /** What is matched whole so that no keyword is looked for inside it (not /*! ... *{@literal /}: that runs). */
    private static final String SKIP = QUOTED + "|`(?:[^`]++|``)*+`|/\\*(?!!)[\\s\\S]*?\\*/|#[^\\n]*+|--(?=\\s)[^\\n]*+";
    private static final String NAME = "(?:\\w++|`(?:[^`]++|``)*+`|" + QUOTED + ")";

    private static final Pattern KIND = Pattern.compile(
            "(?:\\s++|/\\*(?!!)[\\s\\S]*?\\*/|/\\*!\\d*+|#[^\\n]*+\\n?|--(?=\\s)[^\\n]*+\\n?)*+(?:"
                    + "(?<account>CREATE\\s+(?:OR\\s+REPLACE\\s+)?USER|ALTER\\s+USER|GRANT)"
                    + "|(?<setPassword>SET\\s+PASSWORD)"
                    + "|(?<replication>CHANGE\\s+(?:MASTER|REPLICATION\\s+SOURCE)|START\\s+(?:SLAVE|REPLICA))"
                    + "|(?<server>(?:CREATE|ALTER)\\s+SERVER))\\b",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern ACCOUNT = secrets(
            "\\bIDENTIFIED\\s+BY\\s+(?:PASSWORD\\s*+\\(?\\s*)?"
                    + "|\\b(?:IDENTIFIED\\s+(?:WITH|VIA)|OR)\\s+" + NAME
                    + "\\s+(?:BY|AS|USING)\\s+(?:PASSWORD\\s*\\(\\s*)?"
                    + "|\\bREPLACE\\s+");
    /**
     * SET PASSWORD: every string after its {@code =} is the password or a part of it, also in a statement the server
     * will refuse ({@code = PASSWORD 'x'}, strings side by side), which reaches the log all the same.
     */
    private static final Pattern SET_PASSWORD = Pattern.compile(SKIP + "|(?<equals>=)", Pattern.CASE_INSENSITIVE);
    private static final Pattern REPLICATION = secrets("\\b(?:MASTER_|SOURCE_)?PASSWORD\\s*=\\s*");
    private static final Pattern SERVER = secrets("\\bPASSWORD\\s+");

    private PasswordMask() {
    }

    /** A statement's secret, of the kind after {@code prefix}, or anything matched whole to be passed over. */
    private static Pattern secrets(String prefix) {
        return Pattern.compile(SKIP + "|(?:" + prefix + ")(?<secret>" + QUOTED + ")", Pattern.CASE_INSENSITIVE);
    }

    /** The statement with its secrets masked; the same instance when it has none. */
    static String masked(String sql) {
        if (sql == null || !mentionsPassword(sql)) {
            return sql;
        }
        Matcher kind = KIND.matcher(sql);
        if (!kind.lookingAt()) {
            return sql;
        }
        if (kind.group("setPassword") != null) {
            return replaceSecrets(sql, SET_PASSWORD.matcher(sql), true);
        }
        Pattern secrets = kind.group("account") != null ? ACCOUNT
                : kind.group("replication") != null ? REPLICATION
                : SERVER;
        return replaceSecrets(sql, secrets.matcher(sql), false);
    }

    /**
     * @param afterEquals whether every string after an {@code equals} group is a secret (SET PASSWORD), rather than
     *                    each {@code secret} group
     */
    private static String replaceSecrets(String sql, Matcher matcher, boolean afterEquals) {
        StringBuilder out = null;
        int copied = 0;
        boolean pastEquals = false;
        while (matcher.find()) {
            int start;
            int end;
            if (afterEquals) {
                pastEquals |= matcher.start("equals") >= 0;
                boolean string = sql.charAt(matcher.start()) == '\'' || sql.charAt(matcher.start()) == '"';
                start = pastEquals && string ? matcher.start() : -1;
                end = matcher.end();
            } else {
                start = matcher.start("secret");
                end = matcher.end("secret");
            }
            if (start < 0) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length());
            }
            out.append(sql, copied, start).append(SECRET);
            copied = end;
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** Whether PASSWORD or IDENTIFIED occurs anywhere, any case: one pass, no allocation. */
    static boolean mentionsPassword(String sql) {
        int last = sql.length() - "PASSWORD".length();
        for (int i = 0; i <= last; i++) {
            char c = sql.charAt(i);
            if ((c == 'P' || c == 'p') && sql.regionMatches(true, i, "PASSWORD", 0, 8)
                    || (c == 'I' || c == 'i') && sql.regionMatches(true, i, "IDENTIFIED", 0, 10)) {
                return true;
            }
        }
        return false;
    }
}
