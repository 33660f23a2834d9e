package io.strata.rule.sql.parser;

import io.strata.rule.sql.lexer.TokenKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A text statement read as the prepared statement it would be: its number and string literals taken out as values
 * and each replaced by {@code ?}, so that statements differing only in their literals share one parse in the cache
 * (a routing rule then reads their conditions with those values, as an execute's). A text whose normalized form the
 * parser does not read the same way (a literal where {@code ?} cannot stand: {@code DATE '...'}, an introducer,
 * an INTERVAL) is parsed as it is instead.
 *
 * @param text   the normalized text
 * @param parsed the parse of the normalized text, its {@code ?} numbered from 1
 * @param values the literals, in order: Long, BigInteger, BigDecimal, Double or String
 */
public record NormalizedStatement(String text, ParsedStatement parsed, List<Object> values) {

    /** The normalized text and its literals, or null when the text holds no literal or one not to take out. */
    static Object[] normalize(SqlTokens tokens) {
        String sql = tokens.sql();
        StringBuilder text = new StringBuilder(sql.length());
        List<Object> values = new ArrayList<>();
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            SqlTokens.Token token = tokens.get(i);
            Object value;
            int end = token.end();
            if (token.kind() == TokenKind.STRING) {
                if (tokens.isSymbol(i - 1, '.') || i > 0 && tokens.get(i - 1).kind() == TokenKind.WORD
                        && !keywordBeforeValue(tokens.text(i - 1))) {
                    return null; // _utf8mb4'x', DATE'x': a literal ? cannot stand for
                }
                value = StatementValues.unescape(tokens.text(i).substring(1, tokens.text(i).length() - 1));
            } else if (quotedLiteral(tokens, i)) {
                return null; // x'ab', b'01', N'x': a literal ? cannot stand for
            } else if (tokens.isDigits(i)) {
                value = wholeNumber(new BigInteger(tokens.text(i)));
            } else if (isDecimal(tokens, i)) {
                value = new BigDecimal(tokens.text(i));
            } else {
                continue;
            }
            text.append(sql, copied, token.start()).append('?');
            copied = end;
            values.add(value);
        }
        if (values.isEmpty()) {
            return null;
        }
        text.append(sql, copied, sql.length());
        return new Object[] {text.toString(), values};
    }

    /** A whole number as a literal is read: a Long when it fits, else the BigInteger. */
    static Object wholeNumber(BigInteger n) {
        return n.bitLength() < 64 ? (Object) n.longValue() : n;
    }

    /** Whether the token at {@code i} is a decimal number written {@code digits.digits} (no exponent). */
    static boolean isDecimal(SqlTokens tokens, int i) {
        if (i < 0 || i >= tokens.size() || tokens.get(i).kind() != TokenKind.NUMBER) {
            return false;
        }
        String text = tokens.text(i);
        int dot = text.indexOf('.');
        return dot > 0 && dot < text.length() - 1 && isDigits(text.substring(0, dot))
                && isDigits(text.substring(dot + 1));
    }

    /** Whether the token at {@code i} is a hex, bit or national string in quotes ({@code x'ab'}, not {@code 0xab}). */
    private static boolean quotedLiteral(SqlTokens tokens, int i) {
        TokenKind kind = tokens.get(i).kind();
        return (kind == TokenKind.HEX || kind == TokenKind.BIT || kind == TokenKind.NATIONAL_STRING)
                && tokens.text(i).charAt(1) == '\'';
    }

    static boolean isDigits(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (word.charAt(i) < '0' || word.charAt(i) > '9') {
                return false;
            }
        }
        return !word.isEmpty();
    }

    /** Words after which a string is a value: operators and clauses, not a type name or an introducer. */
    private static boolean keywordBeforeValue(String word) {
        return switch (word.toUpperCase(java.util.Locale.ROOT)) {
            case "AND", "OR", "NOT", "IN", "LIKE", "BETWEEN", "IS", "VALUES", "VALUE", "SET", "WHERE", "SELECT",
                 "THEN", "ELSE", "WHEN", "XOR", "REGEXP", "RLIKE", "HAVING", "ON", "BY", "RETURN", "DEFAULT" -> true;
            default -> false;
        };
    }
}
