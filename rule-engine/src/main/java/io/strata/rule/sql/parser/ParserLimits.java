package io.strata.rule.sql.parser;

/**
 * Bounds on what {@link SqlParser} parses and keeps.
 *
 * @param cacheEntries statements kept parsed, by their exact text
 * @param cacheChars   characters of statement text kept parsed, all entries together: a tree weighs about 80 to
 *                     150 bytes per character of its text, so this bounds the cache's memory. A text longer than a
 *                     sixteenth of it is parsed every time (such texts are bulk statements with literals, which
 *                     rarely repeat)
 * @param maxLength    the longest text parsed, in characters; a longer one is unparsed. Parse time grows with
 *                     length: the slowest shapes measured take about 30 ms at 16 KiB
 * @param maxNesting   the deepest nesting of brackets parsed; a deeper one is unparsed. Parse time grows far
 *                     faster than the depth (under 0.5 ms at 32, about a second near 1000), and the parser
 *                     recurses, so very deep nesting would overflow its stack
 */
public record ParserLimits(int cacheEntries, int cacheChars, int maxLength, int maxNesting) {

    /** 4096 statements and 1 Mi characters cached; texts up to 16 KiB and 32 levels of brackets parsed. */
    public static final ParserLimits DEFAULT = new ParserLimits(4096, 1 << 20, 16 * 1024, 32);

    public ParserLimits {
        if (cacheEntries < 1 || cacheChars < 1 || maxLength < 1 || maxNesting < 1) {
            throw new IllegalArgumentException("parser limits must be positive: " + cacheEntries + " entries, "
                    + cacheChars + " cached characters, " + maxLength + " characters, " + maxNesting + " levels");
        }
    }

    /** The longest text the cache keeps. */
    int maxCachedLength() {
        return Math.max(1, cacheChars / 16);
    }
}
