package io.strata.bootstrap.reload;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a reload changes, said as the files' keys: "server.yaml: users added [ann]", "config-shop.yaml:
 * dataSources.ds_1 changed", "config-shop.yaml: rules[0] (READWRITE_SPLITTING) changed". Secrets are never part of
 * it (a changed password reads "users changed [bob]").
 */
public final class ConfigChanges {

    private ConfigChanges() {
    }

    public static List<String> between(StrataConfig before, StrataConfig after) {
        List<String> changes = new ArrayList<>();
        server(changes, before.server(), after.server());
        for (String name : union(before.databases().keySet(), after.databases().keySet())) {
            DatabaseConfig was = before.databases().get(name);
            DatabaseConfig is = after.databases().get(name);
            String file = "config-" + name + ".yaml: ";
            if (was == null) {
                changes.add(file + "logical database added");
            } else if (is == null) {
                changes.add(file + "logical database removed");
            } else {
                database(changes, file, was, is);
            }
        }
        return changes;
    }

    private static void server(List<String> changes, ServerConfig was, ServerConfig is) {
        Map<String, UserConfig> before = byName(was.users());
        Map<String, UserConfig> after = byName(is.users());
        named(changes, "server.yaml: users", before, after);
        live(changes, "server.authPlugin", was.authPlugin(), is.authPlugin());
        live(changes, "server.maxAllowedPacket", was.maxAllowedPacket(), is.maxAllowedPacket());
        live(changes, "server.slowLog", was.slowLog(), is.slowLog());
        live(changes, "server.digests", was.digests(), is.digests());
        live(changes, "server.maxConnections", was.limits().maxConnections(), is.limits().maxConnections());
        live(changes, "server.idleTimeout", was.limits().idleTimeoutMillis(), is.limits().idleTimeoutMillis());
        live(changes, "server.handshakeTimeout", was.limits().handshakeTimeoutMillis(),
                is.limits().handshakeTimeoutMillis());
        live(changes, "server.watchConfig", was.watchConfig(), is.watchConfig());
        live(changes, "server.proxyProtocol", was.proxyProtocol(), is.proxyProtocol());
    }

    private static void database(List<String> changes, String file, DatabaseConfig was, DatabaseConfig is) {
        named(changes, file + "dataSources", was.dataSources(), is.dataSources());
        List<RuleConfig> before = was.rules();
        List<RuleConfig> after = is.rules();
        for (int i = 0; i < Math.max(before.size(), after.size()); i++) {
            RuleConfig old = i < before.size() ? before.get(i) : null;
            RuleConfig now = i < after.size() ? after.get(i) : null;
            if (old == null) {
                changes.add(file + "rules[" + i + "] (" + now.type() + ") added");
            } else if (now == null) {
                changes.add(file + "rules[" + i + "] (" + old.type() + ") removed");
            } else if (!old.equals(now)) {
                changes.add(file + "rules[" + i + "] (" + now.type() + ") changed");
            }
        }
        if (was.exposeSchemas() != is.exposeSchemas()) {
            changes.add(file + "exposeSchemas changed");
        }
    }

    private static <T> void named(List<String> changes, String what, Map<String, T> before, Map<String, T> after) {
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (String name : union(before.keySet(), after.keySet())) {
            if (!before.containsKey(name)) {
                added.add(name);
            } else if (!after.containsKey(name)) {
                removed.add(name);
            } else if (!before.get(name).equals(after.get(name))) {
                changed.add(name);
            }
        }
        if (!added.isEmpty()) {
            changes.add(what + " added " + added);
        }
        if (!removed.isEmpty()) {
            changes.add(what + " removed " + removed);
        }
        if (!changed.isEmpty()) {
            changes.add(what + " changed " + changed);
        }
    }

    private static void live(List<String> changes, String key, Object was, Object is) {
        if (!Objects.equals(was, is)) {
            changes.add("server.yaml: " + key + " changed");
        }
    }

    private static Map<String, UserConfig> byName(List<UserConfig> users) {
        Map<String, UserConfig> map = new java.util.LinkedHashMap<>();
        users.forEach(user -> map.put(user.name(), user));
        return map;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }
}
