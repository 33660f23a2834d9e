package io.strata.frontend.command;

import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Session;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.HealthRegistry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code SHOW STRATA DATA SOURCES}: one row per data source of the session's logical database, saying whether it is
 * in rotation and why not, what the last health check found, and the statements routed to it.
 */
final class DataSourcesStatus {

    private static final List<String> COLUMNS = List.of("data_source", "group_name", "role", "in_rotation",
            "status", "lag_seconds", "gtid_position", "active", "reads", "writes", "retries", "checked_ms_ago");

    private DataSourcesStatus() {
    }

    static LocalResultSet resultSet(FrontendContext context, Session session) {
        String database = session.state().database() != null ? session.state().database()
                : context.config().databases().keySet().iterator().next();
        long now = System.currentTimeMillis();
        List<List<Object>> rows = new ArrayList<>();
        for (DataSourceStatus status : context.health().statuses(database)) {
            HealthRegistry.Watch watch = context.health().watchOf(status);
            rows.add(Arrays.asList(status.name(), watch == null ? null : watch.group(),
                    watch == null ? "single" : watch.role().name().toLowerCase(),
                    status.inRotation() ? "yes" : "no",
                    watch == null ? "not checked" : status.reason(),
                    status.lagSeconds(),
                    status.position() == null ? null : status.position().toString(),
                    status.active(), status.reads(), status.writes(), status.retries(),
                    status.checkedAtMillis() == 0 ? null : now - status.checkedAtMillis()));
        }
        List<ColumnDefinition41> columns = COLUMNS.stream().map(name -> isNumber(name)
                ? ColumnDefinition41.bigint(name) : ColumnDefinition41.varchar(name)).toList();
        return new LocalResultSet(columns, rows);
    }

    private static boolean isNumber(String column) {
        return List.of("lag_seconds", "active", "reads", "writes", "retries", "checked_ms_ago").contains(column);
    }
}
