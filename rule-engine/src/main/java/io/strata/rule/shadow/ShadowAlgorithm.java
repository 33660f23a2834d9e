package io.strata.rule.shadow;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a SHADOW rule tells test traffic from production traffic: by a column's values in one kind of statement, or
 * by a hint at the statement's start. ShardingSphere's algorithm types and props, as written.
 */
sealed interface ShadowAlgorithm {

    /** The statements a column algorithm looks at. */
    enum Operation { INSERT, UPDATE, DELETE, SELECT }

    /** The algorithm's name in {@code shadowAlgorithms}. */
    String name();

    /** A column algorithm: in statements of {@code operation}, whether a value of {@code column} marks test traffic. */
    sealed interface ColumnMatch extends ShadowAlgorithm {
        Operation operation();

        String column();

        /** @param value the value's text (numbers as written in decimal, strings as they are) */
        boolean matches(String value);
    }

    /** VALUE_MATCH: the column's value equals {@code value}. */
    record ValueMatch(String name, Operation operation, String column, String value) implements ColumnMatch {
        @Override
        public boolean matches(String candidate) {
            return Objects.equals(value, candidate);
        }
    }

    /** REGEX_MATCH: the column's value matches {@code regex} (as a whole). */
    record RegexMatch(String name, Operation operation, String column, Pattern regex) implements ColumnMatch {
        @Override
        public boolean matches(String candidate) {
            return candidate != null && regex.matcher(candidate).matches();
        }
    }

    /** SQL_HINT: a statement that begins with the shadow hint. */
    record SqlHint(String name) implements ShadowAlgorithm {
    }
}
