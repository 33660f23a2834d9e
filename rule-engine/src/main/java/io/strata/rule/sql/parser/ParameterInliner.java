package io.strata.rule.sql.parser;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes a prepared statement's parameter values into its text as literals, for a statement a rule rewrites and
 * runs as text on several data sources: each {@code ?} outside strings and comments becomes its value, typed as the
 * binary protocol bound it (a string quoted so that no sql_mode reads it differently; bytes as
 * {@code X'...'}; dates and times as typed literals; a double in E notation, so the server reads a double).
 */
public final class ParameterInliner {

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private ParameterInliner() {
    }

    /**
     * @throws IllegalArgumentException when the text holds another number of {@code ?} than values (a numbered
     *                                  {@code ?n}, as {@link #numbered} writes them, takes value n and may repeat)
     */
    public static String inline(String sql, List<Object> params) {
        SqlTokens tokens = SqlTokens.of(sql);
        StringBuilder out = new StringBuilder(sql.length() + params.size() * 8);
        int copied = 0;
        int next = 0;
        boolean numbered = false;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.isPlaceholder(i)) {
                int start = tokens.get(i).start();
                int end = tokens.get(i).end();
                int index;
                if (numberedMark(tokens, i)) {
                    index = Integer.parseInt(tokens.text(i + 1)) - 1; // ?n
                    end = tokens.get(i + 1).end();
                    numbered = true;
                    i++;
                } else {
                    index = next++;
                }
                if (index < 0 || index >= params.size()) {
                    throw new IllegalArgumentException("a ? beyond the " + params.size() + " values bound");
                }
                out.append(sql, copied, start).append(literal(params.get(index)));
                copied = end;
            }
        }
        if (!numbered && next != params.size()) {
            throw new IllegalArgumentException(params.size() + " values bound to " + next + " ?");
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /**
     * The text with plain {@code ?} for its {@code count} values, when they stand in it in order, each once (a
     * statement of them then runs prepared with the same values); else null. Numbered markers ({@link #numbered})
     * must be {@code ?1} to {@code ?count}, in that order.
     */
    public static String sequential(String sql, int count) {
        SqlTokens tokens = SqlTokens.of(sql);
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        int next = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.isPlaceholder(i)) {
                next++;
                int end = tokens.get(i).end();
                if (numberedMark(tokens, i)) {
                    if (Integer.parseInt(tokens.text(i + 1)) != next) {
                        return null;
                    }
                    out.append(sql, copied, end);
                    copied = tokens.get(++i).end();
                }
            }
        }
        return next != count ? null : copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** The text with each {@code ?} numbered ({@code ?1}, {@code ?2}...): a tree's copy of one keeps its number. */
    public static String numbered(String sql) {
        SqlTokens tokens = SqlTokens.of(sql);
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        int n = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.isPlaceholder(i)) {
                out.append(sql, copied, tokens.get(i).end()).append(++n);
                copied = tokens.get(i).end();
            }
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** Whether the {@code ?} at token {@code i} is numbered ({@code ?n}, as {@link #numbered} writes it). */
    private static boolean numberedMark(SqlTokens tokens, int i) {
        return i + 1 < tokens.size() && tokens.get(i + 1).start() == tokens.get(i).end() && tokens.isDigits(i + 1);
    }

    /** A value as a SQL literal the server reads as the same value of the same type. */
    public static String literal(Object value) {
        return switch (value) {
            case null -> "NULL";
            case Byte b -> b.toString();
            case Short s -> s.toString();
            case Integer n -> n.toString();
            case Long n -> n.toString();
            case java.math.BigInteger n -> n.toString();
            case BigDecimal d -> d.toPlainString();
            case Float f -> doubleLiteral(f.doubleValue());
            case Double d -> doubleLiteral(d);
            case Boolean b -> b ? "1" : "0";
            case String s -> string(s);
            case byte[] bytes -> bytes.length == 0 ? "''" : "X'" + HexFormat.of().formatHex(bytes) + "'";
            case LocalDate date -> "DATE'" + date + "'";
            case LocalDateTime time -> "TIMESTAMP'" + DATE_TIME.format(time) + "'";
            case Duration duration -> "TIME'" + time(duration) + "'";
            default -> string(value.toString());
        };
    }

    /**
     * A string quoted with its quotes doubled, which every sql_mode reads alike; one holding a backslash or a
     * control character (read differently under NO_BACKSLASH_ESCAPES) as its UTF-8 bytes converted.
     */
    private static String string(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\\' || s.charAt(i) < 0x20) {
                return "CONVERT(X'" + HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8)) + "' USING utf8mb4)";
            }
        }
        return "'" + s.replace("'", "''") + "'";
    }

    private static String doubleLiteral(double d) {
        String text = Double.toString(d);
        return text.contains("E") ? text : text + "E0";
    }

    /** TIME's text: [-]hhh:mm:ss.ffffff (hours may pass 24). */
    private static String time(Duration duration) {
        boolean negative = duration.isNegative();
        Duration d = duration.abs();
        return String.format("%s%d:%02d:%02d.%06d", negative ? "-" : "", d.toHours(), d.toMinutesPart(),
                d.toSecondsPart(), d.toNanosPart() / 1000);
    }
}
