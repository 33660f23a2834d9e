package io.strata.backend.relay;

/** The shapes a backend response can take, chosen by the command that was sent. */
public enum ResponseKind {
    /** COM_QUERY: OK, ERR, or result sets, repeated while SERVER_MORE_RESULTS_EXISTS is set. */
    QUERY,
    /** COM_FIELD_LIST: column definitions ended by EOF (or an OK with 0xFE header), or ERR. */
    FIELD_LIST,
    /** COM_STATISTICS: one string packet. */
    SINGLE_PACKET,
    /** COM_INIT_DB, COM_PING, COM_RESET_CONNECTION, COM_SET_OPTION, COM_STMT_RESET: one OK, EOF or ERR. */
    STATUS,
    /** COM_STMT_PREPARE: STMT_PREPARE_OK, then parameter and column definitions (each followed by EOF for classic
     * clients), or ERR. */
    PREPARE,
    /** COM_STMT_FETCH: binary rows of an open cursor ended by EOF (or an OK with 0xFE header), or ERR. */
    FETCH
}
