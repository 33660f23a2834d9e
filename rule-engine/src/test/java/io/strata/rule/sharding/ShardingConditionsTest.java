package io.strata.rule.sharding;

import io.strata.rule.sharding.ColumnCondition.Exact;
import io.strata.rule.sharding.ColumnCondition.InRange;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Conditions on one column: merged where certain, kept apart where the collation decides. */
class ShardingConditionsTest {

    private static List<ColumnCondition> on(ShardingConditions conditions) {
        return conditions.of("id");
    }

    @Test
    void anInListAndARangeMergeIntoTheValuesInTheRange() {
        ShardingConditions conditions = ShardingConditions.none().withValues("id", List.of(1L, 2L, 3L))
                .withRange("ID", ShardingRange.greaterThan(2L));

        assertEquals(List.of(new Exact(List.of(3L))), on(conditions));
    }

    @Test
    void numbersOfAnyJavaTypeCompareAsNumbers() {
        ShardingConditions conditions = ShardingConditions.none().withValue("id", 5L)
                .withValue("id", new BigDecimal("5.0"));

        assertEquals(List.of(new Exact(List.of(5L))), on(conditions));
        assertEquals(List.of(new Exact(List.of())), on(conditions.withValue("id", new BigDecimal("5.1"))));
    }

    @Test
    void twoRangesMergeIntoTheirOverlap() {
        ShardingConditions conditions = ShardingConditions.none().withRange("id", ShardingRange.atLeast(1L))
                .withRange("id", ShardingRange.lessThan(10L)).withRange("id", ShardingRange.greaterThan(1L));

        assertEquals(List.of(new InRange(new ShardingRange(1L, false, 10L, false))), on(conditions));
    }

    @Test
    void rangesThatDoNotOverlapMatchNoRow() {
        ShardingConditions conditions = ShardingConditions.none().withRange("id", ShardingRange.lessThan(5L))
                .withRange("id", ShardingRange.atLeast(5L));

        assertEquals(List.of(new Exact(List.of())), on(conditions));
    }

    @Test
    void datesOfOneTypeMerge() {
        ShardingConditions conditions = ShardingConditions.none()
                .withValues("id", List.of(LocalDate.of(2024, 1, 1), LocalDate.of(2024, 2, 1)))
                .withRange("id", ShardingRange.lessThan(LocalDate.of(2024, 1, 15)));

        assertEquals(List.of(new Exact(List.of(LocalDate.of(2024, 1, 1)))), on(conditions));
    }

    @Test
    void stringsAreNeverMergedForTheirEqualityDependsOnTheCollation() {
        ShardingConditions conditions = ShardingConditions.none().withValue("id", "a").withValue("id", "A ");

        assertEquals(List.of(new Exact(List.of("a")), new Exact(List.of("A "))), on(conditions));
    }

    @Test
    void aStringKeptApartStillLetsLaterNumbersMerge() {
        ShardingConditions conditions = ShardingConditions.none().withValue("id", 1L).withValue("id", "x")
                .withRange("id", ShardingRange.atMost(3L));

        assertEquals(List.of(new Exact(List.of("x")), new Exact(List.of(1L))), on(conditions));
    }

    @Test
    void isImmutableAndRefusesNull() {
        ShardingConditions none = ShardingConditions.none();
        none.withValue("id", 1L);

        assertEquals(List.of(), none.of("id"));
        assertThrows(NullPointerException.class, () -> none.withValue("id", null));
        assertThrows(IllegalArgumentException.class, () -> none.withValues("id", List.of(new Object())));
        assertEquals("[5, 10)", new ShardingRange(5L, true, 10L, false).toString());
        assertEquals("(-inf, '2024-01-01']", ShardingRange.atMost("2024-01-01").toString());
    }
}
