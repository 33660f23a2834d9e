package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;

/**
 * A result cell as the JDBC getters read it. A cell is what the kernel's rows hold: a Long, Float or Double for a
 * number of a numeric column, a BigDecimal or text for a decimal, the text of a date or time, a String for text and
 * bytes for binary values; NULL is null. Each getter converts as MariaDB Connector/J does for the column's type.
 */
final class CellValues {

    private CellValues() {
    }

    /** {@code getObject}: the value in {@link JdbcType#className()}'s class. */
    static Object object(Object cell, ColumnMetadata column, JdbcType type) throws SQLException {
        if (cell == null) {
            return null;
        }
        return switch (type.className()) {
            case "java.lang.Boolean" -> bool(cell);
            case "java.lang.Integer" -> (int) longValue(cell);
            case "java.lang.Short" -> (short) longValue(cell);
            case "java.lang.Long" -> longValue(cell);
            case "java.math.BigInteger" -> bigInteger(cell, column);
            case "java.lang.Float" -> cell instanceof Number n ? n.floatValue() : Float.parseFloat(text(cell));
            case "java.lang.Double" -> doubleValue(cell);
            case "java.math.BigDecimal" -> decimal(cell);
            case "java.sql.Date" -> column.type() == ColumnType.YEAR ? year(cell) : date(cell);
            case "java.sql.Time" -> time(cell);
            case "java.sql.Timestamp" -> timestamp(cell);
            case "byte[]" -> bytes(cell);
            default -> text(cell);
        };
    }

    /** {@code getObject(index, type)} for the classes applications and ORMs ask for. */
    static <T> T object(Object cell, ColumnMetadata column, JdbcType jdbcType, Class<T> type) throws SQLException {
        if (cell == null) {
            return null;
        }
        Object value;
        if (type == String.class) {
            value = text(cell);
        } else if (type == Integer.class || type == int.class) {
            value = (int) longValue(cell);
        } else if (type == Long.class || type == long.class) {
            value = longValue(cell);
        } else if (type == Short.class || type == short.class) {
            value = (short) longValue(cell);
        } else if (type == Byte.class || type == byte.class) {
            value = (byte) longValue(cell);
        } else if (type == Boolean.class || type == boolean.class) {
            value = bool(cell);
        } else if (type == Double.class || type == double.class) {
            value = doubleValue(cell);
        } else if (type == Float.class || type == float.class) {
            value = (float) doubleValue(cell);
        } else if (type == BigDecimal.class) {
            value = decimal(cell);
        } else if (type == BigInteger.class) {
            value = bigInteger(cell, column);
        } else if (type == byte[].class) {
            value = bytes(cell);
        } else if (type == LocalDate.class) {
            value = date(cell).toLocalDate();
        } else if (type == LocalDateTime.class) {
            value = timestamp(cell).toLocalDateTime();
        } else if (type == LocalTime.class) {
            value = LocalTime.parse(text(cell));
        } else if (type == OffsetDateTime.class) {
            value = timestamp(cell).toLocalDateTime().atZone(ZoneId.systemDefault()).toOffsetDateTime();
        } else if (type == java.time.Instant.class) {
            value = timestamp(cell).toInstant();
        } else if (type == Date.class) {
            value = date(cell);
        } else if (type == Time.class) {
            value = time(cell);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            value = timestamp(cell);
        } else if (type == java.util.UUID.class) {
            value = java.util.UUID.fromString(text(cell));
        } else if (type == Object.class) {
            value = object(cell, column, jdbcType);
        } else {
            throw new SQLDataException("cannot read a " + jdbcType.typeName() + " column as " + type.getName());
        }
        return type.isPrimitive() ? (T) value : type.cast(value);
    }

    static String text(Object cell) {
        return switch (cell) {
            case null -> null;
            case String s -> s;
            case byte[] b -> new String(b, StandardCharsets.UTF_8);
            case BigDecimal d -> d.toPlainString();
            default -> cell.toString();
        };
    }

    static long longValue(Object cell) throws SQLException {
        if (cell instanceof Number number) {
            return cell instanceof BigDecimal d ? d.longValue() : number.longValue();
        }
        String text = text(cell).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return new BigDecimal(text).longValue();
            } catch (NumberFormatException notNumber) {
                throw new SQLDataException("value '" + text + "' cannot be read as a number", "22003");
            }
        }
    }

    static double doubleValue(Object cell) throws SQLException {
        if (cell instanceof Number number) {
            return number.doubleValue();
        }
        try {
            return Double.parseDouble(text(cell).trim());
        } catch (NumberFormatException e) {
            throw new SQLDataException("value '" + text(cell) + "' cannot be read as a number", "22003");
        }
    }

    static BigDecimal decimal(Object cell) throws SQLException {
        return switch (cell) {
            case null -> null;
            case BigDecimal d -> d;
            case Long l -> BigDecimal.valueOf(l);
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> new BigDecimal(f.toString());
            default -> {
                try {
                    yield new BigDecimal(text(cell).trim());
                } catch (NumberFormatException e) {
                    throw new SQLDataException("value '" + text(cell) + "' cannot be read as a decimal", "22003");
                }
            }
        };
    }

    static boolean bool(Object cell) throws SQLException {
        if (cell instanceof byte[] bits) {
            for (byte b : bits) {
                if (b != 0) {
                    return true;
                }
            }
            return false;
        }
        if (cell instanceof String s && !s.isEmpty() && !Character.isDigit(s.charAt(0)) && s.charAt(0) != '-') {
            return !s.equalsIgnoreCase("false") && !s.equals("0");
        }
        return doubleValue(cell) != 0;
    }

    private static BigInteger bigInteger(Object cell, ColumnMetadata column) {
        if (cell instanceof Long l && (column.flags() & ColumnType.FLAG_UNSIGNED) != 0) {
            return new BigInteger(Long.toUnsignedString(l));
        }
        if (cell instanceof BigDecimal d) {
            return d.toBigInteger();
        }
        return new BigInteger(text(cell).trim());
    }

    static byte[] bytes(Object cell) {
        return switch (cell) {
            case null -> null;
            case byte[] b -> b;
            default -> text(cell).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** Zero dates ("0000-00-00") are NULL, as MariaDB Connector/J reads them. */
    static Date date(Object cell) throws SQLException {
        String text = text(cell);
        if (text == null || text.startsWith("0000-00-00")) {
            return null;
        }
        try {
            return Date.valueOf(text.length() > 10 ? text.substring(0, 10) : text);
        } catch (IllegalArgumentException e) {
            throw new SQLDataException("value '" + text + "' is not a date", "22007");
        }
    }

    static Date year(Object cell) throws SQLException {
        long year = longValue(cell);
        return year == 0 ? null : Date.valueOf(LocalDate.of((int) year, 1, 1));
    }

    static Time time(Object cell) throws SQLException {
        String text = text(cell);
        if (text == null) {
            return null;
        }
        try {
            int dot = text.indexOf('.');
            Time time = Time.valueOf(dot < 0 ? text : text.substring(0, dot));
            if (dot > 0) {
                time.setTime(time.getTime() + Long.parseLong((text.substring(dot + 1) + "000").substring(0, 3)));
            }
            return time;
        } catch (IllegalArgumentException e) {
            throw new SQLDataException("value '" + text + "' is not a time", "22007");
        }
    }

    static Timestamp timestamp(Object cell) throws SQLException {
        String text = text(cell);
        if (text == null || text.startsWith("0000-00-00")) {
            return null;
        }
        try {
            return text.length() == 10 ? Timestamp.valueOf(text + " 00:00:00") : Timestamp.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw new SQLDataException("value '" + text + "' is not a date and time", "22007");
        }
    }
}
