package io.strata.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DataSourceConfigTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            jdbc:mariadb://127.0.0.1:3306/sbtest                          | 127.0.0.1     | 3306 | sbtest
            jdbc:mariadb://db.example.com:13306/orders                    | db.example.com | 13306 | orders
            jdbc:mysql://127.0.0.1:3307/sbtest                            | 127.0.0.1     | 3307 | sbtest
            jdbc:mariadb://127.0.0.1/sbtest                               | 127.0.0.1     | 3306 | sbtest
            jdbc:mariadb://127.0.0.1:3306/sbtest?useServerPrepStmts=true&a=b | 127.0.0.1  | 3306 | sbtest
            jdbc:mysql://localhost/sbtest?sslMode=DISABLED                | localhost     | 3306 | sbtest
            jdbc:mariadb://127.0.0.1:3306                                 | 127.0.0.1     | 3306 | ''
            jdbc:mariadb://127.0.0.1:3306/                                | 127.0.0.1     | 3306 | ''
            jdbc:mariadb://127.0.0.1/?connectTimeout=1000                 | 127.0.0.1     | 3306 | ''
            jdbc:mariadb://127.0.0.1?connectTimeout=1000                  | 127.0.0.1     | 3306 | ''
            jdbc:mariadb://[::1]:3306/sbtest                              | ::1           | 3306 | sbtest
            """)
    void takesHostPortAndSchemaFromTheUrl(String url, String host, int port, String schema) {
        var dataSource = DataSourceConfig.of("ds_0", url, "sbtest", "sbtest", Map.of());

        assertEquals(url, dataSource.url());
        assertEquals(host, dataSource.host());
        assertEquals(port, dataSource.port());
        assertEquals(schema, dataSource.schema());
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {
            "127.0.0.1:3306/sbtest",
            "jdbc:postgresql://127.0.0.1:5432/sbtest",
            "jdbc:mariadb:replication://primary,replica/sbtest",
            "jdbc:mariadb://primary,replica/sbtest",
            "jdbc:mariadb://user:pass@127.0.0.1/sbtest",
            "jdbc:mariadb://127.0.0.1:70000/sbtest",
            "jdbc:mariadb://127.0.0.1:port/sbtest",
            "jdbc:mariadb:///sbtest",
            ""})
    void refusesWhatIsNotASingleMariaDbOrMySqlServer(String url) {
        var error = assertThrows(IllegalArgumentException.class,
                () -> DataSourceConfig.of("ds_0", url, "sbtest", "sbtest", Map.of()));

        assertTrue(error.getMessage().contains("'" + url + "'"), error::getMessage);
    }

    @Test
    void poolSettingsDefaultLikeHikariCpExceptThePoolSize() {
        var dataSource = DataSourceConfig.of("ds_0", "jdbc:mariadb://127.0.0.1/sbtest", "sbtest", "", Map.of());

        assertEquals(64, dataSource.maximumPoolSize());
        assertEquals(30_000, dataSource.connectionTimeoutMillis());
        assertEquals(0, dataSource.minimumIdle());
        assertEquals(600_000, dataSource.idleTimeoutMillis());
        assertEquals(1_800_000, dataSource.maxLifetimeMillis());
    }

    @Test
    void poolSettingsUseHikariCpNames() {
        var dataSource = DataSourceConfig.of("ds_0", "jdbc:mariadb://127.0.0.1/sbtest", "sbtest", "", Map.of(
                "maximumPoolSize", 8, "connectionTimeout", 2_000, "minimumIdle", 2,
                "idleTimeout", 60_000L, "maxLifetime", 3_600_000L));

        assertEquals(8, dataSource.maximumPoolSize());
        assertEquals(2_000, dataSource.connectionTimeoutMillis());
        assertEquals(2, dataSource.minimumIdle());
        assertEquals(60_000, dataSource.idleTimeoutMillis());
        assertEquals(3_600_000, dataSource.maxLifetimeMillis());
    }

    @Test
    void poolSettingsReadAsNumbersMustBeWholeNumbers() {
        assertThrows(IllegalArgumentException.class, () -> DataSourceConfig.of(
                "ds_0", "jdbc:mariadb://127.0.0.1/sbtest", "sbtest", "", Map.of("maximumPoolSize", "64")));
    }

    @Test
    void toStringHidesThePassword() {
        var dataSource = DataSourceConfig.of("ds_0", "jdbc:mariadb://127.0.0.1/sbtest", "sbtest", "s3cr3t", Map.of());

        assertFalse(dataSource.toString().contains("s3cr3t"));
    }
}
