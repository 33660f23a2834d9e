package io.strata.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A YAML mapping that knows its file and its path inside that file, so each typed read fails with a
 * {@link ConfigException} naming both. An empty value ({@code key:} or {@code key: ~}) counts as absent.
 */
public final class YamlMap {

    private final String file;
    private final String path;
    private final Map<String, Object> values = new LinkedHashMap<>();

    private YamlMap(String file, String path, Map<?, ?> values) {
        this.file = file;
        this.path = path;
        values.forEach((key, value) -> this.values.put(String.valueOf(key), value));
    }

    /** A mapping found at {@code path} of {@code file}, e.g. a rule's settings at "rules[0]". */
    public static YamlMap of(String file, String path, Map<?, ?> values) {
        return new YamlMap(file, path, values);
    }

    /** An empty document reads as an empty mapping, so the first missing key is what gets reported. */
    public static YamlMap root(String file, Object document) {
        if (document instanceof Map<?, ?> map) {
            return new YamlMap(file, "", map);
        }
        if (document == null) {
            return new YamlMap(file, "", Map.of());
        }
        throw new ConfigException(file, "", "a YAML mapping of keys to values", document);
    }

    public Set<String> keys() {
        return values.keySet();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public ConfigException error(String key, String expected, Object actual) {
        return error(key, expected, actual, null);
    }

    public ConfigException error(String key, String expected, Object actual, Throwable cause) {
        return new ConfigException(file, path(key), expected, actual, cause);
    }

    public void allowOnly(List<String> allowed) {
        for (String key : values.keySet()) {
            if (!allowed.contains(key)) {
                throw error(key, "a known key (one of " + String.join(", ", allowed) + ")", key);
            }
        }
    }

    public Object value(String key) {
        return values.get(key);
    }

    public String string(String key) {
        Object value = values.get(key);
        if (value instanceof String string && !string.isEmpty()) {
            return string;
        }
        throw error(key, "a non-empty string", value);
    }

    public String string(String key, String fallback) {
        return values.get(key) == null ? fallback : string(key);
    }

    /** A password: may be empty or absent; a wrong value is described, never echoed into the logs. */
    public String secret(String key) {
        Object value = values.get(key);
        if (value == null || value instanceof String) {
            return value == null ? "" : (String) value;
        }
        throw error(key, "a string (quote values that YAML reads otherwise, like 1234 or yes)",
                kindOf(value) + ", value hidden");
    }

    public String oneOf(String key, List<String> allowed, String fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof String string && allowed.contains(string)) {
            return string;
        }
        throw error(key, "one of " + String.join(", ", allowed), value);
    }

    public boolean bool(String key, boolean fallback) {
        Object value = value(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        throw error(key, "true or false", value);
    }

    public int integer(String key, int fallback, int min, int max) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Integer number && number >= min && number <= max) {
            return number;
        }
        throw error(key, range(min, max, Integer.MAX_VALUE), value);
    }

    public long longInteger(String key, long fallback, long min, long max) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        // SnakeYAML yields the smallest fitting type; anything bigger than a long is out of range anyway.
        boolean whole = value instanceof Integer || value instanceof Long;
        long number = whole ? ((Number) value).longValue() : 0;
        if (whole && number >= min && number <= max) {
            return number;
        }
        throw error(key, range(min, max, Long.MAX_VALUE), value);
    }

    public List<String> strings(String key, List<String> fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof List<?> list)) {
            throw error(key, "a list of strings like [\"a\", \"b\"]", value);
        }
        List<String> strings = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String string) || string.isEmpty()) {
                throw error(key + "[" + i + "]", "a non-empty string", list.get(i));
            }
            strings.add(string);
        }
        return strings;
    }

    public YamlMap map(String key, String expected) {
        Object value = values.get(key);
        if (value instanceof Map<?, ?> map) {
            return new YamlMap(file, path(key), map);
        }
        throw error(key, expected, value);
    }

    public YamlMap optionalMap(String key, String expected) {
        return values.get(key) == null ? new YamlMap(file, path(key), Map.of()) : map(key, expected);
    }

    /**
     * @param expected what one element should look like
     * @param required whether the list must be present and non-empty
     */
    public List<YamlMap> maps(String key, String expected, boolean required) {
        Object value = values.get(key);
        if (value == null && !required) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || (required && list.isEmpty())) {
            throw error(key, (required ? "a non-empty list of " : "a list of ") + expected, value);
        }
        List<YamlMap> maps = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String element = key + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> map)) {
                throw error(element, expected, list.get(i));
            }
            maps.add(new YamlMap(file, path(element), map));
        }
        return maps;
    }

    /** A mapping at the same place of the same file holding {@code values} instead. */
    public YamlMap with(Map<String, Object> values) {
        return new YamlMap(file, path, values);
    }

    /** Every present value except the given keys, in file order. */
    public Map<String, Object> without(Set<String> excluded) {
        Map<String, Object> rest = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (value != null && !excluded.contains(key)) {
                rest.put(key, value);
            }
        });
        return rest;
    }

    private String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String range(long min, long max, long unbounded) {
        return max == unbounded ? "a whole number of at least " + min : "a whole number between " + min + " and " + max;
    }

    private static String kindOf(Object value) {
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        return value instanceof Map<?, ?> ? "a mapping" : "a " + value.getClass().getSimpleName();
    }
}
