package io.strata.protocol;

/** The column type codes of ColumnDefinition41 and the column flags, as in MySQL's field_types.h. */
public final class ColumnType {

    public static final int DECIMAL = 0x00;
    public static final int TINY = 0x01;
    public static final int SHORT = 0x02;
    public static final int LONG = 0x03;
    public static final int FLOAT = 0x04;
    public static final int DOUBLE = 0x05;
    public static final int NULL = 0x06;
    public static final int TIMESTAMP = 0x07;
    public static final int LONGLONG = 0x08;
    public static final int INT24 = 0x09;
    public static final int DATE = 0x0A;
    public static final int TIME = 0x0B;
    public static final int DATETIME = 0x0C;
    public static final int YEAR = 0x0D;
    public static final int VARCHAR = 0x0F;
    public static final int BIT = 0x10;
    public static final int JSON = 0xF5;
    public static final int NEWDECIMAL = 0xF6;
    public static final int ENUM = 0xF7;
    public static final int SET = 0xF8;
    public static final int BLOB = 0xFC;
    public static final int VAR_STRING = 0xFD;
    public static final int STRING = 0xFE;
    public static final int GEOMETRY = 0xFF;

    public static final int FLAG_NOT_NULL = 1;
    public static final int FLAG_PRIMARY_KEY = 2;
    public static final int FLAG_UNIQUE_KEY = 4;
    public static final int FLAG_MULTIPLE_KEY = 8;
    public static final int FLAG_BLOB = 16;
    public static final int FLAG_UNSIGNED = 32;
    public static final int FLAG_ZEROFILL = 64;
    public static final int FLAG_BINARY = 128;
    public static final int FLAG_ENUM = 256;
    public static final int FLAG_AUTO_INCREMENT = 512;
    public static final int FLAG_TIMESTAMP = 1024;
    public static final int FLAG_SET = 2048;
    public static final int FLAG_NO_DEFAULT_VALUE = 4096;

    /** Collation id of the binary character set, which numbers, dates and byte strings carry. */
    public static final int BINARY_COLLATION = 63;

    private ColumnType() {
    }
}
