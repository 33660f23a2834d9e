package io.strata.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Reads and rewrites the parts of a
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html">COM_STMT_EXECUTE</a>
 * payload a proxy needs: the statement id (to map it to the backend's), the cursor flags, and the parameter types
 * (to resend them when the backend statement does not hold the client's). Parameter values are never decoded.
 */
public final class ComStmtExecute {

    private static final int STATEMENT_ID = 1;
    private static final int FLAGS = 5;
    private static final int NULL_BITMAP = 10;
    private static final int CURSOR_FLAGS = 0x07;

    private ComStmtExecute() {
    }

    /** The statement id of any COM_STMT_* command that has one (it always follows the command byte). */
    public static long statementId(ByteBuf payload) {
        return payload.getUnsignedIntLE(payload.readerIndex() + STATEMENT_ID);
    }

    public static void statementId(ByteBuf payload, long id) {
        payload.setIntLE(payload.readerIndex() + STATEMENT_ID, (int) id);
    }

    public static boolean opensCursor(ByteBuf payload) {
        return (payload.getUnsignedByte(payload.readerIndex() + FLAGS) & CURSOR_FLAGS) != 0;
    }

    private static int boundFlagIndex(ByteBuf payload, int params) {
        return payload.readerIndex() + NULL_BITMAP + (params + 7) / 8;
    }

    /** The types the execute binds (2 bytes per parameter), or null when it reuses the ones bound before. */
    public static byte[] types(ByteBuf payload, int params) {
        int flag = boundFlagIndex(payload, params);
        if (params == 0 || flag >= payload.writerIndex() || payload.getByte(flag) != 1) {
            return null;
        }
        byte[] types = new byte[2 * params];
        payload.getBytes(flag + 1, types);
        return types;
    }

    /** The same execute, now binding {@code types} explicitly (new-params-bound flag 1). */
    public static ByteBuf withTypes(ByteBuf payload, int params, byte[] types) {
        int flag = boundFlagIndex(payload, params);
        ByteBuf out = payload.alloc().buffer(payload.readableBytes() + types.length);
        out.writeBytes(payload, payload.readerIndex(), flag - payload.readerIndex());
        out.writeByte(1).writeBytes(types);
        out.writeBytes(payload, flag + 1, payload.writerIndex() - flag - 1);
        return out;
    }
}
