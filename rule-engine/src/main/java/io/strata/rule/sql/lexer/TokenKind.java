package io.strata.rule.sql.lexer;

/** What a {@link MySqlLexer} token is, as MySQL's own lexer tells them apart. */
public enum TokenKind {
    /** An unquoted name or keyword: {@code SELECT}, {@code t_order}, {@code 123abc}, {@code _utf8mb4}. */
    WORD,
    /** A backquoted name, quotes included: {@code `my col`}, {@code `a``b`}. */
    QUOTED_NAME,
    /** A string in single or double quotes, quotes included (a name under ANSI_QUOTES, which Strata reads as text). */
    STRING,
    /** {@code 12}, {@code 1.5}, {@code .5}, {@code 7.}, {@code 1e3}, {@code 2.5E-3}. */
    NUMBER,
    /** {@code 0x1F}, {@code X'1F'}, {@code x'1f'}. */
    HEX,
    /** {@code 0b01}, {@code B'01'}, {@code b'01'}. */
    BIT,
    /** {@code N'text'}: a string in the national character set. */
    NATIONAL_STRING,
    /** A prepared statement's {@code ?}. */
    PLACEHOLDER,
    /** {@code @name}, {@code @'name'}, {@code @`name`}, {@code @@version}, {@code @@session.sql_mode}. */
    VARIABLE,
    /**
     * One character of punctuation or of an operator: {@code (}, {@code ,}, {@code ;}, {@code =}, the {@code @} of
     * {@code user@host}... {@link MySqlLexer#readOperator()} joins an operator's characters ({@code <=>}).
     */
    SYMBOL,
    /** {@code /* ... *}{@code /}, {@code -- ...}, {@code # ...}; reported only when asked for. */
    COMMENT,
    /** An optimizer hint, {@code /*+ ... *}{@code /}; reported only when asked for. */
    OPTIMIZER_HINT,
    /**
     * An executable comment, {@code /*! ... *}{@code /}, {@code /*!50700 ... *}{@code /} or MariaDB's
     * {@code /*M! ... *}{@code /}, read as a comment; reported only when asked for.
     */
    EXECUTABLE_COMMENT;

    /** Whether the token is a literal value: a string, a number, a hex, bit or national string, or a {@code ?}. */
    public boolean isLiteral() {
        return this == STRING || this == NUMBER || this == HEX || this == BIT || this == NATIONAL_STRING
                || this == PLACEHOLDER;
    }

    public boolean isComment() {
        return this == COMMENT || this == OPTIMIZER_HINT || this == EXECUTABLE_COMMENT;
    }
}
