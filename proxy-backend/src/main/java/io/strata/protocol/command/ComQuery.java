package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query.html">COM_QUERY</a>.
 *
 * @param payload the whole command, command byte at its reader index; not retained (valid while its frame is), and
 *                what a backend is sent, untouched
 * @param sql     the statement text decoded as UTF-8, for the rules and local answers (the backend gets the bytes)
 */
public record ComQuery(ByteBuf payload, String sql) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_QUERY;
    }
}
