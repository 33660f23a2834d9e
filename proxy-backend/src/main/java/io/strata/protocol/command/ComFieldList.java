package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_field_list.html">COM_FIELD_LIST</a>
 * (deprecated, still sent by some clients). The table and wildcard are the backend's to read: it is relayed whole.
 *
 * @param payload the whole command, command byte at its reader index; not retained (valid while its frame is)
 */
public record ComFieldList(ByteBuf payload) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_FIELD_LIST;
    }
}
