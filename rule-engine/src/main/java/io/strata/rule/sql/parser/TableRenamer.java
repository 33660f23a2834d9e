package io.strata.rule.sql.parser;

import java.util.Locale;
import java.util.Map;

/**
 * Renames tables in a statement's text, token by token, leaving everything else as written (comments, spacing,
 * index hints, the MySQL forms the parser library cannot read): a sharded statement's logical table names become
 * the actual tables of one data node. A name is renamed wherever it stands as a table, bare or backquoted, and as a
 * qualifier ({@code t_order.user_id}); a qualifier naming the logical database ({@code shop.t_order}) is dropped,
 * since a data source's own schema holds the actual table. An index name the statement writes becomes the actual
 * table's ({@link IndexNames}: {@code order_index} of {@code t_order_0} is {@code order_index_t_order_0}).
 */
public final class TableRenamer {

    private TableRenamer() {
    }

    /**
     * @param renames  logical table name, lower case, to the actual one
     * @param database the logical database's name, dropped where it qualifies a renamed table
     * @throws IllegalArgumentException where a renamed name stands as a column ({@code alias.t_order}): the
     *                                  statement cannot be renamed safely
     */
    public static String rename(String sql, Map<String, String> renames, String database) {
        SqlTokens tokens = SqlTokens.of(sql);
        Map<Integer, String> indexes = indexes(tokens, renames);
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            String index = indexes.get(i);
            if (index != null) {
                out.append(sql, copied, tokens.get(i).start()).append('`').append(index.replace("`", "``"))
                        .append('`');
                copied = tokens.get(i).end();
                continue;
            }
            if (!tokens.isName(i)) {
                continue;
            }
            String actual = renames.get(SqlTokens.unquote(tokens.text(i)).toLowerCase(Locale.ROOT));
            if (actual == null) {
                continue;
            }
            int start = tokens.get(i).start();
            boolean qualified = tokens.isSymbol(i - 1, '.') && tokens.isName(i - 2);
            if (!qualified && actual.equals(SqlTokens.unquote(tokens.text(i)))) {
                continue; // the actual table has the logical name: the text stays as the client wrote it
            }
            if (qualified) {
                String qualifier = SqlTokens.unquote(tokens.text(i - 2));
                if (!qualifier.equalsIgnoreCase(database) || tokens.isSymbol(i - 3, '.')) {
                    throw new IllegalArgumentException(tokens.text(i - 2) + "." + tokens.text(i) + " names a column "
                            + "or a table of another database like the sharded table " + tokens.text(i));
                }
                start = tokens.get(i - 2).start(); // shop.t_order: the data source's own schema holds it
            }
            out.append(sql, copied, start).append('`').append(actual.replace("`", "``")).append('`');
            copied = tokens.get(i).end();
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** Whether renaming may change the text though every table keeps its name: it names an index. */
    public static boolean namesIndexes(String sql) {
        return IndexNames.mayHold(sql);
    }

    /**
     * The index names to write, by token: {@code <index>_<actual table>}, as ShardingSphere names an index on each
     * actual table. A DDL statement's indexes belong to its one table; a hint's to the table named before it.
     */
    private static Map<Integer, String> indexes(SqlTokens tokens, Map<String, String> renames) {
        if (!IndexNames.named(tokens)) {
            return Map.of();
        }
        Map<Integer, String> indexes = new java.util.HashMap<>();
        for (IndexNames.Found found : IndexNames.of(tokens, renames)) {
            String actual = found.table() >= 0
                    ? renames.get(SqlTokens.unquote(tokens.text(found.table())).toLowerCase(Locale.ROOT))
                    : renames.size() == 1 ? renames.values().iterator().next() : null;
            if (actual != null) {
                indexes.put(found.token(), SqlTokens.unquote(tokens.text(found.token())) + "_" + actual);
            }
        }
        return indexes;
    }
}
