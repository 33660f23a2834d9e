package io.strata.rule.sql.parser;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ParameterInlinerTest {

    @Test
    void valuesTakeThePlacesOfTheirMarks() {
        assertEquals("SELECT * FROM t WHERE a = 1 AND b = 'it''s' AND c IS NULL AND d = 1.50 AND e = DATE'2026-11-27'",
                ParameterInliner.inline("SELECT * FROM t WHERE a = ? AND b = ? AND c IS ? AND d = ? AND e = ?",
                        Arrays.asList(1, "it's", null, new BigDecimal("1.50"), LocalDate.of(2026, 11, 27))));
        assertEquals("SELECT '?' FROM t WHERE a = 2", ParameterInliner.inline("SELECT '?' FROM t WHERE a = ?",
                List.of(2L)), "a ? inside a string is no mark");
    }

    @Test
    void aStringNoSqlModeReadsAlikeGoesAsItsBytes() {
        assertEquals("SELECT CONVERT(X'615c62' USING utf8mb4)", ParameterInliner.inline("SELECT ?", List.of("a\\b")));
        assertEquals("SELECT 2.5E0, X'0102'", ParameterInliner.inline("SELECT ?, ?", List.of(2.5d, new byte[] {1, 2})));
    }

    @Test
    void numberedMarksKeepTheirValueWhereverAPlanMovesThem() {
        String numbered = ParameterInliner.numbered("SELECT a FROM t WHERE b BETWEEN ? AND ? ORDER BY FIELD(a, ?)");
        assertEquals("SELECT a FROM t WHERE b BETWEEN ?1 AND ?2 ORDER BY FIELD(a, ?3)", numbered);
        assertEquals("SELECT a, FIELD(a, 9) FROM t WHERE b BETWEEN 1 AND 5 ORDER BY FIELD(a, 9)",
                ParameterInliner.inline("SELECT a, FIELD(a, ?3) FROM t WHERE b BETWEEN ?1 AND ?2 ORDER BY FIELD(a, ?3)",
                        List.of(1, 5, 9)));
    }

    @Test
    void tooFewValuesAreAnError() {
        assertThrows(IllegalArgumentException.class, () -> ParameterInliner.inline("SELECT ?, ?", List.of(1)));
    }
}
