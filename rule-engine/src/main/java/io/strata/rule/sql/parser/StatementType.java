package io.strata.rule.sql.parser;

/** What a parsed statement does, in the detail rules need: the data statements and the DDL that names tables. */
public enum StatementType {
    SELECT, INSERT, REPLACE, UPDATE, DELETE, CREATE_TABLE, ALTER_TABLE, DROP_TABLE, TRUNCATE_TABLE, RENAME_TABLE,
    CREATE_INDEX, DROP_INDEX, LOAD_DATA, OTHER;

    /**
     * What the leading keywords say, for a statement the parser did not read: {@code WITH} is OTHER, since it may
     * lead a SELECT, an UPDATE or a DELETE.
     */
    static StatementType ofKeywords(SqlTokens tokens) {
        if (tokens.isWord(0, "SELECT") || tokens.isSymbol(0, '(') || tokens.isWord(0, "TABLE")) {
            return SELECT;
        }
        for (StatementType type : new StatementType[] {INSERT, REPLACE, UPDATE, DELETE}) {
            if (tokens.isWord(0, type.name())) {
                return type;
            }
        }
        if (tokens.isWord(0, "TRUNCATE")) {
            return TRUNCATE_TABLE;
        }
        if (tokens.isWord(0, "LOAD") && tokens.isWord(1, "DATA")) {
            return LOAD_DATA;
        }
        if (tokens.isWord(0, "RENAME") && tokens.isWord(1, "TABLE")) {
            return RENAME_TABLE;
        }
        if (tokens.isWord(0, "ALTER") && (tokens.isWord(1, "TABLE") || tokens.isWord(2, "TABLE"))) {
            return ALTER_TABLE;
        }
        int i = tokens.isWord(1, "TEMPORARY") ? 2 : 1;
        boolean create = tokens.isWord(0, "CREATE");
        boolean drop = tokens.isWord(0, "DROP");
        if (create && tokens.isWord(i, "TABLE")) {
            return CREATE_TABLE;
        }
        if (create && (tokens.isWord(1, "INDEX") || tokens.isWord(2, "INDEX"))) {
            return CREATE_INDEX;
        }
        if (drop && tokens.isWord(i, "TABLE")) {
            return DROP_TABLE;
        }
        return drop && tokens.isWord(1, "INDEX") ? DROP_INDEX : OTHER;
    }
}
