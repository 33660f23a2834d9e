package io.strata.config;

/**
 * A configuration file that cannot be used, told the way a person fixes it: which file, which key, what was
 * expected and what was found, e.g.
 * {@code conf/config-sbtest.yaml: dataSources.ds_0.url: expected a JDBC URL like jdbc:mariadb://host:3306/schema, got '42'}.
 */
public final class ConfigException extends RuntimeException {

    private final String file;
    private final String key;

    /**
     * @param key    dotted path of the offending key ({@code users[0].name}), or empty when the whole file is meant
     * @param actual the value found, or {@code null} when it is missing
     */
    public ConfigException(String file, String key, String expected, Object actual) {
        this(file, key, expected, actual, null);
    }

    public ConfigException(String file, String key, String expected, Object actual, Throwable cause) {
        super(message(file, key, expected, actual), cause);
        this.file = file;
        this.key = key == null ? "" : key;
    }

    public String file() {
        return file;
    }

    public String key() {
        return key;
    }

    private static String message(String file, String key, String expected, Object actual) {
        String where = key == null || key.isEmpty() ? file : file + ": " + key;
        String found = actual == null ? " but it is missing" : ", got '" + actual + "'";
        return where + ": expected " + expected + found;
    }
}
