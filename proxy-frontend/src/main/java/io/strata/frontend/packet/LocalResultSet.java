package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLFrame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A small text-protocol result set that Strata answers itself (SHOW DATABASES, SELECT DATABASE(), ...). A null cell
 * is SQL NULL.
 */
public record LocalResultSet(List<ColumnDefinition41> columns, List<List<Object>> rows) {

    public static LocalResultSet single(ColumnDefinition41 column, Object value) {
        return new LocalResultSet(List.of(column), List.of(Arrays.asList(value)));
    }

    /** Writes column count, definitions, rows and terminators; returns the next sequence id. */
    public int write(Channel channel, int sequenceId, boolean deprecateEof, boolean extendedTypeInfo,
                     int statusFlags) {
        int seq = sequenceId;
        ByteBuf count = channel.alloc().buffer(9);
        MySQLBuf.writeIntLenenc(count, columns.size());
        channel.write(new MySQLFrame(seq++ & 0xFF, count));
        for (ColumnDefinition41 column : columns) {
            ByteBuf out = channel.alloc().buffer(64);
            column.encode(out, extendedTypeInfo);
            channel.write(new MySQLFrame(seq++ & 0xFF, out));
        }
        if (!deprecateEof) {
            seq = Responses.eof(channel, seq & 0xFF, false, statusFlags, false);
        }
        for (List<Object> row : rows) {
            ByteBuf out = channel.alloc().buffer(64);
            TextRow.write(out, row.toArray(), StandardCharsets.UTF_8);
            channel.write(new MySQLFrame(seq++ & 0xFF, out));
        }
        return Responses.eof(channel, seq & 0xFF, deprecateEof, statusFlags, true);
    }
}
