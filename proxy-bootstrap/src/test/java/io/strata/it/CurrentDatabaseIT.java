package io.strata.it;

import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A logical database {@code shop} on the backend schema {@code shop_backend} shows its own name wherever a client
 * sees the current database: each form, drawn as every spelling of DATABASE() and SCHEMA() in every place of a
 * statement, answers through Strata as it answers on a schema really named {@code shop} (same tables), labels and
 * values, in the text and the binary protocol. (Not drawn: a filter comparing DATABASE() with the logical name as a
 * string, {@code WHERE 'shop' = DATABASE()}, which keeps the backend's meaning as information_schema filters need.)
 */
class CurrentDatabaseIT {

    private static final String[] FUNCTIONS = {"DATABASE()", "SCHEMA()", "database()", "Schema()"};
    private static final String[] PLACES = {
            "SELECT %s", "SELECT %s, 1", "SELECT 1, %s", "SELECT %s AS d", "SELECT %s d2, 2",
            "SELECT CONCAT(%s, '.x')", "SELECT UPPER(%s), id FROM t_a ORDER BY id", "SELECT (SELECT %s)",
            "SELECT x.d FROM (SELECT %s AS d) x", "SELECT id FROM t_a UNION ALL SELECT %s",
            "SELECT %s FROM t_a WHERE id = 1", "SELECT COUNT(*), %s FROM t_a", "SELECT IFNULL(%s, 'none')",
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY 1",
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY 2",
            "SELECT t.TABLE_SCHEMA AS s FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = %s "
                    + "AND t.table_name = 't_a'",
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name = %s",
            "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = %s"};
    private static final String[] SHOW = {"SHOW TABLES", "SHOW FULL TABLES", "SHOW TABLES LIKE 't_%'",
            "show full tables like 't_a'", "SHOW TABLES WHERE Tables_in_shop <> 't_b'"};

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws SQLException {
        Backend.server().createDatabase("shop_backend", "strata", "strata");
        Backend.server().createDatabase("shop", "strata", "strata");
        for (String schema : List.of("shop_backend", "shop")) {
            Backend.server().execute(schema, "strata", "strata", "DROP TABLE IF EXISTS t_a", "DROP TABLE IF EXISTS t_b",
                    "CREATE TABLE t_a (id INT PRIMARY KEY)", "CREATE TABLE t_b (id INT PRIMARY KEY)",
                    "INSERT INTO t_a VALUES (1), (2)");
        }
        strata = StrataFixture.withSecondDatabase("shop", "shop_backend");
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    /** Every form, drawn from the places a function may stand and its spellings, and SHOW TABLES' forms. */
    static List<String> forms() {
        List<String> forms = new ArrayList<>();
        for (String place : PLACES) {
            for (String function : FUNCTIONS) {
                forms.add(place.formatted(function));
            }
        }
        forms.addAll(List.of(SHOW));
        return forms;
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void everyFormShowsTheLogicalDatabase(Driver driver, boolean binary) throws SQLException {
        try (Connection plain = StrataFixture.connect(Backend.server().port(), "shop", driver, binary, "strata");
             Connection through = StrataFixture.connect(strata.port(), "shop", driver, binary)) {
            int named = 0;
            for (String sql : forms()) {
                List<String> expected = answer(plain, sql, binary);
                named += String.join(" ", expected).contains("shop") ? 1 : 0;
                assertEquals(expected, answer(through, sql, binary), sql);
            }
            assertTrue(named >= 40, named + " forms name the database");
        }
    }

    /** The column labels, then each row's values. */
    private static List<String> answer(Connection c, String sql, boolean binary) throws SQLException {
        try (Statement st = c.createStatement(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = binary ? ps.executeQuery() : st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> answer = new ArrayList<>();
            StringBuilder labels = new StringBuilder();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                labels.append(meta.getColumnLabel(i)).append('|');
            }
            answer.add(labels.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.append(rs.getString(i)).append('|');
                }
                answer.add(row.toString());
            }
            return answer;
        }
    }
}
