package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_statistics.html">COM_STATISTICS</a>,
 * relayed whole.
 *
 * @param payload the whole command (its one byte); not retained (valid while its frame is)
 */
public record ComStatistics(ByteBuf payload) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_STATISTICS;
    }
}
