package io.strata.rule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One piece of work: a statement on one data source.
 *
 * @param dataSource where it runs: a data source, or a name a decorating rule stands for (a read/write group) until
 *                   the chain has decorated it
 * @param sql        the statement as a rule rewrote it, or null for the client's own statement, whose bytes then go
 *                   to the backend as they came
 * @param params     the values of the rewritten statement's {@code ?} (may hold nulls), in order: those of the
 *                   client's execute, which the unit then runs as a prepared statement of its own SQL with them;
 *                   empty for a statement without values, and for the client's own
 */
public record RouteUnit(String dataSource, String sql, List<Object> params) {

    public RouteUnit {
        params = params == null || params.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(params));
    }

    /** The client's own statement on {@code dataSource}. */
    public RouteUnit(String dataSource) {
        this(dataSource, null, List.of());
    }

    /** Whether a rule gave this unit a statement of its own. */
    public boolean rewritten() {
        return sql != null;
    }

    /** The same work on another data source. */
    public RouteUnit on(String otherDataSource) {
        return otherDataSource.equals(dataSource) ? this : new RouteUnit(otherDataSource, sql, params);
    }
}
