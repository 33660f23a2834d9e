package io.strata.rule;

/**
 * Where tables that live whole on one data source each are (SINGLE's tables), for the rules that must know it to
 * route a statement naming them with their own tables (SHARDING: a join of a sharded table with one).
 */
@FunctionalInterface
public interface TablePlacements {

    /** No table placed. */
    TablePlacements NONE = table -> null;

    /** The data source holding {@code table} (any case), or null when it is none of these tables. */
    String dataSourceOf(String table);

    /** A rule that places tables: the chain hands its placements to the rules that read them. */
    interface Source {
        TablePlacements placements();
    }

    /** A rule that reads where tables are placed. */
    interface Reader {
        /** The rule, reading {@code placements}. */
        RoutingRule reading(TablePlacements placements);
    }
}
