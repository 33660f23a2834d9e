package io.strata.protocol;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class CharsetsTest {

    @Test
    void aHandshakesDefaultCollationIsItsCharacterSetAndAnotherOneIsNamed() {
        assertSame("utf8mb4", Charsets.namesOfCollation(45), "interned, as backend connections' own names");
        assertEquals("latin1", Charsets.namesOfCollation(8));
        assertEquals("utf8mb4 COLLATE utf8mb4_unicode_ci", Charsets.namesOfCollation(224));
        assertEquals("utf8mb4 COLLATE utf8mb4_bin", Charsets.namesOfCollation(46));
        assertEquals("utf8mb3 COLLATE utf8mb3_unicode_ci", Charsets.namesOfCollation(192));
        assertEquals("cp1251", Charsets.namesOfCollation(51));
    }

    @Test
    void unknownAndUnusableHandshakeCollationsGetUtf8mb4() {
        assertEquals("utf8mb4", Charsets.namesOfCollation(255), "MySQL 8's utf8mb4_0900_ai_ci");
        assertEquals("utf8mb4", Charsets.namesOfCollation(35), "ucs2 is no client character set");
        assertEquals("utf8mb4", Charsets.namesOfCollation(0));
        assertEquals("utf8mb4", Charsets.ofCollation(255));
        assertEquals("utf8mb3", Charsets.ofCollation(83));
    }

    @Test
    void setNamesGivesTextColumnsItsCollation() {
        assertEquals(45, Charsets.collationOfNames("utf8mb4"));
        assertEquals(46, Charsets.collationOfNames("utf8mb4 COLLATE utf8mb4_bin"));
        assertEquals(47, Charsets.collationOfNames("latin1 collate LATIN1_BIN"));
        assertEquals(33, Charsets.collationOfNames("utf8"));
        assertEquals(8, Charsets.collationOfNames("latin1 COLLATE no_such_collation"));
    }

    @Test
    void characterSetsHaveTheirSizesAndJavaCharsets() {
        assertEquals(1, Charsets.maxBytesPerChar("latin1"));
        assertEquals(3, Charsets.maxBytesPerChar("UTF8"));
        assertEquals(4, Charsets.maxBytesPerChar("utf8mb4"));
        assertEquals(3, Charsets.maxBytesPerChar(33));
        assertEquals(2, Charsets.maxBytesPerChar(Charsets.defaultCollation("sjis")));
        assertEquals("windows-1252", Charsets.java("latin1").name());
        assertEquals("windows-1251", Charsets.java("cp1251").name());
        assertEquals("KOI8-R", Charsets.java("koi8r").name());
        assertEquals("GBK", Charsets.java("gbk").name());
        assertEquals(StandardCharsets.UTF_8, Charsets.java("utf8mb4"));
        assertEquals(StandardCharsets.UTF_8, Charsets.java("armscii8"), "one Java lacks");
    }
}
