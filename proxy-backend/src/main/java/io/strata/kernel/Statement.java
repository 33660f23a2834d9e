package io.strata.kernel;

import java.util.List;
import java.util.Objects;

/**
 * A statement as a host hands it to the kernel: its text, and for a prepared statement the values of its {@code ?}
 * placeholders, in order (null for a text statement).
 */
public record Statement(String sql, List<Object> parameters) {

    public Statement {
        Objects.requireNonNull(sql, "sql");
    }

    public static Statement text(String sql) {
        return new Statement(sql, null);
    }

    public static Statement prepared(String sql, List<Object> parameters) {
        return new Statement(sql, List.copyOf(parameters));
    }

    public boolean isPrepared() {
        return parameters != null;
    }
}
