package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_fetch.html">COM_STMT_FETCH</a>.
 *
 * @param payload     the whole command, command byte at its reader index; not retained (valid while its frame is)
 * @param statementId unsigned 4 bytes; {@link ComStmtExecute#LAST_PREPARED} for MariaDB's "the last prepared"
 * @param numRows     how many rows of the open cursor to send, unsigned 4 bytes
 */
public record ComStmtFetch(ByteBuf payload, long statementId, long numRows) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_STMT_FETCH;
    }
}
