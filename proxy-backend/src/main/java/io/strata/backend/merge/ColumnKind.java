package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

/** How the values of a column compare, by its type: which decoding a merge needs of them. */
enum ColumnKind {

    /** Integers that fit a long: every integer type, signed or not, but BIGINT UNSIGNED; and YEAR. */
    SIGNED,
    /** BIGINT UNSIGNED: a long's 64 bits compared unsigned. */
    UNSIGNED,
    /** DECIMAL: by value, from its text (the same in both protocols), never through a double. */
    DECIMAL,
    /** FLOAT and DOUBLE. */
    FLOATING,
    /** DATE, DATETIME, TIMESTAMP: field by field, which is the order of their text. */
    DATE_TIME,
    /** TIME: signed and up to 838 hours, so its text does not sort; compared in microseconds. */
    TIME,
    /** Strings, byte strings, BIT, weight columns and anything else: bytes compared unsigned. */
    BYTES;

    static ColumnKind of(ColumnMetadata column) {
        return switch (column.type()) {
            case ColumnType.TINY, ColumnType.SHORT, ColumnType.INT24, ColumnType.LONG, ColumnType.YEAR -> SIGNED;
            case ColumnType.LONGLONG -> (column.flags() & ColumnType.FLAG_UNSIGNED) != 0 ? UNSIGNED : SIGNED;
            case ColumnType.DECIMAL, ColumnType.NEWDECIMAL -> DECIMAL;
            case ColumnType.FLOAT, ColumnType.DOUBLE -> FLOATING;
            case ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP -> DATE_TIME;
            case ColumnType.TIME -> TIME;
            default -> BYTES;
        };
    }

    boolean numeric() {
        return this == SIGNED || this == UNSIGNED || this == DECIMAL || this == FLOATING;
    }
}
