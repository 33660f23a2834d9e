package io.strata.config;

import static io.strata.config.ConfigFiles.assertMentions;
import static io.strata.config.ConfigFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole conf directory: server.yaml plus one config-*.yaml per logical database. */
class ConfigLoaderTest {

    private static final String SERVER_YAML = """
            server: { host: 0.0.0.0, port: 3307 }
            users:
              - { name: root, password: root, databases: ["*"] }
            """;

    @TempDir
    Path conf;

    @Test
    void loadsTheServerAndEveryDatabase() {
        write(conf, "server.yaml", SERVER_YAML);
        write(conf, "config-sbtest.yaml", """
                databaseName: sbtest
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1:3306/sbtest", username: sbtest, password: sbtest, maximumPoolSize: 64 }
                rules: []
                """);

        StrataConfig config = ConfigLoader.load(conf);

        assertEquals(ServerConfig.defaults(List.of(new UserConfig("root", "root", List.of("*")))), config.server());
        assertEquals(Map.of("sbtest", new DatabaseConfig("sbtest", Map.of("ds_0", DataSourceConfig.of("ds_0",
                        "jdbc:mariadb://127.0.0.1:3306/sbtest", "sbtest", "sbtest", Map.of("maximumPoolSize", 64))),
                        List.of())),
                config.databases());
    }

    /** A ShardingSphere file's data sources as it writes them, JDBC's form and the proxy's, read as Strata's. */
    @Test
    void readsShardingSpheresDataSourceKeysAsWritten() {
        write(conf, "server.yaml", SERVER_YAML);
        write(conf, "config-shop.yaml", """
                databaseName: shop
                dataSources:
                  ds_0:
                    dataSourceClassName: com.zaxxer.hikari.HikariDataSource
                    driverClassName: com.mysql.cj.jdbc.Driver
                    jdbcUrl: jdbc:mysql://127.0.0.1:3306/demo_ds_0
                    username: root
                    password: secret
                    maxPoolSize: 50
                  ds_1:
                    url: jdbc:mysql://127.0.0.1:3306/demo_ds_1
                    username: root
                    password: secret
                    connectionTimeoutMilliseconds: 30000
                    idleTimeoutMilliseconds: 60000
                    maxLifetimeMilliseconds: 1800000
                    maxPoolSize: 20
                    minPoolSize: 1
                rules: []
                """);

        Map<String, DataSourceConfig> dataSources = ConfigLoader.load(conf).databases().get("shop").dataSources();

        assertEquals(DataSourceConfig.of("ds_0", "jdbc:mysql://127.0.0.1:3306/demo_ds_0", "root", "secret",
                Map.of("maximumPoolSize", 50)).inDatabase("shop"), dataSources.get("ds_0"));
        assertEquals(DataSourceConfig.of("ds_1", "jdbc:mysql://127.0.0.1:3306/demo_ds_1", "root", "secret",
                Map.of("connectionTimeout", 30000, "idleTimeout", 60000, "maxLifetime", 1800000,
                        "maximumPoolSize", 20, "minimumIdle", 1)).inDatabase("shop"), dataSources.get("ds_1"));

        write(conf, "config-shop.yaml", """
                databaseName: shop
                dataSources:
                  ds_0: { dataSourceClassName: org.apache.commons.dbcp2.BasicDataSource, url: "jdbc:mysql://h/d", username: u, password: p }
                rules: []
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));
        assertTrue(e.getMessage().contains("dataSources.ds_0.dataSourceClassName: expected "
                + "com.zaxxer.hikari.HikariDataSource"), e.getMessage());
    }

    @Test
    void ordersDatabasesByFileNameAndIgnoresOtherFiles() {
        write(conf, "server.yaml", SERVER_YAML);
        write(conf, "config-b.yaml", database("alpha"));
        write(conf, "config-a.yaml", database("zulu"));
        write(conf, "logback.yaml", "not: a database");
        write(conf, "config-c.yml", "not: read either");

        assertEquals(List.of("zulu", "alpha"), List.copyOf(ConfigLoader.load(conf).databases().keySet()));
    }

    @Test
    void namesFilesAsTheDirectoryWasGiven() {
        Path relative = Path.of("").toAbsolutePath().relativize(conf);
        write(conf, "server.yaml", "users: []");

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.load(relative));

        assertTrue(error.getMessage().startsWith(relative.resolve("server.yaml") + ": users: "), error::getMessage);
    }

    @Test
    void requiresServerYaml() {
        write(conf, "config-sbtest.yaml", database("sbtest"));

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));

        assertEquals(conf.resolve("server.yaml") + ": expected a YAML file but it is missing", error.getMessage());
    }

    @Test
    void requiresAtLeastOneDatabaseFile() {
        write(conf, "server.yaml", SERVER_YAML);

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));

        assertEquals(conf.resolve("config-*.yaml") + ": expected at least one database configuration file "
                + "but it is missing", error.getMessage());
    }

    @Test
    void rejectsTwoFilesDeclaringTheSameDatabase() {
        write(conf, "server.yaml", SERVER_YAML);
        Path first = write(conf, "config-sbtest.yaml", database("sbtest"));
        Path second = write(conf, "config-sbtest-copy.yaml", database("sbtest"));

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));

        // "config-sbtest-copy.yaml" sorts first, so the other file is the duplicate.
        assertMentions(error, first + ": databaseName", "expected a name not already used by " + second,
                "got 'sbtest'");
    }

    @Test
    void reportsTheFirstBadDatabaseFile() {
        write(conf, "server.yaml", SERVER_YAML);
        write(conf, "config-a.yaml", database("a"));
        Path broken = write(conf, "config-b.yaml", "databaseName: [b]");

        var error = assertThrows(ConfigException.class, () -> ConfigLoader.load(conf));

        assertMentions(error, broken + ": databaseName", "expected a non-empty string");
    }

    private static String database(String name) {
        return """
                databaseName: %s
                dataSources:
                  ds_0: { url: "jdbc:mariadb://127.0.0.1:3306/%s", username: app }
                """.formatted(name, name);
    }
}
