package io.strata.protocol;

/** The MySQL errors Strata itself raises: vendor code, SQLSTATE and message template. */
public enum ErrorCode {
    ACCESS_DENIED(1045, "28000", "Access denied for user '%s'@'%s' (using password: %s)"),
    DB_ACCESS_DENIED(1044, "42000", "Access denied for user '%s'@'%s' to database '%s'"),
    BAD_DB(1049, "42000", "Unknown database '%s'"),
    NO_DB(1046, "3D000", "No database selected"),
    UNKNOWN_COMMAND(1047, "08S01", "Unknown command %s"),
    HANDSHAKE(1043, "08S01", "Bad handshake: %s"),
    PACKET_TOO_LARGE(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes: %s"),
    /** A packet that would pass server.packetMemory (ER_OUT_OF_RESOURCES). */
    OUT_OF_PACKET_MEMORY(1041, "HY000", "Out of memory: packets still arriving from clients hold %s of the %s bytes "
            + "set aside for them (server.packetMemory); try again later"),
    NO_SUCH_THREAD(1094, "HY000", "Unknown thread id: %s"),
    KILL_DENIED(1095, "HY000", "You are not owner of thread %s"),
    QUERY_INTERRUPTED(1317, "70100", "Query execution was interrupted"),
    /** MySQL's answer when max_execution_time stops a statement. */
    QUERY_TIMEOUT(3024, "HY000", "Query execution was interrupted, maximum statement execution time exceeded"),
    /** MariaDB's answer when max_statement_time stops a statement. */
    STATEMENT_TIMEOUT(1969, "70100", "Query execution was interrupted (max_statement_time exceeded)"),
    ADMIN_ONLY(1227, "42000", "Access denied; you need (at least one of) the Strata admin privilege(s) for this "
            + "operation"),
    DEADLOCK(1213, "40001", "Deadlock found when trying to get lock; try restarting transaction (%s)"),
    UNKNOWN_STMT_HANDLER(1243, "HY000", "Unknown prepared statement handler (%s) given to %s"),
    WRONG_ARGUMENTS(1210, "HY000", "Incorrect arguments to %s"),
    NO_OPEN_CURSOR(1421, "HY000", "The statement (%s) has no open cursor."),
    /*
     * A backend's trouble is said with server codes: 2000-2999 are the client library's own (CR_*), which a server
     * never sends and the mariadb CLI prints as a malformed packet. These are MySQL's for a data source behind the
     * server (ER_CONNECT_TO_FOREIGN_DATA_SOURCE, ER_QUERY_ON_FOREIGN_DATA_SOURCE); the argument names the data
     * source and its logical database (DataSourceConfig.describe).
     */
    BACKEND_UNAVAILABLE(1429, "HY000", "Can't connect to backend %s: %s"),
    BACKEND_LOST(1430, "HY000", "Lost connection to backend %s during query: %s"),
    POOL_EXHAUSTED(1040, "08004", "Too many connections: %s"),
    TOO_MANY_CONNECTIONS(1040, "08004", "Too many connections"),
    USER_CONNECTIONS(1203, "42000", "User %s already has more than 'max_user_connections' active connections"),
    SHUTDOWN(1053, "08S01", "Server shutdown in progress"),
    /** MySQL 8's goodbye to a client closed for idling longer than wait_timeout. */
    IDLE_TIMEOUT(4031, "HY000", "The client was disconnected by the server because of inactivity (server.idleTimeout "
            + "%s ms)"),
    MALFORMED_PACKET(1835, "HY000", "Malformed communication packet: %s"),
    UNSUPPORTED(1235, "42000", "This version of Strata doesn't yet support '%s'"),
    /** A reload's configuration has a mistake: MySQL's ER_WRONG_ARGUMENTS-like class, said with the file's words. */
    CONFIG_REFUSED(1105, "HY000", "Configuration refused, the running one stays: %s"),
    /** ALTER STRATA DATA SOURCE naming what it cannot act on. */
    DATA_SOURCE_REFUSED(1210, "HY000", "Incorrect arguments to ALTER STRATA DATA SOURCE: %s"),
    INTERNAL(1105, "HY000", "Unknown error in Strata: %s");

    private final int code;
    private final String sqlState;
    private final String template;

    ErrorCode(int code, String sqlState, String template) {
        this.code = code;
        this.sqlState = sqlState;
        this.template = template;
    }

    public int code() {
        return code;
    }

    public String sqlState() {
        return sqlState;
    }

    public ErrPacket packet(Object... args) {
        return new ErrPacket(code, sqlState, String.format(template, args));
    }

    public MySQLException exception(Object... args) {
        return new MySQLException(packet(args));
    }
}
