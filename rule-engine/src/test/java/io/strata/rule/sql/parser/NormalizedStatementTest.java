package io.strata.rule.sql.parser;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class NormalizedStatementTest {

    private final SqlParser parser = new SqlParser();

    @Test
    void statementsThatDifferInTheirLiteralsShareOneParse() {
        NormalizedStatement a = parser.parseNormalized("SELECT c FROM sbtest1 WHERE id=5021");
        NormalizedStatement b = parser.parseNormalized("SELECT c FROM sbtest1 WHERE id=17");
        assertSame(a.parsed(), b.parsed(), "one cached parse of SELECT c FROM sbtest1 WHERE id=?");
        assertEquals(List.of(5021L), a.values());
        assertEquals(List.of(17L), b.values());
    }

    @Test
    void stringsAndDecimalsAreValuesToo() {
        NormalizedStatement n = parser.parseNormalized(
                "SELECT * FROM t WHERE name = 'it''s' AND price > 1.50 AND id IN (1, 2)");
        assertEquals(List.of("it's", new BigDecimal("1.50"), 1L, 2L), n.values());
        assertEquals(StatementValues.where(n.parsed(), n.values()).toString(),
                StatementValues.where(parser.parse("SELECT * FROM t WHERE name = 'it''s' AND price > 1.50 "
                        + "AND id IN (1, 2)"), List.of()).toString());
    }

    @Test
    void aTextWithALiteralNoParameterCanStandForIsParsedAsItIs() {
        assertNull(parser.parseNormalized("SELECT * FROM t WHERE d = DATE '2026-01-01'"));
        assertNull(parser.parseNormalized("SELECT * FROM t WHERE n = _utf8mb4'x'"));
        assertNull(parser.parseNormalized("CREATE TABLE t (a DECIMAL(10, 2))"), "DECIMAL(?, ?) does not parse");
        assertNull(parser.parseNormalized("SELECT a FROM t"), "no literal");
    }
}
