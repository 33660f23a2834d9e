package io.strata.rule;

import java.util.Set;

/**
 * Changes where a unit runs: one name stands for several data sources (a read/write group's primary and replicas),
 * and the rule picks one per statement. Rules of this kind run after every routing rule, on each unit.
 */
public non-sealed interface DecoratingRule extends Rule {

    /**
     * Where a unit routed to {@code dataSource} runs.
     *
     * @return the unit's data source, or null when this rule has nothing to say of {@code dataSource}
     */
    Placement place(String dataSource, StatementContext context);

    /**
     * The data sources holding the same data as {@code dataSource} among which this rule chooses (a read/write
     * group's members), or an empty set. A session holding server-side state on one of them stays there: the chain
     * sees to it ({@link StatementContext#held}), so the rule need not.
     */
    Set<String> sameData(String dataSource);

    /**
     * The name that stands for {@code dataSource}'s group in routes (a read/write group's name), or null when
     * {@code dataSource} belongs to none of this rule's groups.
     */
    default String groupOf(String dataSource) {
        return null;
    }

    /**
     * A decorated unit's data source.
     *
     * @param retryable the statement may go elsewhere if this data source proves unreachable before it starts
     *                  (a read sent to a replica)
     */
    record Placement(String dataSource, boolean retryable) {
    }
}
