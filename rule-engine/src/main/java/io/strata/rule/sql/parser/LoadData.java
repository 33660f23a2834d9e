package io.strata.rule.sql.parser;

import java.util.List;

/**
 * Recognises {@code LOAD DATA [LOW_PRIORITY|CONCURRENT] [LOCAL] INFILE 'file' [REPLACE|IGNORE] INTO TABLE t ...}
 * from its tokens: JSqlParser has no grammar for it, and a rule needs only its type and target table.
 */
final class LoadData {

    private LoadData() {
    }

    static boolean is(SqlTokens tokens) {
        return tokens.isWord(0, "LOAD") && tokens.isWord(1, "DATA");
    }

    static ParsedStatement read(SqlTokens tokens) {
        for (int i = 2; i + 2 < tokens.size(); i++) {
            if (tokens.isWord(i, "INTO") && tokens.isWord(i + 1, "TABLE") && tokens.isName(i + 2)) {
                return new ParsedStatement(StatementType.LOAD_DATA, List.of(target(tokens, i + 2)), null, null);
            }
        }
        return ParsedStatement.unparsed(StatementType.LOAD_DATA, "LOAD DATA without INTO TABLE and a table name");
    }

    private static TableName target(SqlTokens tokens, int i) {
        String first = SqlTokens.unquote(tokens.text(i));
        if (tokens.isSymbol(i + 1, '.') && tokens.isName(i + 2)) {
            return new TableName(first, SqlTokens.unquote(tokens.text(i + 2)), true);
        }
        return TableName.written(first);
    }
}
