package io.strata.rule.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.strata.rule.sql.lexer.RandomStatements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link SqlTokens} on {@link io.strata.rule.sql.lexer.MySqlLexer} cuts random statements as its own scanner did
 * ({@link LegacySqlTokens}): the same strings and names at the same offsets, the same text kept, the same nesting;
 * only a number is one token now. And the bugs of the old cut that the lexer fixes.
 */
class SqlTokensMigrationTest {

    @Test
    void randomStatementsAreCutAsBefore() {
        RandomStatements statements = new RandomStatements(3_141L);
        for (int i = 0; i < 4000; i++) {
            String sql = statements.next();
            SqlTokens now = SqlTokens.of(sql);
            LegacySqlTokens before = LegacySqlTokens.of(sql);
            assertEquals(quoted(before), quoted(now), sql);
            assertEquals(kept(before), kept(now), sql);
            assertEquals(before.maxDepth(), now.maxDepth(), sql);
            assertEquals(before.size() == 0, now.size() == 0, sql);
        }
    }

    /** The old cut read {@code @t_order} as the symbol @ and the name t_order, which the renamer renamed. */
    @Test
    void aUserVariableIsNoTableName() {
        assertEquals("SET @t_order = 1; SELECT * FROM `t_order_1`",
                TableRenamer.rename("SET @t_order = 1; SELECT * FROM t_order", Map.of("t_order", "t_order_1"), "db"));
    }

    /** The old cut made 1e-3 the word 1e, a minus and the number 3, which normalizing made {@code 1e-?}. */
    @Test
    void aNumberWithAnExponentStaysWhole() {
        Object[] normalized = NormalizedStatement.normalize(SqlTokens.of("SELECT * FROM t WHERE a = 1e-3 AND b = 2"));
        assertEquals("SELECT * FROM t WHERE a = 1e-3 AND b = ?", normalized[0]);
        assertEquals(List.of(2L), normalized[1]);
        assertNull(NormalizedStatement.normalize(SqlTokens.of("SELECT * FROM t WHERE a = x'41'")));
    }

    private static List<String> quoted(SqlTokens tokens) {
        List<String> quoted = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            SqlTokens.Token t = tokens.get(i);
            if (t.kind() == io.strata.rule.sql.lexer.TokenKind.STRING
                    || t.kind() == io.strata.rule.sql.lexer.TokenKind.QUOTED_NAME) {
                quoted.add(t.start() + ":" + tokens.text(i));
            }
        }
        return quoted;
    }

    private static List<String> quoted(LegacySqlTokens tokens) {
        List<String> quoted = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            LegacySqlTokens.Token t = tokens.get(i);
            if (t.kind() == LegacySqlTokens.Kind.STRING || t.kind() == LegacySqlTokens.Kind.QUOTED_NAME) {
                quoted.add(t.start() + ":" + tokens.text(i));
            }
        }
        return quoted;
    }

    private static String kept(SqlTokens tokens) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < tokens.size(); i++) {
            text.append(tokens.text(i));
        }
        return text.toString();
    }

    private static String kept(LegacySqlTokens tokens) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < tokens.size(); i++) {
            text.append(tokens.text(i));
        }
        return text.toString();
    }
}
