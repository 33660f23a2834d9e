package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_set_option.html">COM_SET_OPTION</a>.
 *
 * @param option {@link #MULTI_STATEMENTS_ON} or {@link #MULTI_STATEMENTS_OFF}; any other value is kept as sent (the
 *               server refuses it with ER_UNKNOWN_COM_ERROR)
 */
public record ComSetOption(int option) implements ClientCommand {

    /** MYSQL_OPTION_MULTI_STATEMENTS_ON. */
    public static final int MULTI_STATEMENTS_ON = 0;
    /** MYSQL_OPTION_MULTI_STATEMENTS_OFF. */
    public static final int MULTI_STATEMENTS_OFF = 1;

    @Override
    public CommandType type() {
        return CommandType.COM_SET_OPTION;
    }
}
