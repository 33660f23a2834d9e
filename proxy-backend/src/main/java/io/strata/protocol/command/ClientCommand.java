package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * A command of the
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html">command phase</a>, as
 * {@link CommandDecoder#decode} reads it.
 * <p>
 * Records whose bytes go on to a backend keep the payload they were decoded from: that very buffer, neither retained
 * nor sliced (a slice per command was 40 of the 64 bytes the records first added to a COM_QUERY). They are valid only
 * while the frame they came from is; whoever keeps the bytes longer retains them ({@code retainedDuplicate()}, as a
 * relayed command is kept), and whoever reads them uses absolute gets or a duplicate, so the frame's indices stay.
 */
public sealed interface ClientCommand permits ComQuery, ComInitDb, ComPing, ComQuit, ComFieldList, ComStatistics,
        ComResetConnection, ComChangeUser, ComSetOption, ComProcessKill, ComStmtPrepare, ComStmtExecute, ComStmtFetch,
        ComStmtReset, ComStmtSendLongData, ComStmtClose, UnknownCommand {

    /** The command byte's type; {@link CommandType#UNKNOWN} only for a byte that names no command. */
    CommandType type();
}
