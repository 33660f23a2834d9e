package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.MySQLBuf;

import java.nio.charset.Charset;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_row.html">
 * ProtocolText::ResultsetRow</a>: each cell a length-encoded string, NULL as 0xFB. Cells are raw bytes (passed as
 * they are) or values written as text in the client's character set.
 */
public final class TextRow {

    /** A first guess at a row's size that fits a typical OLTP row without the buffer growing. */
    public static final int INITIAL_CAPACITY = 256;

    private TextRow() {
    }

    public static void write(ByteBuf out, Object[] cells, Charset charset) {
        for (Object cell : cells) {
            if (cell == null) {
                out.writeByte(0xFB);
            } else {
                writeCell(out, cell, charset);
            }
        }
    }

    /** A non-NULL cell as a length-encoded string: raw bytes as they are, any other value as its text. */
    static void writeCell(ByteBuf out, Object cell, Charset charset) {
        MySQLBuf.writeBytesLenenc(out, cell instanceof byte[] bytes ? bytes : cell.toString().getBytes(charset));
    }
}
