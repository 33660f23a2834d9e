package io.strata.rule.sharding;

import io.strata.config.ConfigException;
import io.strata.config.YamlMap;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An algorithm's {@code props}, read as ShardingSphere reads its Properties: numbers and booleans may be written
 * bare or quoted ({@code sharding-count: 4} or {@code "4"}). Every mistake names the prop's key path.
 */
final class AlgorithmProps {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final YamlMap props;

    AlgorithmProps(YamlMap props) {
        this.props = props;
    }

    void allowOnly(List<String> keys) {
        props.allowOnly(keys);
    }

    boolean has(String key) {
        return props.value(key) != null;
    }

    ConfigException error(String key, String expected, Object actual) {
        return props.error(key, expected, actual);
    }

    ConfigException error(String key, String expected, Object actual, Throwable cause) {
        return props.error(key, expected, actual, cause);
    }

    /** A required non-empty text; a bare number counts as its text. */
    String string(String key, String expected) {
        Object value = props.value(key);
        if (value instanceof String || value instanceof Number) {
            String text = value.toString().strip();
            if (!text.isEmpty()) {
                return text;
            }
        }
        throw error(key, expected, value);
    }

    String string(String key, String expected, String fallback) {
        return has(key) ? string(key, expected) : fallback;
    }

    long wholeNumber(String key, long min, long max) {
        if (!has(key)) {
            throw error(key, range(min, max), null);
        }
        return wholeNumber(key, 0, min, max);
    }

    long wholeNumber(String key, long fallback, long min, long max) {
        Object value = props.value(key);
        if (value == null) {
            return fallback;
        }
        Long number = null;
        if (value instanceof Integer || value instanceof Long) {
            number = ((Number) value).longValue();
        } else if (value instanceof String text) {
            try {
                number = Long.parseLong(text.strip());
            } catch (NumberFormatException e) {
                // reported below, as any other wrong value
            }
        }
        if (number != null && number >= min && number <= max) {
            return number;
        }
        throw error(key, range(min, max), value);
    }

    boolean bool(String key, boolean fallback) {
        Object value = props.value(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String text && List.of("true", "false").contains(text.strip().toLowerCase(Locale.ROOT))) {
            return Boolean.parseBoolean(text.strip());
        }
        throw error(key, "true or false", value);
    }

    /**
     * A date and time that YAML may already have read as a timestamp (an unquoted {@code 2024-01-01 00:00:00}
     * is one for SnakeYAML, taken as UTC): then that, else null and the caller parses the text.
     */
    LocalDateTime yamlTimestamp(String key) {
        return props.value(key) instanceof Date date ? LocalDateTime.ofInstant(date.toInstant(), ZoneOffset.UTC)
                : null;
    }

    /** Every prop as text, for CLASS_BASED algorithms' {@code init}. */
    Map<String, String> asText(List<String> excluded) {
        Map<String, String> text = new LinkedHashMap<>();
        for (String key : props.keys()) {
            Object value = props.value(key);
            if (value != null && !excluded.contains(key)) {
                LocalDateTime timestamp = yamlTimestamp(key);
                text.put(key, timestamp != null ? TIMESTAMP.format(timestamp) : String.valueOf(value));
            }
        }
        return text;
    }

    private static String range(long min, long max) {
        return max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "a whole number of at least " + min
                : "a whole number between " + min + " and " + max;
    }
}
