package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The kernel's cells read as MariaDB Connector/J reads the same columns. */
class CellValuesTest {

    private static ColumnMetadata column(int type, long length, int flags, int collation) {
        return new ColumnMetadata("shop", "t", "t", "c", "c", collation, length, type, flags, 0, null, null,
                collation == ColumnType.BINARY_COLLATION);
    }

    private static Object read(Object cell, ColumnMetadata column) throws SQLException {
        return CellValues.object(cell, column, JdbcType.of(column));
    }

    @Test
    void numbersComeInConnectorJsClasses() throws SQLException {
        assertEquals(7, read(7L, column(ColumnType.LONG, 11, 0, 63)));
        assertEquals(7L, read(7L, column(ColumnType.LONG, 10, ColumnType.FLAG_UNSIGNED, 63)));
        assertEquals((short) 7, read(7L, column(ColumnType.SHORT, 6, 0, 63)));
        assertEquals(true, read(1L, column(ColumnType.TINY, 1, 0, 63)), "TINYINT(1) is a boolean");
        assertEquals(new BigInteger("18446744073709551615"),
                read(-1L, column(ColumnType.LONGLONG, 20, ColumnType.FLAG_UNSIGNED, 63)));
        assertEquals(new BigDecimal("10.50"), read("10.50", column(ColumnType.NEWDECIMAL, 12, 0, 63)));
        assertEquals(Types.DECIMAL, JdbcType.of(column(ColumnType.NEWDECIMAL, 12, 0, 63)).sqlType());
    }

    @Test
    void datesAndTimesAreReadFromTheirText() throws SQLException {
        assertEquals(Date.valueOf("2026-01-10"), read("2026-01-10", column(ColumnType.DATE, 10, 0, 63)));
        assertNull(read("0000-00-00", column(ColumnType.DATE, 10, 0, 63)), "a zero date is NULL");
        assertEquals(Timestamp.valueOf("2026-01-10 10:20:30.5"),
                read("2026-01-10 10:20:30.5", column(ColumnType.DATETIME, 21, 0, 63)));
        assertEquals(Date.valueOf("2026-01-01"), read(2026L, column(ColumnType.YEAR, 4, 0, 63)));
        ColumnMetadata datetime = column(ColumnType.DATETIME, 19, 0, 63);
        assertEquals(LocalDateTime.of(2026, 1, 10, 10, 20, 30), CellValues.object("2026-01-10 10:20:30", datetime,
                JdbcType.of(datetime), LocalDateTime.class));
        assertEquals(LocalDate.of(2026, 1, 10), CellValues.object("2026-01-10", datetime, JdbcType.of(datetime),
                LocalDate.class));
    }

    @Test
    void textAndBytesFollowTheColumnsCollation() throws SQLException {
        ColumnMetadata text = column(ColumnType.VAR_STRING, 40, 0, 45);
        assertEquals("héllo", read("héllo", text));
        assertEquals("VARCHAR", JdbcType.of(text).typeName());
        ColumnMetadata binary = column(ColumnType.VAR_STRING, 10, ColumnType.FLAG_BINARY, 63);
        assertArrayEquals(new byte[]{1, 2}, (byte[]) read(new byte[]{1, 2}, binary));
        ColumnMetadata mediumText = column(ColumnType.BLOB, 16777215L * 4, 0, 45);
        assertEquals("MEDIUMTEXT", JdbcType.of(mediumText).typeName(), "GROUP_CONCAT's column");
        assertEquals(Types.VARCHAR, JdbcType.of(mediumText).sqlType());
    }

    @Test
    void parametersBecomeTheJavaTimeValuesTheRulesKnow() {
        assertEquals(LocalDate.of(2026, 1, 5), StrataPreparedStatement.javaTime(Date.valueOf("2026-01-05")));
        assertEquals(LocalDateTime.of(2026, 1, 5, 1, 2, 3),
                StrataPreparedStatement.javaTime(Timestamp.valueOf("2026-01-05 01:02:03")));
        assertEquals("x", StrataPreparedStatement.javaTime('x'));
        assertEquals(5, StrataPreparedStatement.javaTime(5));
    }

    @Test
    void placeholdersInStringsAndCommentsAreNotCounted() {
        assertEquals(2, Placeholders.count("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ? -- ?"));
        assertEquals(0, Placeholders.count("SELECT 1"));
    }

    @Test
    void metadataPatternsAreSqlLike() {
        assertEquals(true, StrataDatabaseMetaData.like("t\\_order%").matcher("t_order_item").matches());
        assertEquals(false, StrataDatabaseMetaData.like("t\\_order").matcher("tXorder").matches());
        assertEquals(true, StrataDatabaseMetaData.like("T_ORDER").matcher("t_order").matches());
    }
}
