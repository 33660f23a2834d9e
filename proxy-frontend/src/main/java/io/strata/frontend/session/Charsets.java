package io.strata.frontend.session;

/** Maps the collation id a client sends in its handshake to the character set name SET NAMES takes. */
public final class Charsets {

    private Charsets() {
    }

    /** The Java charset that encodes a MySQL character set (MySQL's latin1 is Windows-1252). */
    public static java.nio.charset.Charset java(String mysqlCharset) {
        return switch (mysqlCharset.toLowerCase(java.util.Locale.ROOT)) {
            case "latin1" -> java.nio.charset.Charset.forName("windows-1252");
            case "latin2" -> java.nio.charset.Charset.forName("ISO-8859-2");
            case "ascii" -> java.nio.charset.StandardCharsets.US_ASCII;
            case "binary" -> java.nio.charset.StandardCharsets.ISO_8859_1;
            case "gbk" -> java.nio.charset.Charset.forName("GBK");
            case "big5" -> java.nio.charset.Charset.forName("Big5");
            default -> java.nio.charset.StandardCharsets.UTF_8;
        };
    }

    /** The default collation id of a MySQL character set, as column definitions carry it. */
    public static int defaultCollation(String mysqlCharset) {
        return switch (mysqlCharset.toLowerCase(java.util.Locale.ROOT)) {
            case "latin1" -> 8;
            case "latin2" -> 9;
            case "ascii" -> 11;
            case "binary" -> 63;
            case "gbk" -> 28;
            case "big5" -> 1;
            case "utf8mb3", "utf8" -> 33;
            default -> 45;
        };
    }

    public static int maxBytesPerChar(String mysqlCharset) {
        return switch (mysqlCharset.toLowerCase(java.util.Locale.ROOT)) {
            case "latin1", "latin2", "ascii", "binary" -> 1;
            case "gbk", "big5" -> 2;
            case "utf8mb3", "utf8" -> 3;
            default -> 4;
        };
    }

    /** The character set of what SET NAMES takes: {@code x} of {@code x} or {@code x COLLATE y}. */
    public static String ofNames(String names) {
        int space = names.indexOf(' ');
        return space < 0 ? names : names.substring(0, space);
    }

    public static String ofCollation(int id) {
        return switch (id) {
            case 1, 84 -> "big5";
            case 8, 5, 15, 31, 47, 48, 49, 94 -> "latin1";
            case 9, 21, 27, 77 -> "latin2";
            case 11, 65 -> "ascii";
            case 28, 87 -> "gbk";
            case 33, 83 -> "utf8mb3";
            case 63 -> "binary";
            default -> id >= 192 && id <= 215 ? "utf8mb3" : "utf8mb4";
        };
    }
}
