package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_init_db.html">COM_INIT_DB</a>.
 *
 * @param schemaName decoded as UTF-8; empty when the client sent none (the server answers that as an unknown
 *                   database)
 */
public record ComInitDb(String schemaName) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_INIT_DB;
    }
}
