package io.strata.rule.sql.parser;

import java.util.List;

import io.strata.rule.sql.LeadingHint;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.StringProvider;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.feature.Feature;
import net.sf.jsqlparser.parser.feature.FeatureConfiguration;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.UnsupportedStatement;

/**
 * Parses one MySQL statement for the rules that need more than the classifier's facts: the tables it names and
 * whether it writes them, and JSqlParser's tree for conditions and values. Only rules that ask pay for it: the
 * empty rule chain and read/write splitting never parse.
 *
 * <p>Never throws for a statement's content: a text the parser rejects, or one too long or too deeply nested to
 * parse in bounded time ({@link ParserLimits}), comes back unparsed with the reason. Thread-safe; one instance is
 * meant to serve every session, so that its cache of parsed statements, keyed by exact text (after a
 * leading Strata or ShardingSphere hint, {@link io.strata.rule.sql.LeadingHint}), is shared.
 */
public final class SqlParser {

    /**
     * How MySQL reads text by default (no ANSI_QUOTES, no NO_BACKSLASH_ESCAPES): {@code "x"} is a string,
     * backslashes escape, {@code #} starts a comment. Shared by every parse and never changed after this.
     */
    private static final FeatureConfiguration MYSQL = new FeatureConfiguration()
            .setValue(Feature.allowBackslashEscapeCharacter, true)
            .setValue(Feature.allowDoubleQuotedStrings, true)
            .setValue(Feature.allowHashLineComments, true)
            .setValue(Feature.allowComplexParsing, false);

    /**
     * MySQL names have at most three parts ({@code db.table.column}); the library's time grows with the square of a
     * longer chain's length (a 2,000-part name takes seconds), so a text holding one is not worth its parse.
     */
    static final int MAX_NAME_PARTS = 4;

    private final ParserLimits limits;
    private final StatementCache cache;

    public SqlParser() {
        this(ParserLimits.DEFAULT);
    }

    public SqlParser(ParserLimits limits) {
        this.limits = limits;
        this.cache = new StatementCache(limits.cacheEntries(), limits.cacheChars());
    }

    /**
     * The statement {@code sql} holds, from the cache when the same text was parsed before: every caller of one
     * text gets the same instance while it stays cached. A miss parses on the calling thread: tens of microseconds
     * for common statements, up to tens of milliseconds for the longest texts the limits allow.
     */
    public ParsedStatement parse(String sql) {
        int hint = LeadingHint.skip(sql); // a hinted text shares the plain text's entry
        return parseText(hint == 0 ? sql : sql.substring(hint));
    }

    /**
     * A text statement parsed as the prepared statement it would be ({@link NormalizedStatement}): statements that
     * differ only in their literals share one cached parse. Null when the text holds no literal to take out, or its
     * normalized form does not parse: parse it as it is then.
     */
    public NormalizedStatement parseNormalized(String sql) {
        int hint = LeadingHint.skip(sql);
        String text = hint == 0 ? sql : sql.substring(hint);
        if (text.length() > limits.maxCachedLength()) {
            return null;
        }
        Object[] normalized = NormalizedStatement.normalize(SqlTokens.of(text));
        if (normalized == null) {
            return null;
        }
        ParsedStatement parsed = parseText((String) normalized[0]);
        if (!parsed.parsed()) {
            return null;
        }
        @SuppressWarnings("unchecked")
        List<Object> values = (List<Object>) normalized[1];
        return new NormalizedStatement((String) normalized[0], parsed, values);
    }

    private ParsedStatement parseText(String sql) {
        ParsedStatement cached = cache.get(sql);
        if (cached != null) {
            return cached;
        }
        ParsedStatement parsed = parseUncached(sql);
        return sql.length() <= limits.maxCachedLength() ? cache.putIfAbsent(sql, parsed) : parsed;
    }

    /** Whether {@code sql} is longer than this parser reads ({@link ParserLimits#maxLength()}). */
    public boolean tooLong(String sql) {
        return sql.length() > limits.maxLength();
    }

    /** Parses {@code sql} without looking at or filling the cache. */
    public ParsedStatement parseUncached(String sql) {
        if (sql.length() > limits.maxLength()) {
            return ParsedStatement.unparsed(StatementType.ofKeywords(SqlTokens.head(sql, 3)), "longer than "
                    + limits.maxLength() + " characters (" + sql.length() + ")");
        }
        SqlTokens tokens = SqlTokens.of(sql);
        if (tokens.size() == 0) {
            return ParsedStatement.unparsed(StatementType.OTHER, "no statement, only comments or blanks");
        }
        if (LoadData.is(tokens)) {
            return LoadData.read(tokens);
        }
        StatementType guess = StatementType.ofKeywords(tokens);
        int depth = tokens.maxDepth();
        if (depth > limits.maxNesting()) {
            return ParsedStatement.unparsed(guess, "brackets nested " + depth + " deep, more than "
                    + limits.maxNesting());
        }
        int parts = tokens.maxNameParts();
        if (parts > MAX_NAME_PARTS) {
            return ParsedStatement.unparsed(guess, "a name of " + parts + " dotted parts, more than "
                    + MAX_NAME_PARTS);
        }
        return parseWithinLimits(MySqlForms.rewrite(tokens), guess);
    }

    /** Parses text within the limits; {@code guess} is the type an unparsed statement reports. */
    private static ParsedStatement parseWithinLimits(String text, StatementType guess) {
        CCJSqlParser parser = new CCJSqlParser(new StringProvider(text)).withConfiguration(MYSQL);
        Statement statement;
        try {
            statement = parser.Statement();
        } catch (ParseException e) {
            return ParsedStatement.unparsed(guess, notUnderstood(e.currentToken));
        } catch (RuntimeException | StackOverflowError e) {
            // the lexer's TokenMgrException, or a fault inside the library: either way not this layer's to throw
            return ParsedStatement.unparsed(guess, "the parser failed: " + untilQuote(String.valueOf(e)));
        }
        if (parser.getToken(1).kind != CCJSqlParserConstants.EOF) {
            return ParsedStatement.unparsed(guess, "more than one statement");
        }
        if (statement instanceof UnsupportedStatement) {
            return ParsedStatement.unparsed(guess, "a statement the parser does not know");
        }
        try {
            return StatementReader.read(statement);
        } catch (RuntimeException e) {
            // a tree of a shape the reader does not expect: routing falls back as for any unparsed statement
            return ParsedStatement.unparsed(guess, "the parser's tree could not be read: " + e);
        }
    }

    /**
     * Where the parser stopped: the token after the last one it accepted. A string is not quoted: the reason goes to
     * logs and error messages, and the string may be a password ({@code SET PASSWORD = PASSWORD 'x'}).
     */
    private static String notUnderstood(Token last) {
        Token next = last == null ? null : last.next;
        if (next == null) {
            return "not understood";
        }
        if (next.kind == CCJSqlParserConstants.EOF) {
            return "ends too early";
        }
        boolean string = next.image.indexOf('\'') >= 0 || next.image.indexOf('"') >= 0;
        return "not understood at " + (string ? "a string" : "'" + next.image + "'") + " (line " + next.beginLine
                + ", column " + next.beginColumn + ")";
    }

    /** A library failure's message up to the text it quotes (the lexer's "after: ..." may hold a password). */
    private static String untilQuote(String message) {
        int quote = message.indexOf('"');
        int single = message.indexOf('\'');
        int end = quote < 0 ? single : single < 0 ? quote : Math.min(quote, single);
        return end < 0 ? message : message.substring(0, end).stripTrailing();
    }
}
