package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

import java.nio.charset.StandardCharsets;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_prepare.html">
 * COM_STMT_PREPARE</a>.
 * <p>
 * The statement text is kept as the bytes the client sent, one char per byte (ISO-8859-1): it keys backend statement
 * caches and is sent byte for byte to every backend connection that prepares the statement again. Decoded as UTF-8,
 * a latin1 client's 'é' and 'è' would both become U+FFFD: two statements under one key, each prepared again as
 * U+FFFD's bytes. The text is interned, so that sessions preparing the same SQL hold the same String and a cache
 * lookup compares them by identity.
 *
 * @param payload the whole command, command byte at its reader index; not retained (valid while its frame is)
 * @param sql     the text after the command byte, one char per byte, interned
 * @param ascii   whether every byte is below 0x80, so that {@code sql} is also the text's UTF-8 reading
 */
public record ComStmtPrepare(ByteBuf payload, String sql, boolean ascii) implements ClientCommand {

    @Override
    public CommandType type() {
        return CommandType.COM_STMT_PREPARE;
    }

    /**
     * The text decoded as UTF-8, for the rules to read: {@code sql} itself when it is ASCII, else a second decode of
     * the payload, so call it while the frame is alive.
     */
    public String sqlAsUtf8() {
        return ascii ? sql : payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1,
                StandardCharsets.UTF_8);
    }
}
