package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_send_long_data.html">
 * COM_STMT_SEND_LONG_DATA</a>: a piece of one parameter's value, sent before the execute; it has no response.
 *
 * @param payload     the whole command, command byte at its reader index; not retained (valid while its frame is)
 * @param statementId unsigned 4 bytes; {@link ComStmtExecute#LAST_PREPARED} for MariaDB's "the last prepared"
 * @param paramId     the parameter's index, from 0, unsigned 2 bytes
 * @param data        the bytes after the header, a slice of {@code payload} (possibly empty); not retained either
 */
public record ComStmtSendLongData(ByteBuf payload, long statementId, int paramId, ByteBuf data)
        implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_STMT_SEND_LONG_DATA;
    }
}
