package io.strata.rule.sharding;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** actualDataNodes as ShardingSphere expands them. */
class ShardingDataNodesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "ds_${0..1}.t_order_${0..1}          | ds_0.t_order_0 ds_0.t_order_1 ds_1.t_order_0 ds_1.t_order_1",
        "ds_$->{0..1}.t_$->{0..<2}           | ds_0.t_0 ds_0.t_1 ds_1.t_0 ds_1.t_1",
        "ds_${['a','b']}.t                   | ds_a.t ds_b.t",
        "ds_${[\"a\", 'b']}.t_${[0, 2]}      | ds_a.t_0 ds_a.t_2 ds_b.t_0 ds_b.t_2",
        "ds_0.t_order_0, ds_1.t_order_1      | ds_0.t_order_0 ds_1.t_order_1",
        "ds_0.t_${0..1}, ds_1.t_${2..3}      | ds_0.t_0 ds_0.t_1 ds_1.t_2 ds_1.t_3",
        "ds_${[0, 1]}.t_${['00', '01']}      | ds_0.t_00 ds_0.t_01 ds_1.t_00 ds_1.t_01",
        "ds.t_${3..1}                        | ds.t_3 ds.t_2 ds.t_1",
        "ds.t_${1 + 1}                       | ds.t_2",
        "<GROOVY>ds_${0..1}.t                | ds_0.t ds_1.t",
        "<LITERAL>ds_0.t_${x}, ds_1.t        | ds_0.t_${x} ds_1.t",
    })
    void expandsRangesAndListsIntoTheirCartesianProductFirstVaryingSlowest(String expression, String expected) {
        assertEquals(Arrays.asList(expected.split(" ")), DataNodesExpression.expand(expression));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "ds_${0..1.t                 | a ${ that is not closed by } at character 4",
        "ds_0.t,,ds_1.t              | an empty item between commas at character 8",
        "ds_${[[0]]}.t               | a list inside a list",
        "ds_${0..'a'}.t              | a range needs numbers, got 'a'",
        "ds_${0..200000}.t           | the range 0..200000 has more than 100000 values",
        "<ESPRESSO>ds_0.t            | only the <GROOVY> and <LITERAL> expression types are supported",
    })
    void refusesWhatItCannotExpand(String expression, String problem) {
        ExpressionException e = assertThrows(ExpressionException.class, () -> DataNodesExpression.expand(expression));

        assertTrue(e.problem().contains(problem), e.problem());
    }

    @org.junit.jupiter.api.Test
    void aProductOfLargeRangesIsCapped() {
        ExpressionException e = assertThrows(ExpressionException.class,
                () -> DataNodesExpression.expand("ds_${0..999}.t_${0..999}"));

        assertTrue(e.problem().contains("more than 100000 data nodes"), e.problem());
        assertEquals(List.of("ds.t"), DataNodesExpression.expand(" ds.t "));
    }
}
