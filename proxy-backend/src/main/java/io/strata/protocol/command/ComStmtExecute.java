package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.CommandType;

import java.nio.charset.Charset;
import java.util.Map;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html">
 * COM_STMT_EXECUTE</a>. The fixed header is read; the parameter block (null bitmap, new-params-bound flag, types,
 * values) is read only on demand, since its layout depends on the parameter count, which only the prepare's response
 * told, and the relay passes it on untouched.
 * <p>
 * The static methods work on a bare payload (command byte at its reader index), for the relay, which holds the bytes
 * it forwards rather than the record.
 *
 * @param payload        the whole command, command byte at its reader index; not retained (valid while its frame is)
 * @param statementId    unsigned 4 bytes; {@link #LAST_PREPARED} for MariaDB's "the statement prepared last"
 * @param flags          the cursor type ({@code CURSOR_TYPE_*} bits)
 * @param iterationCount unsigned 4 bytes, always 1
 */
public record ComStmtExecute(ByteBuf payload, long statementId, int flags, long iterationCount)
        implements ClientCommand {

    /** MariaDB's statement id -1: the statement prepared last, so that a command sent behind its prepare names it. */
    public static final long LAST_PREPARED = 0xFFFFFFFFL;
    public static final int CURSOR_TYPE_NO_CURSOR = 0x00;
    public static final int CURSOR_TYPE_READ_ONLY = 0x01;
    public static final int CURSOR_TYPE_FOR_UPDATE = 0x02;
    public static final int CURSOR_TYPE_SCROLLABLE = 0x04;
    private static final int CURSOR_TYPES = CURSOR_TYPE_READ_ONLY | CURSOR_TYPE_FOR_UPDATE | CURSOR_TYPE_SCROLLABLE;

    /** Where the statement id sits, in every COM_STMT_* command that has one. */
    static final int STATEMENT_ID = 1;
    static final int FLAGS = 5;
    static final int ITERATION_COUNT = 6;
    /** The command byte, statement id, flags and iteration count; the parameter block starts here. */
    static final int NULL_BITMAP = 10;

    @Override
    public CommandType type() {
        return CommandType.COM_STMT_EXECUTE;
    }

    /** Whether the client asks for a cursor: the server then answers with column definitions only, rows by fetch. */
    public boolean opensCursor() {
        return (flags & CURSOR_TYPES) != 0;
    }

    /** {@link #opensCursor()} of a bare execute payload (the relay holds the bytes, not the record). */
    public static boolean opensCursor(ByteBuf payload) {
        return payload.readableBytes() > FLAGS
                && (payload.getUnsignedByte(payload.readerIndex() + FLAGS) & CURSOR_TYPES) != 0;
    }

    /** See {@link #types(ByteBuf, int)}. */
    public byte[] types(int params) {
        return types(payload, params);
    }

    /** See {@link #withTypes(ByteBuf, int, byte[])}. */
    public ByteBuf withTypes(int params, byte[] types) {
        return withTypes(payload, params, types);
    }

    /** See {@link ExecuteParameters#decode}. */
    public Object[] parameters(int params, byte[] types, Map<Integer, byte[]> longData, Charset charset) {
        return ExecuteParameters.decode(payload, params, types, longData, charset);
    }

    /**
     * Rewrites the statement id in place, to the backend's own. Works for every COM_STMT_* command but the prepare:
     * the id always follows the command byte.
     */
    public static void statementId(ByteBuf payload, long id) {
        payload.setIntLE(payload.readerIndex() + STATEMENT_ID, (int) id);
    }

    /**
     * The types the execute binds, 2 bytes per parameter (type, then flags with 0x80 for unsigned), or null when it
     * binds none (no parameters, or new-params-bound 0: the types of the statement's previous execute hold).
     *
     * @param params the statement's parameter count, as its prepare answered
     * @throws io.strata.protocol.MySQLException MALFORMED_PACKET when the types run past the payload
     */
    public static byte[] types(ByteBuf payload, int params) {
        int flag = boundFlagIndex(payload, params);
        if (params == 0 || flag >= payload.writerIndex() || payload.getByte(flag) != 1) {
            return null;
        }
        if (flag + 1 + 2 * params > payload.writerIndex()) {
            throw CommandDecoder.tooShort(CommandType.COM_STMT_EXECUTE, payload);
        }
        byte[] types = new byte[2 * params];
        payload.getBytes(flag + 1, types);
        return types;
    }

    /**
     * The same execute binding {@code types} explicitly (new-params-bound 1), for a backend statement that last saw
     * other types than the client's statement: an execute that reuses its types means the backend's.
     *
     * @param payload an execute with at least one parameter that binds no types; not released
     * @param types   2 bytes per parameter
     * @return a new buffer from the payload's allocator; the caller releases it
     * @throws io.strata.protocol.MySQLException MALFORMED_PACKET when the payload ends before the new-params-bound
     *                                           flag
     */
    public static ByteBuf withTypes(ByteBuf payload, int params, byte[] types) {
        if (types.length != 2 * params) {
            throw new IllegalArgumentException(types.length + " bytes of types for " + params + " parameters");
        }
        int flag = boundFlagIndex(payload, params);
        if (flag >= payload.writerIndex()) {
            throw CommandDecoder.tooShort(CommandType.COM_STMT_EXECUTE, payload);
        }
        ByteBuf out = payload.alloc().buffer(payload.readableBytes() + types.length);
        out.writeBytes(payload, payload.readerIndex(), flag - payload.readerIndex());
        out.writeByte(1).writeBytes(types);
        out.writeBytes(payload, flag + 1, payload.writerIndex() - flag - 1);
        return out;
    }

    /** The index of the new-params-bound flag: after the null bitmap of one bit per parameter. */
    static int boundFlagIndex(ByteBuf payload, int params) {
        return payload.readerIndex() + NULL_BITMAP + (params + 7) / 8;
    }
}
