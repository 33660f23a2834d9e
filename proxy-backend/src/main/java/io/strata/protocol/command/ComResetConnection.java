package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_reset_connection.html">
 * COM_RESET_CONNECTION</a>.
 */
public record ComResetConnection() implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_RESET_CONNECTION;
    }
}
