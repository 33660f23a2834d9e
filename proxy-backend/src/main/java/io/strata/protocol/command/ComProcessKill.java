package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_process_kill.html">
 * COM_PROCESS_KILL</a>: KILL CONNECTION of one connection.
 *
 * @param connectionId unsigned 4 bytes, as the greeting gave it (0 to 2^32-1)
 */
public record ComProcessKill(long connectionId) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_PROCESS_KILL;
    }
}
