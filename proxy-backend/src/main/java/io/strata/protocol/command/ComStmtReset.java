package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_reset.html">COM_STMT_RESET</a>:
 * drops the statement's long data and closes its cursor.
 *
 * @param payload     the whole command, command byte at its reader index; not retained (valid while its frame is)
 * @param statementId unsigned 4 bytes; {@link ComStmtExecute#LAST_PREPARED} for MariaDB's "the last prepared"
 */
public record ComStmtReset(ByteBuf payload, long statementId) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_STMT_RESET;
    }
}
