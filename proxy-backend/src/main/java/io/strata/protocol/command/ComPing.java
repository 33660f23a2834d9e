package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/** <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_ping.html">COM_PING</a>. */
public record ComPing() implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_PING;
    }
}
