package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/** <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_quit.html">COM_QUIT</a>. */
public record ComQuit() implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_QUIT;
    }
}
