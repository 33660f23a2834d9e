package io.strata.protocol;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * MySQL character sets and collations: what the collation id of a client's handshake asks for, and the ids, sizes and
 * Java charsets of a character set. The collations come from {@code collations.txt} (MariaDB's list of those with ids
 * below 256, the ones a handshake's one byte can name).
 */
public final class Charsets {

    /** The character set a handshake's unknown collation id gets (MySQL 8's 255, utf8mb4_0900_ai_ci, among them). */
    private static final String FALLBACK = "utf8mb4";

    /**
     * @param names what SET NAMES takes for it; interned, like the literals backend connections start with, so that
     *              comparing a session's with a connection's finds the same String (see StateSync)
     */
    private record Collation(int id, String name, String charset, boolean isDefault, int maxBytesPerChar,
                             String names) {
    }

    private static final Collation[] BY_ID = new Collation[256];
    private static final Map<String, Collation> BY_NAME = new HashMap<>();
    private static final Map<String, Collation> DEFAULT_OF_CHARSET = new HashMap<>();
    /** The Java charset of each MySQL character set, resolved once: the JDBC executor asks on every statement. */
    private static final Map<String, Charset> JAVA = new HashMap<>();

    /** MySQL's character sets that Java encodes under another name (the rest, like gbk or big5, share theirs). */
    private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
            Map.entry("latin1", "windows-1252"), // MySQL's latin1 is Windows-1252, not ISO-8859-1
            Map.entry("latin2", "ISO-8859-2"), Map.entry("latin5", "ISO-8859-9"),
            Map.entry("latin7", "ISO-8859-13"), Map.entry("greek", "ISO-8859-7"), Map.entry("hebrew", "ISO-8859-8"),
            Map.entry("ascii", "US-ASCII"), Map.entry("binary", "ISO-8859-1"), Map.entry("utf8mb3", "UTF-8"),
            Map.entry("utf8mb4", "UTF-8"), Map.entry("cp1250", "windows-1250"), Map.entry("cp1251", "windows-1251"),
            Map.entry("cp1256", "windows-1256"), Map.entry("cp1257", "windows-1257"), Map.entry("cp850", "IBM850"),
            Map.entry("cp852", "IBM852"), Map.entry("cp866", "IBM866"), Map.entry("koi8r", "KOI8-R"),
            Map.entry("koi8u", "KOI8-U"), Map.entry("sjis", "Shift_JIS"), Map.entry("cp932", "windows-31j"),
            Map.entry("ujis", "EUC-JP"), Map.entry("eucjpms", "x-eucJP-Open"), Map.entry("euckr", "EUC-KR"),
            Map.entry("tis620", "TIS-620"), Map.entry("macroman", "x-MacRoman"),
            Map.entry("macce", "x-MacCentralEurope"));

    static {
        try (InputStream in = Charsets.class.getResourceAsStream("collations.txt");
             BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            lines.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).forEach(line -> {
                String[] f = line.trim().split("\\s+");
                boolean isDefault = f[3].equals("yes");
                String names = isDefault ? f[2] : f[2] + " COLLATE " + f[1];
                Collation c = new Collation(Integer.parseInt(f[0]), f[1], f[2], isDefault, Integer.parseInt(f[4]),
                        names.intern());
                BY_ID[c.id()] = c;
                BY_NAME.put(c.name(), c);
                if (c.isDefault()) {
                    DEFAULT_OF_CHARSET.put(c.charset(), c);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DEFAULT_OF_CHARSET.keySet().forEach(charset -> {
            String name = JAVA_NAMES.getOrDefault(charset, charset);
            if (Charset.isSupported(name)) {
                JAVA.put(charset, Charset.forName(name));
            }
        });
    }

    private Charsets() {
    }

    /** The Java charset that encodes a MySQL character set (UTF-8 for the few Java lacks). */
    public static Charset java(String mysqlCharset) {
        return JAVA.getOrDefault(canonical(mysqlCharset), StandardCharsets.UTF_8);
    }

    /** The default collation id of a MySQL character set, as column definitions carry it. */
    public static int defaultCollation(String mysqlCharset) {
        Collation c = DEFAULT_OF_CHARSET.get(canonical(mysqlCharset));
        return c != null ? c.id() : DEFAULT_OF_CHARSET.get(FALLBACK).id();
    }

    public static int maxBytesPerChar(String mysqlCharset) {
        Collation c = DEFAULT_OF_CHARSET.get(canonical(mysqlCharset));
        return c != null ? c.maxBytesPerChar() : 4;
    }

    /** The most bytes a character of a collation's character set takes (4 for an unknown id). */
    public static int maxBytesPerChar(int collationId) {
        Collation c = collationId >= 0 && collationId < BY_ID.length ? BY_ID[collationId] : null;
        return c != null ? c.maxBytesPerChar() : 4;
    }

    /** The character set of what SET NAMES takes: {@code x} of {@code x} or {@code x COLLATE y}. */
    public static String ofNames(String names) {
        int space = names.indexOf(' ');
        return space < 0 ? names : names.substring(0, space);
    }

    /**
     * The collation id text columns get after {@code SET NAMES names}: that of {@code y} in {@code x COLLATE y},
     * else the character set's default.
     */
    public static int collationOfNames(String names) {
        String collate = collateOf(names);
        Collation c = collate == null ? null : BY_NAME.get(collate.toLowerCase(Locale.ROOT));
        return c != null ? c.id() : defaultCollation(ofNames(names));
    }

    /** The collation {@code y} of what SET NAMES takes, {@code x COLLATE y}; null for a bare {@code x}. */
    public static String collateOf(String names) {
        int space = names.indexOf(' ');
        return space < 0 ? null : names.substring(names.indexOf(' ', space + 1) + 1).trim();
    }

    /** The character set a client's handshake collation id asks for. */
    public static String ofCollation(int id) {
        Collation c = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
        return c != null ? c.charset() : FALLBACK;
    }

    /**
     * What SET NAMES takes to give a connection the handshake's collation, as the server gives a client connecting
     * with it: {@code x} for a character set's default collation (and for an unknown id, which gets utf8mb4), else
     * {@code x COLLATE y}.
     */
    public static String namesOfCollation(int id) {
        Collation c = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
        return c != null ? c.names() : FALLBACK;
    }

    /** MySQL's {@code utf8} is utf8mb3 (MariaDB's and MySQL 8's default reading of it); names are case-blind. */
    private static String canonical(String mysqlCharset) {
        String lower = mysqlCharset.toLowerCase(Locale.ROOT);
        return lower.equals("utf8") ? "utf8mb3" : lower;
    }

    /**
     * The bytes as text of {@code charset}, or null when they are not valid in it (a binary value, which the caller
     * then keeps as bytes).
     */
    public static String decodeStrict(byte[] bytes, int offset, int length, Charset charset) {
        try {
            return charset.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }
}
