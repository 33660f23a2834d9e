package io.strata.protocol.command;

import io.strata.protocol.CommandType;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_change_user.html">COM_CHANGE_USER</a>.
 * The connection attributes that may follow the plugin name are not read.
 *
 * @param user           decoded as UTF-8
 * @param authResponse   the bytes after the one-byte length (the 4.1 form every client since CLIENT_SECURE_CONNECTION
 *                       sends); computed against the connection's first nonce. Not copied: do not modify
 * @param database       decoded as UTF-8; null when absent or empty
 * @param characterSet   the collation id of the client's character set; {@link #DEFAULT_CHARACTER_SET} when the
 *                       client sent none (clients before 4.1)
 * @param authPluginName null when absent or empty
 */
public record ComChangeUser(String user, byte[] authResponse, String database, int characterSet,
                            String authPluginName) implements ClientCommand {

    /** utf8mb4_general_ci: what Strata's greeting announces, so what a client that names none gets. */
    public static final int DEFAULT_CHARACTER_SET = 45;

    @Override
    public CommandType type() {
        return CommandType.COM_CHANGE_USER;
    }
}
