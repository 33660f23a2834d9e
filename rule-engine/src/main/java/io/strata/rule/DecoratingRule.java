package io.strata.rule;

import java.util.Set;

/**
 * Changes where a unit runs: one name stands for several data sources (a read/write group's primary and replicas),
 * and the rule picks one per statement. Rules of this kind run after every routing rule, on each unit.
 */
public non-sealed interface DecoratingRule extends Rule {

    /** The rule as it runs in a database's chain (given its parser); itself, for rules that need nothing. */
    default DecoratingRule bind(RuleBinding binding) {
        return this;
    }

    /**
     * Where the rule runs among the decorating rules, lowest first (ties keep configuration order): a rule that
     * swaps a whole data source for another (SHADOW) runs before one that picks a member of a group
     * (READWRITE_SPLITTING), so that the swapped-in name may be a group.
     */
    default int order() {
        return 100;
    }

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
     * @param note      why, when it is worth saying (SHOW STRATA ROUTE), else null
     */
    record Placement(String dataSource, boolean retryable, String note) {

        public Placement(String dataSource, boolean retryable) {
            this(dataSource, retryable, null);
        }
    }
}
