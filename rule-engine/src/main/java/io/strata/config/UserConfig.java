package io.strata.config;

import java.util.List;
import java.util.Objects;

/**
 * A client account of the proxy.
 *
 * @param databases logical databases this user may use; {@value #ALL_DATABASES} grants all of them
 */
public record UserConfig(String name, String password, List<String> databases) {

    public static final String ALL_DATABASES = "*";

    public UserConfig {
        Objects.requireNonNull(name, "name");
        password = password == null ? "" : password;
        databases = List.copyOf(databases);
    }

    /** Case-sensitive, like database names on a Linux MySQL server. */
    public boolean mayUse(String databaseName) {
        return databases.contains(ALL_DATABASES) || databases.contains(databaseName);
    }

    // Records print every component; configs end up in logs, passwords must not.
    @Override
    public String toString() {
        return "UserConfig[name=" + name + ", password=****, databases=" + databases + "]";
    }
}
