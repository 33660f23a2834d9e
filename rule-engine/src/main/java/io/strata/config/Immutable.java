package io.strata.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Read-only copies that keep insertion order, which {@code Map.copyOf} does not. */
final class Immutable {

    private Immutable() {
    }

    static <V> Map<String, V> orderedMap(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** Copies nested YAML maps and lists too, so a config record cannot be changed through a value it hands out. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> deepMap(Map<String, ?> map) {
        return (Map<String, Object>) deep(map);
    }

    private static Object deep(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, nested) -> copy.put(key, deep(nested)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(nested -> copy.add(deep(nested)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }
}
