package io.strata.bootstrap.reload;

import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a reload reports as changed, and what it leaves for the next start. */
class ConfigChangesTest {

    private static final UserConfig ROOT = new UserConfig("root", "root", List.of("*"), true);

    @Test
    void changesAreNamedByFileAndKeyWithoutTheirSecrets() {
        StrataConfig before = config(List.of(ROOT, new UserConfig("bob", "old", List.of("app"))),
                Map.of("ds_0", "a", "ds_1", "b"), List.of(new RuleConfig("QUERY_ROUTING", Map.of("rules", List.of()))));
        StrataConfig after = config(List.of(ROOT, new UserConfig("bob", "new", List.of("app")),
                        new UserConfig("ann", "ann", List.of("app"))),
                Map.of("ds_0", "a2", "ds_2", "c"), List.of(new RuleConfig("QUERY_ROUTING", Map.of("rules",
                        List.of(Map.of("name", "r", "dataSource", "ds_0")))), new RuleConfig("BROADCAST",
                        Map.of("tables", List.of("t")))));
        assertEquals(List.of("server.yaml: users added [ann]", "server.yaml: users changed [bob]",
                        "config-app.yaml: dataSources added [ds_2]", "config-app.yaml: dataSources removed [ds_1]",
                        "config-app.yaml: dataSources changed [ds_0]",
                        "config-app.yaml: rules[0] (QUERY_ROUTING) changed",
                        "config-app.yaml: rules[1] (BROADCAST) added"),
                ConfigChanges.between(before, after));
        assertEquals(List.of(), ConfigChanges.between(before, before));
    }

    @Test
    void restartOnlyKeysKeepTheirRunningValuesAndArePendingWhileTheFileDiffersFromTheStart() {
        StrataConfig start = config(List.of(ROOT), Map.of("ds_0", "a"), List.of());
        // started with -p 0 over the file's port
        StrataConfig running = new StrataConfig(start.server().withPort(0), start.databases());
        StrataConfig edited = new StrataConfig(start.server().withPort(3399).withExecutor(ServerConfig.JDBC)
                .withUsers(List.of(ROOT, new UserConfig("ann", "ann", List.of("*")))), start.databases());

        RestartOnly restartOnly = RestartOnly.between(start, edited, running);
        assertEquals(List.of("server.port", "server.executor"), restartOnly.pending());
        assertEquals(0, restartOnly.effective().server().port(), "the listener stays where it is");
        assertEquals(ServerConfig.RELAY, restartOnly.effective().server().executor());
        assertEquals(2, restartOnly.effective().server().users().size(), "users change live");

        assertEquals(List.of(), RestartOnly.between(start, start, running).pending(),
                "a port given on the command line is no change of the file");
    }

    private static StrataConfig config(List<UserConfig> users, Map<String, String> dataSources,
                                       List<RuleConfig> rules) {
        Map<String, DataSourceConfig> sources = new LinkedHashMap<>();
        new java.util.TreeMap<>(dataSources).forEach((name, schema) -> sources.put(name, DataSourceConfig.of(name,
                "jdbc:mariadb://127.0.0.1:3306/" + schema, "app", "app", Map.of())));
        ServerConfig server = ServerConfig.defaults(users);
        return new StrataConfig(server, Map.of("app", new DatabaseConfig("app", sources, rules)));
    }
}
