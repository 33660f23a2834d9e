package io.strata.config;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A client account of the proxy.
 *
 * @param password  the password in clear, or its mysql_native_password hash: {@code *} and 40 hex digits, as
 *                  MariaDB's {@code SELECT PASSWORD('...')} and {@code mysql.user} show it
 * @param databases logical databases this user may use; {@value #ALL_DATABASES} grants all of them
 * @param admin     a Strata administrator: may run SHOW STRATA ..., FLUSH STRATA ..., see every session in SHOW
 *                  PROCESSLIST and KILL any of them (as MySQL's PROCESS and CONNECTION_ADMIN privileges)
 * @param maxConnections the user's sessions at once, 0 for no limit of its own (MySQL's max_user_connections)
 */
public record UserConfig(String name, String password, List<String> databases, boolean admin, int maxConnections) {

    public static final String ALL_DATABASES = "*";
    private static final Pattern NATIVE_HASH = Pattern.compile("\\*[0-9A-Fa-f]{40}");
    /** A {@code *} and hex digits of the wrong count, or 40 characters that are not all hex: a hash mistyped. */
    private static final Pattern NEAR_HASH = Pattern.compile("\\*([0-9A-Fa-f]{30,50}|.{40})");

    public UserConfig {
        Objects.requireNonNull(name, "name");
        password = password == null ? "" : password;
        databases = List.copyOf(databases);
    }

    /** A user who is no administrator. */
    public UserConfig(String name, String password, List<String> databases) {
        this(name, password, databases, false);
    }

    /** A user without a connection limit of its own. */
    public UserConfig(String name, String password, List<String> databases, boolean admin) {
        this(name, password, databases, admin, 0);
    }

    /** The password is stored as its hash ({@code *} + hex of SHA1(SHA1(password))), not in clear. */
    public boolean passwordHashed() {
        return NATIVE_HASH.matcher(password).matches();
    }

    /**
     * The password is taken in clear but looks like a hash copied with a character too many, too few or wrong: worth
     * a warning at start, as every login of the user would fail with 1045 and nothing else would tell why.
     */
    public boolean passwordLooksLikeMistypedHash() {
        return !passwordHashed() && NEAR_HASH.matcher(password).matches();
    }

    /** Case-sensitive, like database names on a Linux MySQL server. */
    public boolean mayUse(String databaseName) {
        return databases.contains(ALL_DATABASES) || databases.contains(databaseName);
    }

    // Records print every component; configs end up in logs, passwords must not.
    @Override
    public String toString() {
        return "UserConfig[name=" + name + ", password=****, databases=" + databases + ", admin=" + admin
                + ", maxConnections=" + maxConnections + "]";
    }
}
