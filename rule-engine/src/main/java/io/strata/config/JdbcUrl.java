package io.strata.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The parts of a single-host MariaDB or MySQL JDBC URL that Strata needs to reach the server itself. */
record JdbcUrl(String host, int port, String schema) {

    static final int DEFAULT_PORT = 3306;

    // One host only: failover and load-balancing URLs would hide which server a data source really is.
    private static final Pattern URL = Pattern.compile(
            "jdbc:(?:mariadb|mysql)://(?<host>\\[[0-9A-Fa-f:.]+]|[^/:?#,@\\[\\]]+)"
                    + "(?::(?<port>\\d{1,5}))?(?:/(?<schema>[^/?#]*))?(?:\\?.*)?");

    static JdbcUrl parse(String url) {
        Matcher matcher = URL.matcher(url);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(
                    "not a single-host JDBC URL like jdbc:mariadb://host:3306/schema: '" + url + "'");
        }
        return new JdbcUrl(host(matcher.group("host")), port(url, matcher.group("port")),
                matcher.group("schema") == null ? "" : matcher.group("schema"));
    }

    // IPv6 literals are bracketed only inside the URL; sockets want the bare address.
    private static String host(String host) {
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    private static int port(String url, String port) {
        if (port == null) {
            return DEFAULT_PORT;
        }
        int value = Integer.parseInt(port);
        if (value < 1 || value > 65535) {
            throw new IllegalArgumentException("port " + value + " is not between 1 and 65535 in '" + url + "'");
        }
        return value;
    }
}
