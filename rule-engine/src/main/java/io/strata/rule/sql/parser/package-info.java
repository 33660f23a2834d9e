/**
 * The SQL parser layer: {@link io.strata.rule.sql.parser.SqlParser} reads one MySQL statement with JSqlParser into a
 * {@link io.strata.rule.sql.parser.ParsedStatement} (its type, the tables it names and whether it writes them, the
 * tree for conditions and values), cached by exact text. Rules reach it only when they need it (broadcast tables now;
 * sharding, shadow and query routing later); the classifier in {@code io.strata.rule.sql} stays the fast path for
 * everything else. MySQL forms the library cannot read are rewritten for its eyes only ({@code MySqlForms}), LOAD DATA
 * is recognised from tokens, and texts too long or too deeply nested to parse in bounded time come back unparsed.
 */
package io.strata.rule.sql.parser;
