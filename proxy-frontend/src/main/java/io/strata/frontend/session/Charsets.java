package io.strata.frontend.session;

/** Maps the collation id a client sends in its handshake to the character set name SET NAMES takes. */
public final class Charsets {

    private Charsets() {
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
