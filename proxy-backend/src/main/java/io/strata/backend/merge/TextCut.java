package io.strata.backend.merge;

import io.strata.protocol.Charsets;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A merged string's bytes in its column's character set, and its cut at a length in bytes as the server cuts
 * GROUP_CONCAT at {@code group_concat_max_len}: whole characters only. Rows of packets hold the column's own bytes;
 * a driver's cells hold Java strings, read here as UTF-8. Where Strata cannot tell the server's bytes (a multi-byte
 * character set other than UTF-8, or a single-byte one held as Java strings) it refuses rather than guess.
 */
final class TextCut {

    private TextCut() {
    }

    /** The separator as the column's bytes: UTF-8 where the column is UTF-8 or cells, ASCII anywhere. */
    static byte[] encode(String text, int collationId, boolean cells) {
        if (cells || utf8(collationId) || text.chars().allMatch(c -> c < 0x80)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        throw refused("a GROUP_CONCAT SEPARATOR beyond ASCII in character set " + Charsets.ofCollation(collationId));
    }

    /** The longest prefix of {@code bytes} of at most {@code limit} bytes that ends on a whole character. */
    static byte[] cut(byte[] bytes, int limit, int collationId, boolean cells) {
        if (collationId == ColumnType.BINARY_COLLATION || !cells && Charsets.maxBytesPerChar(collationId) == 1
                || Charsets.ofCollation(collationId).equals("ascii")) {
            return Arrays.copyOf(bytes, limit);
        }
        if (!utf8(collationId)) {
            throw refused("a GROUP_CONCAT cut at group_concat_max_len in character set "
                    + Charsets.ofCollation(collationId));
        }
        int end = limit;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--; // bytes[end] continues a character that begins before the limit: it goes whole
        }
        return Arrays.copyOf(bytes, end);
    }

    private static boolean utf8(int collationId) {
        String charset = Charsets.ofCollation(collationId);
        return charset.equals("utf8mb4") || charset.equals("utf8mb3") || charset.equals("utf8");
    }

    private static MySQLException refused(String what) {
        return ErrorCode.UNSUPPORTED.exception(what + " over several shards");
    }
}
