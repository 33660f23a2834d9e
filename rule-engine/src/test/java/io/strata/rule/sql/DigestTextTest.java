package io.strata.rule.sql;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

class DigestTextTest {

    @Test
    void literalsBecomePlaceholdersNamesAreBackquotedKeywordsUpperCased() {
        assertDigest("SELECT `name` FROM `t_dict` WHERE `id` = ?", "select name from t_dict where id=1");
        assertDigest("SELECT `a` , `b` FROM `t` WHERE `c` = ? AND `d` LIKE ?",
                "SELECT a,b FROM t WHERE c = 'x' AND d LIKE 'y%'");
        assertDigest("SELECT COUNT ( * ) FROM `t_order`", "select count(*) from t_order");
    }

    @Test
    void statementsThatDifferOnlyInLiteralsShareOneDigest() {
        assertEquals(DigestText.of("SELECT * FROM t_order WHERE user_id = 10 AND status = 'PAID'"),
                DigestText.of("select *   from t_order\nwhere user_id=7 and status='NEW'"));
    }

    @Test
    void aListOfLiteralsCollapsesAndInListsOfAnyLengthAgree() {
        assertDigest("SELECT * FROM `t` WHERE `id` IN (...)", "SELECT * FROM t WHERE id IN (1, 2, 3)");
        assertDigest("SELECT * FROM `t` WHERE `id` IN (...)", "SELECT * FROM t WHERE id IN (1)");
        assertDigest("SELECT * FROM `t` WHERE `c` NOT IN (...)", "SELECT * FROM t WHERE c NOT IN ('a', \"b\")");
        assertDigest("SELECT * FROM `t` WHERE `d` IN (...)", "SELECT * FROM t WHERE d IN (-1, +2, 0x0F)");
        // MySQL's own shape for one value in brackets elsewhere
        assertDigest("SELECT * FROM `t` WHERE `a` = (?)", "SELECT * FROM t WHERE a = (5)");
    }

    @Test
    void aBracketWithMoreThanLiteralsStaysAsWritten() {
        assertDigest("SELECT * FROM `t` WHERE `id` IN ( ? , `a` , ? )", "SELECT * FROM t WHERE id IN (1, a, 2)");
        assertDigest("SELECT * FROM `t` WHERE `id` IN ( SELECT `id` FROM `u` WHERE `x` = ? )",
                "SELECT * FROM t WHERE id IN (SELECT id FROM u WHERE x = 1)");
        assertDigest("SELECT * FROM `t` WHERE `a` IN ( ? , ? , NULL )", "SELECT * FROM t WHERE a IN (1, 2, NULL)");
        assertDigest("SELECT NOW ( ) , CONCAT ( `a` , ? )", "SELECT NOW(), CONCAT(a, '-')");
    }

    @Test
    void manyRowsOfValuesCollapseToTheFirst() {
        assertDigest("INSERT INTO `t` ( `a` , `b` ) VALUES (...) /* , ... */",
                "INSERT INTO t (a, b) VALUES (1,'a'),(2,'b'),(3,'c')");
        assertDigest("INSERT INTO `t` ( `a` , `b` ) VALUES (...) /* , ... */",
                "INSERT INTO t (a, b) VALUES (1,'a'), (2,'b')");
        assertDigest("INSERT INTO `t` ( `a` ) VALUES (?) /* , ... */", "INSERT INTO t (a) VALUES (1), (2), (3)");
        assertDigest("INSERT INTO `t` ( `a` , `b` ) VALUES (...) ON DUPLICATE KEY UPDATE `b` = VALUES ( `b` )",
                "insert into t(a,b) values (1,'a') on duplicate key update b=values(b)");
        assertDigest("INSERT INTO `t` VALUES (...)", "INSERT INTO t VALUES (1, 'a')");
        assertDigest("INSERT INTO `t` VALUES (...) , ( ? , NOW ( ) )", "INSERT INTO t VALUES (1, 2), (3, NOW())");
    }

    @Test
    void aHugeListCostsNoRoom() {
        StringJoiner ids = new StringJoiner(",", "SELECT * FROM t WHERE id IN (", ")");
        StringJoiner rows = new StringJoiner(",", "INSERT INTO t (a, b) VALUES ", "");
        for (int i = 0; i < 100_000; i++) {
            ids.add(String.valueOf(i));
            rows.add("(" + i + ", 'name " + i + "')");
        }
        assertDigest("SELECT * FROM `t` WHERE `id` IN (...)", ids.toString());
        assertDigest("INSERT INTO `t` ( `a` , `b` ) VALUES (...) /* , ... */", rows.toString());
    }

    @Test
    void commentsAreDroppedAndWhitespaceFolded() {
        assertDigest("SELECT `a` , `b` FROM `t` WHERE `x` = ?",
                "/* leading */ SELECT\n\t a,   b -- tail\nFROM t # hash comment\n WHERE x = 1 /*! AND y = 2 */ ;");
        assertDigest("SELECT * FROM `t`", "SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t");
        assertDigest("", "  /* nothing but a comment */  ");
        assertDigest("", "/*!40101 SET NAMES utf8 */");
    }

    @Test
    void aSignFoldsIntoTheNumberOnlyWhereItIsUnary() {
        assertDigest("SELECT `a` - ? FROM `t`", "SELECT a - 1 FROM t");
        assertDigest("SELECT `a` - ? , `b` + ? FROM `t`", "SELECT a-1, b+2 FROM t");
        assertDigest("SELECT ? , ? FROM `t` WHERE `id` = ? AND `c` > ? AND `d` BETWEEN ? AND ?",
                "SELECT -1, +1.5 FROM t WHERE id = -5 AND c > - 3 AND d BETWEEN -10 AND -1");
        assertDigest("SELECT COUNT ( * ) - ? FROM `t`", "SELECT COUNT(*) - 1 FROM t");
        assertDigest("SELECT NULL - ? , CASE WHEN `a` THEN ? ELSE ? END - ?",
                "SELECT NULL - 1, CASE WHEN a THEN -1 ELSE -2 END - 3");
    }

    @Test
    void stringsOfEveryKindAreOneLiteral() {
        assertDigest("SELECT ? , ? , ? , ? , ? , ? , ?",
                "SELECT 'it''s', 'it\\'s', \"say \\\"hi\\\"\", _utf8mb4'x', _binary 'y', N'z', 'a' 'b'");
        assertDigest("SELECT * FROM `t` WHERE `s` = ? COLLATE `utf8mb4_bin`",
                "SELECT * FROM t WHERE s = 'x;--' COLLATE utf8mb4_bin");
        assertDigest("SELECT DATE ? , `date` FROM `t`", "SELECT DATE '2024-01-01', date FROM t");
    }

    @Test
    void numbersOfEveryKindAreLiteralsButADigitLedNameIsAName() {
        assertDigest("SELECT ? , ? , ? , ? , ? , ? , ? , ? , ? , ? FROM `123abc`",
                "SELECT 0x1F, X'ab', x'AB', b'01', 0b01, 1.5, .5, 1e3, 2.5E-3, 7. FROM 123abc");
        assertDigest("SELECT `t` . `1a` , `t` . `col` FROM `t`", "SELECT t.1a, t.col FROM t");
    }

    @Test
    void aPreparedStatementHasItsTextFormsDigest() {
        assertEquals(DigestText.of("SELECT * FROM t_order WHERE user_id = 10 AND status IN ('PAID', 'NEW') LIMIT 20"),
                DigestText.of("SELECT * FROM t_order WHERE user_id = ? AND status IN (?, ?) LIMIT ?"));
        assertEquals(DigestText.of("SELECT * FROM t WHERE id IN (1, 2, 3, 4, 5)"),
                DigestText.of("SELECT * FROM t WHERE id IN (?)"));
        assertEquals(DigestText.of("INSERT INTO t (a, b) VALUES (1, 'a'), (-2, _utf8mb4'b')"),
                DigestText.of("INSERT INTO t (a, b) VALUES (?, ?), (?, ?)"));
        assertEquals(DigestText.of("UPDATE t SET a = -1.5 WHERE id = 3"),
                DigestText.of("UPDATE t SET a = ? WHERE id = ?"));
    }

    @Test
    void keywordsAreKeywordsInAnyCaseAndFunctionNamesOnlyWhereCalled() {
        assertDigest("SELECT COUNT ( * ) FROM `t` WHERE `a` IS NOT NULL ORDER BY `b` DESC LIMIT ?",
                "SeLeCt CoUnT(*) fRoM t wHeRe a iS nOt NuLl oRdEr By b DeSc LiMiT 10");
        assertDigest("SELECT `count` , `version` , VERSION ( ) FROM `t`", "SELECT count, version, version() FROM t");
        assertDigest("SELECT `t` . `select` , `t` . `order` FROM `db` . `t`",
                "select t.select, t.`order` from db.t");
        assertDigest("UPDATE `t` SET `a` = NULL , `b` = TRUE WHERE `c` IS FALSE",
                "update t set a = null, b = true where c is false");
        assertDigest("START TRANSACTION", "start transaction");
        assertDigest("SELECT * FROM `t` WHERE `id` = ? FOR UPDATE", "select * from t where id = 1 for update");
    }

    @Test
    void backquotedNamesKeepTheirText() {
        assertDigest("SELECT `my col` , `a``b` , `Name` FROM `db` . `t`",
                "SELECT `my col`, `a``b`, `Name` FROM `db`.`t`");
    }

    @Test
    void variablesAndOperatorsAreOneTokenEach() {
        assertDigest("SELECT @@session.autocommit , @@version , @a := ? , @`x y`",
                "SELECT @@session.autocommit, @@version, @a := 1, @`x y`");
        assertDigest("SELECT `doc` -> ? , `doc` ->> ? FROM `t` WHERE `a` <=> `b` OR `c` != `d` OR `e` <> `f` "
                        + "OR `g` >= ? OR `h` <= ? OR `i` || `j` && `k` OR `m` << ?",
                "SELECT doc->'$.a', doc->>'$.b' FROM t WHERE a<=>b OR c!=d OR e<>f OR g>=1 OR h<=2 OR i||j&&k OR m<<3");
        assertDigest("CREATE USER ? @ ?", "CREATE USER 'app'@'localhost'");
    }

    @Test
    void aTrailingSemicolonIsDroppedAndStatementsInBetweenKeepTheirs() {
        assertDigest("SELECT ?", "SELECT 1;");
        assertDigest("SELECT ? ; SELECT ?", "SELECT 1; SELECT 2;;");
    }

    @Test
    void aLongDigestIsCutTo1024Characters() {
        StringJoiner columns = new StringJoiner(", ", "SELECT ", " FROM t");
        for (int i = 0; i < 500; i++) {
            columns.add("column_" + i);
        }
        String digest = DigestText.of(columns.toString());

        assertEquals(DigestText.MAX_LENGTH, digest.length());
        assertTrue(digest.startsWith("SELECT `column_0` , `column_1` , "), digest);
        assertTrue(digest.endsWith("..."), digest);
    }

    @Test
    void unterminatedTextEndsTheDigest() {
        assertDigest("", null);
        assertDigest("SELECT ?", "SELECT 'abc");
        assertDigest("SELECT ?", "SELECT \"abc\\");
        assertDigest("SELECT `abc`", "SELECT `abc");
        assertDigest("SELECT ?", "SELECT 1 /* never closed");
        assertDigest("SELECT * FROM `t` WHERE `a` IN ( ? , ? ,", "SELECT * FROM t WHERE a IN (1, 2,");
        assertDigest("INSERT INTO `t` VALUES (?) , (", "INSERT INTO t VALUES (1), (");
    }

    @Test
    void anyTextHasADigestAndNoneThrows() {
        String alphabet = "'\"`\\/*-#+(),.;?@=<>!:|&_$xXbBnNeE0123456789 \t\nSELECTinfromwhereVALUES";
        Random random = new Random(20_240_601L);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(round % 100 == 0 ? 3000 : 80);
            for (int k = 0; k < length; k++) {
                text.append(random.nextInt(8) == 0 ? (char) random.nextInt(Character.MAX_VALUE + 1)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String sql = text.toString();
            String digest = assertDoesNotThrow(() -> DigestText.of(sql), sql);

            assertTrue(digest.length() <= DigestText.MAX_LENGTH, sql);
            assertFalse(digest.startsWith(" ") || digest.endsWith(" "), sql);
        }
    }

    private static void assertDigest(String expected, String sql) {
        assertEquals(expected, DigestText.of(sql), sql);
    }
}
