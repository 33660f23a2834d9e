package io.strata.protocol;

/**
 * Capability flags of the connection phase, as on
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/group__group__cs__capabilities__flags.html">the
 * capabilities page</a>.
 */
public final class Capabilities {

    public static final int CLIENT_LONG_PASSWORD = 1;
    public static final int CLIENT_FOUND_ROWS = 1 << 1;
    public static final int CLIENT_LONG_FLAG = 1 << 2;
    public static final int CLIENT_CONNECT_WITH_DB = 1 << 3;
    public static final int CLIENT_NO_SCHEMA = 1 << 4;
    public static final int CLIENT_COMPRESS = 1 << 5;
    public static final int CLIENT_ODBC = 1 << 6;
    public static final int CLIENT_LOCAL_FILES = 1 << 7;
    public static final int CLIENT_IGNORE_SPACE = 1 << 8;
    public static final int CLIENT_PROTOCOL_41 = 1 << 9;
    public static final int CLIENT_INTERACTIVE = 1 << 10;
    public static final int CLIENT_SSL = 1 << 11;
    public static final int CLIENT_IGNORE_SIGPIPE = 1 << 12;
    public static final int CLIENT_TRANSACTIONS = 1 << 13;
    public static final int CLIENT_RESERVED = 1 << 14;
    public static final int CLIENT_SECURE_CONNECTION = 1 << 15;
    public static final int CLIENT_MULTI_STATEMENTS = 1 << 16;
    public static final int CLIENT_MULTI_RESULTS = 1 << 17;
    public static final int CLIENT_PS_MULTI_RESULTS = 1 << 18;
    public static final int CLIENT_PLUGIN_AUTH = 1 << 19;
    public static final int CLIENT_CONNECT_ATTRS = 1 << 20;
    public static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
    public static final int CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS = 1 << 22;
    public static final int CLIENT_SESSION_TRACK = 1 << 23;
    public static final int CLIENT_DEPRECATE_EOF = 1 << 24;
    /** MySQL 8.0.18's zstd compression; the response then ends with the client's zstd level. */
    public static final int CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1 << 26;

    /** What Strata offers clients (CLIENT_SSL is added when TLS is configured). */
    public static final int SERVER_DEFAULT = CLIENT_LONG_PASSWORD | CLIENT_FOUND_ROWS | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB | CLIENT_ODBC | CLIENT_IGNORE_SPACE | CLIENT_PROTOCOL_41 | CLIENT_INTERACTIVE
            | CLIENT_IGNORE_SIGPIPE | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_STATEMENTS
            | CLIENT_MULTI_RESULTS | CLIENT_PS_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_CONNECT_ATTRS
            | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_DEPRECATE_EOF | CLIENT_LOCAL_FILES | CLIENT_COMPRESS
            | CLIENT_ZSTD_COMPRESSION_ALGORITHM;

    /**
     * Client flags that change the bytes or semantics of what a server sends back (affected-rows counting, EOF vs OK
     * terminators, parsing of function names, whether LOAD DATA LOCAL may ask the client for its file). A backend
     * connection must have been opened with the same values as the client for its responses to be relayed unchanged,
     * so backend pools keep connections apart by these bits.
     */
    public static final int FLAVOR_MASK = CLIENT_FOUND_ROWS | CLIENT_DEPRECATE_EOF | CLIENT_IGNORE_SPACE
            | CLIENT_LOCAL_FILES;

    /**
     * MariaDB's extended capabilities travel in 4 bytes of their own (the handshake's reserved bytes) when the server
     * clears CLIENT_MYSQL (bit 0). Extended type info adds the real type (e.g. json) to column definitions.
     */
    public static final int MARIADB_CLIENT_EXTENDED_TYPE_INFO = 1 << 3;

    /**
     * A flavor bit of Strata's own (not a wire flag): the client asked for MariaDB's extended type info, so its
     * backend connection must ask for it too.
     */
    public static final int FLAVOR_EXTENDED_TYPE_INFO = 1 << 30;

    /** What Strata asks of a backend, before the flavor bits of the client it serves are added. */
    public static final int BACKEND_BASE = CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_CONNECT_WITH_DB
            | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_STATEMENTS
            | CLIENT_MULTI_RESULTS | CLIENT_PS_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
            | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_CONNECT_ATTRS;

    private Capabilities() {
    }

    public static boolean has(int caps, int flag) {
        return (caps & flag) != 0;
    }
}
