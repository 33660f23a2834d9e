package io.strata.backend.jdbc;

import io.strata.backend.result.ColumnMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The column definitions exactly as the backend sent them, read from MariaDB Connector/J's own column objects:
 * standard JDBC metadata drops the character set, the raw length, the flags and MariaDB's extended type. These live
 * in driver-internal classes, so they are read by reflection; when a driver version changes them, Strata falls back
 * to {@link JdbcColumns} (and logs it once).
 */
final class DriverColumns {

    private static final Logger LOG = LoggerFactory.getLogger(DriverColumns.class);
    private static final Access ACCESS = Access.find();

    private record Access(Field fieldPackets, Field prepareResult, Field charset, Field columnLength,
                          Field extTypeName, Field extTypeFormat) {

        static Access find() {
            try {
                Field packets = org.mariadb.jdbc.client.result.ResultSetMetaData.class
                        .getDeclaredField("fieldPackets");
                Field prepareResult = org.mariadb.jdbc.BasePreparedStatement.class.getDeclaredField("prepareResult");
                Class<?> definition = org.mariadb.jdbc.message.server.ColumnDefinitionPacket.class;
                Field charset = definition.getDeclaredField("charset");
                Field length = definition.getDeclaredField("columnLength");
                Field name = definition.getDeclaredField("extTypeName");
                Field format = definition.getDeclaredField("extTypeFormat");
                for (Field field : List.of(packets, prepareResult, charset, length, name, format)) {
                    field.setAccessible(true);
                }
                return new Access(packets, prepareResult, charset, length, name, format);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.warn("MariaDB Connector/J's column internals are not where Strata expects them ({}); the JDBC "
                        + "executor describes columns from standard JDBC metadata instead", e.toString());
                return null;
            }
        }
    }

    private DriverColumns() {
    }

    /** The backend's column definitions, or empty when the driver's internals cannot be read. */
    static Optional<List<ColumnMetadata>> describe(ResultSetMetaData md) {
        if (ACCESS == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(describe((Object[]) ACCESS.fieldPackets().get(
                    md.unwrap(org.mariadb.jdbc.client.result.ResultSetMetaData.class))));
        } catch (ReflectiveOperationException | java.sql.SQLException | ClassCastException e) {
            LOG.debug("cannot read MariaDB Connector/J's column definitions", e);
            return Optional.empty();
        }
    }

    /**
     * The parameter and result column definitions of a server-side prepare (COM_STMT_PREPARE's response), or empty
     * when the driver's internals cannot be read.
     */
    static Optional<List<List<ColumnMetadata>>> describePrepared(java.sql.PreparedStatement statement) {
        if (ACCESS == null) {
            return Optional.empty();
        }
        try {
            org.mariadb.jdbc.export.Prepare prepared = (org.mariadb.jdbc.export.Prepare) ACCESS.prepareResult().get(
                    statement.unwrap(org.mariadb.jdbc.BasePreparedStatement.class));
            if (prepared == null) {
                return Optional.empty();
            }
            return Optional.of(List.of(describe(prepared.getParameters()), describe(prepared.getColumns())));
        } catch (ReflectiveOperationException | java.sql.SQLException | ClassCastException e) {
            LOG.debug("cannot read MariaDB Connector/J's prepare result", e);
            return Optional.empty();
        }
    }

    private static List<ColumnMetadata> describe(Object[] packets) throws ReflectiveOperationException {
        if (packets == null) {
            return List.of();
        }
        List<ColumnMetadata> columns = new ArrayList<>(packets.length);
        for (Object packet : packets) {
            columns.add(describe((org.mariadb.jdbc.message.server.ColumnDefinitionPacket) packet));
        }
        return columns;
    }

    private static ColumnMetadata describe(org.mariadb.jdbc.message.server.ColumnDefinitionPacket column)
            throws ReflectiveOperationException {
        int charset = ACCESS.charset().getInt(column);
        String extendedType = text(ACCESS.extTypeName().get(column));
        String extendedFormat = text(ACCESS.extTypeFormat().get(column));
        int type = column.getType().get();
        // The driver keeps the 4-byte length in a signed field: LONGTEXT's 4294967295 reads as -1.
        long length = ACCESS.columnLength().getLong(column) & 0xFFFFFFFFL;
        return new ColumnMetadata(column.getSchema(), column.getTableAlias(), column.getTable(),
                column.getColumnAlias(), column.getColumnName(), charset, length, type,
                column.getFlags(), column.getDecimals() & 0xFF, extendedType, extendedFormat,
                JdbcColumns.bytesValue(charset, type));
    }

    private static String text(Object bytes) {
        return bytes instanceof byte[] b && b.length > 0 ? new String(b, StandardCharsets.UTF_8) : null;
    }
}
