package io.strata.config;

import static io.strata.config.ConfigFiles.assertRejected;
import static io.strata.config.ConfigFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config-*.yaml: one logical database, its data sources and its rules. */
class DatabaseConfigLoadingTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryValue() {
        Path file = write(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1:3306/sbtest", username: sbtest, password: sbtest, maximumPoolSize: 64 }
                  ds_1:
                    url: jdbc:mysql://10.0.0.2/sbtest_1?useSSL=false
                    username: app
                    password: ""
                    connectionTimeout: 2000
                    minimumIdle: 4
                    idleTimeout: 60000
                    maxLifetime: 900000
                    dataSourceProperties: { cachePrepStmts: true }
                rules:
                  - type: sharding
                    column: id
                    shards: [ds_0, ds_1]
                """);

        var database = ConfigLoader.loadDatabase(file);

        assertEquals("sbtest", database.databaseName());
        assertEquals(List.of("ds_0", "ds_1"), List.copyOf(database.dataSources().keySet()));
        assertEquals(new DataSourceConfig("ds_0", "jdbc:mariadb://127.0.0.1:3306/sbtest", "sbtest", "sbtest",
                "127.0.0.1", 3306, "sbtest", Map.of("maximumPoolSize", 64), "sbtest"), database.defaultDataSource());
        assertEquals(new DataSourceConfig("ds_1", "jdbc:mysql://10.0.0.2/sbtest_1?useSSL=false", "app", "",
                "10.0.0.2", 3306, "sbtest_1", Map.of("connectionTimeout", 2000, "minimumIdle", 4,
                "idleTimeout", 60000, "maxLifetime", 900000, "dataSourceProperties", Map.of("cachePrepStmts", true)),
                "sbtest"), database.dataSources().get("ds_1"));
        assertEquals(List.of(new RuleConfig("sharding", Map.of("column", "id", "shards", List.of("ds_0", "ds_1")))),
                database.rules());
    }

    @Test
    void rulesAndPasswordsMayBeLeftOut() {
        Path file = write(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                """);

        var database = ConfigLoader.loadDatabase(file);

        assertEquals(List.of(), database.rules());
        assertFalse(database.exposeSchemas());
        assertEquals("", database.defaultDataSource().password());
        assertEquals(64, database.defaultDataSource().maximumPoolSize());
    }

    @Test
    void aDatabaseMayExposeItsBackendSchemas() {
        Path file = write(dir, "config-shop.yaml", """
                databaseName: shop
                exposeSchemas: true
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/shop", username: app }
                """);

        assertEquals(true, ConfigLoader.loadDatabase(file).exposeSchemas());
        assertRejected(dir, "config-shop.yaml", """
                databaseName: shop
                exposeSchemas: yes please
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/shop", username: app }
                """, ConfigLoader::loadDatabase, "exposeSchemas", "expected true or false, got 'yes please'");
    }

    @Test
    void loadedValuesAreReadOnly() {
        Path file = write(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                rules: [{ type: sharding, shards: [ds_0] }]
                """);

        var database = ConfigLoader.loadDatabase(file);

        assertThrows(UnsupportedOperationException.class, () -> database.dataSources().clear());
        assertThrows(UnsupportedOperationException.class, () -> database.rules().clear());
        @SuppressWarnings("unchecked")
        var shards = (List<Object>) database.rules().get(0).props().get("shards");
        assertThrows(UnsupportedOperationException.class, () -> shards.add("ds_1"));
    }

    @Test
    void rejectsUnknownTopLevelKeysListingTheKnownOnes() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                datasources: {}
                """, ConfigLoader::loadDatabase, "datasources", "one of databaseName, dataSources, rules, exposeSchemas");
    }

    @Test
    void rejectsAMissingDatabaseName() {
        assertRejected(dir, "config-sbtest.yaml", """
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                """, ConfigLoader::loadDatabase, "databaseName", "expected a non-empty string but it is missing");
    }

    @Test
    void rejectsADatabaseNameThatIsNotAString() {
        assertRejected(dir, "config-2024.yaml", """
                databaseName: 2024
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/db2024", username: app }
                """, ConfigLoader::loadDatabase, "databaseName", "expected a non-empty string, got '2024'");
    }

    @Test
    void rejectsMissingDataSources() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                """, ConfigLoader::loadDatabase, "dataSources", "expected at least one data source");
    }

    @Test
    void rejectsNoDataSources() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources: {}
                """, ConfigLoader::loadDatabase, "dataSources", "expected at least one data source");
    }

    @Test
    void rejectsADataSourceThatIsNotAMapping() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: jdbc:mariadb://127.0.0.1/sbtest
                """, ConfigLoader::loadDatabase, "dataSources.ds_0", "expected a data source mapping with url");
    }

    @Test
    void rejectsAMissingUrl() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { username: sbtest }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.url",
                "expected a JDBC URL like jdbc:mariadb://host:3306/schema but it is missing");
    }

    @Test
    void rejectsAUrlThatIsNotAString() {
        Path file = write(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: 42, username: sbtest }
                """);

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.loadDatabase(file));

        assertEquals(file + ": dataSources.ds_0.url: expected a JDBC URL like jdbc:mariadb://host:3306/schema, got '42'",
                error.getMessage());
    }

    @Test
    void rejectsAUrlOfAnotherDatabase() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:postgresql://127.0.0.1/sbtest", username: sbtest }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.url",
                "expected a JDBC URL like jdbc:mariadb://host:3306/schema, got 'jdbc:postgresql://127.0.0.1/sbtest'");
    }

    @Test
    void readsBackendTlsFromTheUrlAsConnectorJAndRejectsABadModeOrAMissingFile() {
        var database = ConfigLoader.loadDatabase(ConfigFiles.write(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://db:3306/sbtest?sslMode=trust&connectTimeout=100", username: sbtest }
                """));
        assertEquals(new BackendTls("trust", null, null, null, null), database.dataSources().get("ds_0").tls());
        assertEquals("&sslMode=trust", database.dataSources().get("ds_0").tls().urlParameters());
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://db:3306/sbtest?sslMode=maybe", username: sbtest }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.url", "sslMode must be one of");
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://db:3306/sbtest?sslMode=verify-ca&serverSslCert=/no/such/ca.pem",
                          username: sbtest }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.url", "serverSslCert names no readable file");
    }

    @Test
    void rejectsAMissingUsername() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", password: sbtest }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.username", "expected a non-empty string but it is missing");
    }

    @Test
    void rejectsAPasswordThatIsNotAStringWithoutPrintingIt() {
        var error = assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest, password: 31415 }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.password", "expected a string");

        assertFalse(error.getMessage().contains("31415"), error.getMessage());
    }

    @Test
    void rejectsAPoolSizeThatIsNotAPositiveWholeNumber() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest, maximumPoolSize: 0 }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.maximumPoolSize",
                "expected a whole number of at least 1, got '0'");
    }

    @Test
    void rejectsATimeoutWithAUnit() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest, connectionTimeout: 30s }
                """, ConfigLoader::loadDatabase, "dataSources.ds_0.connectionTimeout",
                "expected a whole number of at least 0, got '30s'");
    }

    @Test
    void rejectsRulesThatAreNotAList() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                rules: { type: sharding }
                """, ConfigLoader::loadDatabase, "rules", "expected a list of rules like { type: ..., ... }");
    }

    @Test
    void rejectsARuleThatIsNotAMapping() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                rules: [sharding]
                """, ConfigLoader::loadDatabase, "rules[0]", "expected rules like { type: ..., ... }, got 'sharding'");
    }

    @Test
    void rejectsARuleWithoutAType() {
        assertRejected(dir, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1/sbtest", username: sbtest }
                rules:
                  - { column: id }
                """, ConfigLoader::loadDatabase, "rules[0].type", "expected a non-empty string but it is missing");
    }
}
