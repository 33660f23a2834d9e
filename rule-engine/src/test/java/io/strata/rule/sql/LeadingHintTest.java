package io.strata.rule.sql;

import io.strata.rule.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LeadingHintTest {

    @Test
    void strataSpellingTakesBareKeysAndPairs() {
        LeadingHint hint = LeadingHint.of("/* strata:shadow, ds=ds_1 */ SELECT 1");

        assertEquals(Map.of("shadow", "true", "ds", "ds_1"), hint.values());
        assertTrue(hint.says("SHADOW"));
        assertEquals("ds_1", hint.value("ds"));
        assertEquals("/* strata:shadow, ds=ds_1 */ ".length(), hint.end());
    }

    @Test
    void shardingSphereSpellingMeansTheSame() {
        LeadingHint hint = LeadingHint.of("\n /* SHARDINGSPHERE_HINT: SHADOW=true, DATA_SOURCE_NAME=ds_0 */SELECT 1");

        assertTrue(hint.says("shadow"));
        assertEquals("ds_0", hint.value("data_source_name"));
    }

    @Test
    void otherCommentsAreNoHints() {
        for (String sql : new String[]{"/* shadow */ SELECT 1", "/*!40101 SET NAMES utf8 */", "/*+ strata:shadow */",
            "SELECT /* strata:shadow */ 1", "/* strata:shadow", ""}) {
            LeadingHint hint = LeadingHint.of(sql);
            assertTrue(hint.isEmpty(), sql);
            assertEquals(0, hint.end(), sql);
            assertEquals(0, LeadingHint.skip(sql), sql);
        }
        assertFalse(LeadingHint.of("/* strata:shadow=false */ SELECT 1").says("shadow"));
    }

    @Test
    void aHintedStatementSharesThePlainStatementsParse() {
        SqlParser parser = new SqlParser();

        assertSame(parser.parse("SELECT * FROM t_order WHERE user_id = 0"),
                parser.parse("/* strata:shadow */ SELECT * FROM t_order WHERE user_id = 0"));
    }
}
