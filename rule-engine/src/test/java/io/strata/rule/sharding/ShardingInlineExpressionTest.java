package io.strata.rule.sharding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INLINE expressions: what they compute (as Groovy would), and what they refuse. */
class ShardingInlineExpressionTest {

    private static String evaluate(String expression, Object value) {
        return InlineExpression.parse(expression, false).evaluate(Map.of("id", value));
    }

    static Stream<Arguments> computed() {
        return Stream.of(
                Arguments.of("t_${id % 2}", 7L, "t_1"),
                Arguments.of("t_$->{id % 2}", 8, "t_0"),
                Arguments.of("t_${ID % 4}", 7, "t_3"),
                Arguments.of("t_${id % 2}", "7", "t_1"),
                Arguments.of("t_${id % 2}", " 7 ", "t_1"),
                Arguments.of("t_${id % 2}", new BigDecimal("7.0"), "t_1"),
                Arguments.of("t_${id % 2}", new BigInteger("123456789012345678901234567891"), "t_1"),
                Arguments.of("t_${-id % 2}", 7, "t_-1"),
                Arguments.of("t_${(id + 1) * 2 - 3}", 4, "t_7"),
                Arguments.of("t_${id / 2}", 8, "t_4"),
                Arguments.of("t_${id.intdiv(2)}", 7, "t_3"),
                Arguments.of("t_${(id / 2).intValue()}", 7, "t_3"),
                Arguments.of("t_${Math.abs(id.hashCode()) % 4}", "user-42", "t_" + Math.abs("user-42".hashCode()) % 4),
                Arguments.of("t_${Math.abs(id.hashCode() % 4)}", "abc", "t_" + Math.abs("abc".hashCode() % 4)),
                Arguments.of("t_${id.hashCode() % 4}", -1L, "t_-1"),
                Arguments.of("t_${Math.floorMod(id, 4)}", -1L, "t_3"),
                Arguments.of("t_${id.substring(0, 4)}", "2024-01-17", "t_2024"),
                Arguments.of("t_${id.substring(5)}", "2024-01", "t_01"),
                Arguments.of("t_${id.toString().length()}", 12345, "t_5"),
                Arguments.of("t_${id.toString().padLeft(3, '0')}", 7, "t_007"),
                Arguments.of("t_${id + 'x'}", 7, "t_7x"),
                Arguments.of("t_${\"a\" + id}", 7, "t_a7"),
                Arguments.of("t_${id * 1000000}", 5000, "t_" + (5000 * 1000000)),
                Arguments.of("t_${id * 1000000}", 5_000_000_000L, "t_5000000000000000"),
                Arguments.of("t_${id % 10L}", 17, "t_7"),
                Arguments.of("t_${1.5 * 2}", 0, "t_3"),
                Arguments.of("t_${Math.abs(id)}", Integer.MIN_VALUE, "t_" + Integer.MIN_VALUE),
                Arguments.of("literal", 1, "literal"));
    }

    @ParameterizedTest(name = "{0} with id = {1} gives {2}")
    @MethodSource("computed")
    void computesAsGroovyDoes(String expression, Object id, String expected) {
        assertEquals(expected, evaluate(expression, id));
    }

    @ParameterizedTest(name = "{0} with id = {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "t_${id / 2}     | 7        | the value 3.5 is not a whole number",
        "t_${id % 0}     | 7        | % by zero",
        "t_${id / 0}     | 7        | division by zero",
        "t_${id % 2}     | abc      | % needs numbers, got 'abc'",
        "t_${id.length()} | 7       | length needs a string, got 7",
        "t_${id.substring(9)} | 2024-01 | substring(9) is out of range for '2024-01'",
        "t_${(id / 2).intdiv(1)} | 7 | intdiv needs whole numbers",
    })
    void refusesWhatHasNoName(String expression, String id, String problem) {
        Object value = id.matches("-?\\d+") ? (Object) Long.parseLong(id) : id;
        ExpressionException e = assertThrows(ExpressionException.class, () -> evaluate(expression, value));

        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "t_${id > 2 ? 1 : 0}     | '>' is not supported here at character 8",
        "t_${id % 2             | a ${ that is not closed by } at character 3",
        "t_${}                   | an empty ${} at character 5",
        "t_${id.collect{ it }}   | a Groovy closure or block is not supported at character 15",
        "t_${id.md5()}           | md5() is not supported (supported: abs, hashCode",
        "t_${Math.max(id, 1)}    | Math.max() is not supported (supported: abs, floorMod)",
        "t_${id.substring()}     | substring() takes 1 or 2 arguments, not 0",
        "t_${\"a$id\"}            | a \"...\" string with $ would be a Groovy template",
        "t_$id                   | a '$' that starts no ${...} or $->{...} at character 3",
        "t_${'abc}               | a ${ that is not closed by }",
        "t_${0..1}               | '.' is not supported here",
        "t_${[1, 2]}             | '[' is not supported here",
    })
    void refusesAtStartWhatItCannotRead(String expression, String problem) {
        ExpressionException e = assertThrows(ExpressionException.class,
                () -> InlineExpression.parse(expression.strip(), false));

        assertTrue(e.problem().contains(problem), e.problem());
    }

    @Test
    void knowsTheColumnsItReads() {
        InlineExpression expression = InlineExpression.parse("t_${user_id % 2}_${Math.abs(order_id.hashCode()) % 4}",
                false);

        assertEquals(Set.of("user_id", "order_id"), expression.variables());
        assertTrue(expression.readsOnly(Set.of("USER_ID", "order_id", "other")));
    }
}
