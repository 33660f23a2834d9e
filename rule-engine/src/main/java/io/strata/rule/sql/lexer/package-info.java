/**
 * MySQL's lexical rules once: {@link io.strata.rule.sql.lexer.MySqlLexer}, a cursor over a statement's text that the
 * classifier, the digest, the parser's token helpers and the hint reader share, so that quotes, escapes and comments
 * are read one way everywhere.
 */
package io.strata.rule.sql.lexer;
