package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * A command Strata does not serve: a byte no command has, or one of the commands a proxy has no business relaying
 * (COM_SLEEP, COM_BINLOG_DUMP, COM_SHUTDOWN...). The rest of the payload is not read.
 *
 * @param code the command byte, 0 to 255
 */
public record UnknownCommand(int code) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.of(code);
    }

    /** The command as ER_UNKNOWN_COM_ERROR names it: its type's name, or the byte in hex when it names none. */
    public String name() {
        CommandType type = type();
        return type == CommandType.UNKNOWN ? "0x" + Integer.toHexString(code) : type.name();
    }
}
