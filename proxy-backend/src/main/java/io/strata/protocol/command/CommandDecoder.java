package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLException;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Turns a command packet's payload into its {@link ClientCommand}: the one place that knows where a command's
 * fields sit. Every length is checked before it is read, so a short packet fails as MySQL fails it
 * (ER_MALFORMED_PACKET), never with an IndexOutOfBoundsException. Bytes after what a command needs are ignored, as
 * the server ignores them.
 */
public final class CommandDecoder {

    private static final ComPing PING = new ComPing();
    private static final ComQuit QUIT = new ComQuit();
    private static final ComResetConnection RESET_CONNECTION = new ComResetConnection();

    private CommandDecoder() {
    }

    /**
     * @param payload one whole command (continuations joined), command byte at its reader index; neither read from
     *                (its indices stay) nor released. Records that keep it hold this buffer itself, not retained.
     * @throws MySQLException MALFORMED_PACKET when the payload is empty or shorter than its command requires
     */
    public static ClientCommand decode(ByteBuf payload) {
        if (!payload.isReadable()) {
            throw ErrorCode.MALFORMED_PACKET.exception("empty command packet");
        }
        int code = payload.getUnsignedByte(payload.readerIndex());
        CommandType type = CommandType.of(code);
        return switch (type) {
            case COM_QUERY -> new ComQuery(payload, text(payload, StandardCharsets.UTF_8));
            case COM_INIT_DB -> new ComInitDb(text(payload, StandardCharsets.UTF_8));
            case COM_PING -> PING;
            case COM_QUIT -> QUIT;
            case COM_FIELD_LIST -> new ComFieldList(payload);
            case COM_STATISTICS -> new ComStatistics(payload);
            case COM_RESET_CONNECTION -> RESET_CONNECTION;
            case COM_CHANGE_USER -> changeUser(payload);
            case COM_SET_OPTION -> new ComSetOption(payload.getUnsignedShortLE(at(payload, type, 1, 2)));
            case COM_PROCESS_KILL -> new ComProcessKill(payload.getUnsignedIntLE(at(payload, type, 1, 4)));
            case COM_STMT_PREPARE -> prepare(payload);
            case COM_STMT_EXECUTE -> execute(payload);
            case COM_STMT_FETCH -> new ComStmtFetch(payload, statementId(payload, type),
                    payload.getUnsignedIntLE(at(payload, type, 5, 4))); // num_rows, after the statement id
            case COM_STMT_RESET -> new ComStmtReset(payload, statementId(payload, type));
            case COM_STMT_CLOSE -> new ComStmtClose(payload, statementId(payload, type));
            case COM_STMT_SEND_LONG_DATA -> sendLongData(payload);
            default -> new UnknownCommand(code);
        };
    }

    /** A COM_QUERY's or COM_STMT_PREPARE's statement as the client's bytes (what follows the command byte). */
    public static byte[] statementBytes(ByteBuf payload) {
        byte[] text = new byte[payload.readableBytes() - 1];
        payload.getBytes(payload.readerIndex() + 1, text);
        return text;
    }

    /** The error for a command shorter than its type requires, naming the type and the length it had. */
    static MySQLException tooShort(CommandType type, ByteBuf payload) {
        return ErrorCode.MALFORMED_PACKET.exception(type + " of " + payload.readableBytes() + " bytes is too short");
    }

    /** The absolute index of the field of {@code length} bytes at {@code offset}, once it is known to be there. */
    private static int at(ByteBuf payload, CommandType type, int offset, int length) {
        if (payload.readableBytes() < offset + length) {
            throw tooShort(type, payload);
        }
        return payload.readerIndex() + offset;
    }

    private static long statementId(ByteBuf payload, CommandType type) {
        return payload.getUnsignedIntLE(at(payload, type, ComStmtExecute.STATEMENT_ID, 4));
    }

    /** Everything after the command byte, as text. */
    private static String text(ByteBuf payload, Charset charset) {
        return payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, charset);
    }

    /** See {@link ComStmtPrepare} for why the text is read one char per byte and interned. */
    private static ComStmtPrepare prepare(ByteBuf payload) {
        int start = payload.readerIndex() + 1;
        int length = payload.readableBytes() - 1;
        String sql = text(payload, StandardCharsets.ISO_8859_1).intern();
        boolean ascii = payload.forEachByte(start, length, b -> b >= 0) < 0;
        return new ComStmtPrepare(payload, sql, ascii);
    }

    private static ComStmtExecute execute(ByteBuf payload) {
        CommandType type = CommandType.COM_STMT_EXECUTE;
        // The whole fixed header, iteration count included, as every client sends it and the server requires it.
        int start = at(payload, type, 0, ComStmtExecute.NULL_BITMAP);
        return new ComStmtExecute(payload, payload.getUnsignedIntLE(start + ComStmtExecute.STATEMENT_ID),
                payload.getUnsignedByte(start + ComStmtExecute.FLAGS),
                payload.getUnsignedIntLE(start + ComStmtExecute.ITERATION_COUNT));
    }

    private static ComStmtSendLongData sendLongData(ByteBuf payload) {
        CommandType type = CommandType.COM_STMT_SEND_LONG_DATA;
        int paramId = payload.getUnsignedShortLE(at(payload, type, 5, 2)); // after the statement id
        ByteBuf data = payload.slice(payload.readerIndex() + 7, payload.readableBytes() - 7); // the rest
        return new ComStmtSendLongData(payload, statementId(payload, type), paramId, data);
    }

    /**
     * user NUL, auth response (1-byte length, then the bytes), then optionally database NUL, character set (2 bytes),
     * auth plugin name NUL and connection attributes: each present only while bytes remain, as older clients stop
     * early.
     */
    private static ComChangeUser changeUser(ByteBuf payload) {
        CommandType type = CommandType.COM_CHANGE_USER;
        ByteBuf in = payload.duplicate().skipBytes(1);
        String user = MySQLBuf.readStringNul(in);
        int authLength = in.isReadable() ? MySQLBuf.readInt1(in) : -1;
        if (authLength < 0 || in.readableBytes() < authLength) {
            throw tooShort(type, payload);
        }
        byte[] authResponse = MySQLBuf.readBytesFix(in, authLength);
        String database = in.isReadable() ? MySQLBuf.readStringNul(in) : "";
        int characterSet = in.readableBytes() >= 2 ? MySQLBuf.readInt2(in) : ComChangeUser.DEFAULT_CHARACTER_SET;
        String plugin = in.isReadable() ? MySQLBuf.readStringNul(in) : "";
        return new ComChangeUser(user, authResponse, database.isEmpty() ? null : database, characterSet,
                plugin.isEmpty() ? null : plugin);
    }
}
