package io.strata.frontend.command;

import io.strata.kernel.Cluster;
import io.strata.kernel.StrataRuntime;
import io.strata.protocol.ErrorCode;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ALTER STRATA DATA SOURCE [database.]name DISABLE | ENABLE}: an administrator takes a replica out of the
 * read rotation at once (its running reads finish; new reads go to the group's other members) or lets it back. A
 * data source that is no replica of a READWRITE_SPLITTING group is refused: a primary cannot leave, its writes have
 * nowhere else to go. Without a database the session's is meant. A disabled data source stays disabled across
 * reloads until it is enabled (not across restarts: the files are the configuration a start reads). In a cluster
 * the switch holds for every member, and across their restarts, until it is switched back.
 */
final class DataSourceSwitch {

    private static final Pattern FORM = Pattern.compile("(?is)\\s*ALTER\\s+STRATA\\s+DATA\\s+SOURCE\\s+"
            + "(?:`?([\\w$]+)`?\\s*\\.\\s*)?`?([\\w$-]+)`?\\s+(DISABLE|ENABLE)\\s*;?\\s*");

    private DataSourceSwitch() {
    }

    /** Whether the statement is ALTER STRATA ... (answered here or refused as a form not known). */
    static boolean is(SqlStatementInfo info) {
        return info.tokenIs(0, "ALTER") && info.tokenIs(1, "STRATA");
    }

    /**
     * Applies the statement.
     *
     * @param database the session's database, or null
     * @param cluster  the cluster every member of which follows the switch, or null when standalone
     * @throws io.strata.protocol.MySQLException for another form, an unknown data source, one that is no replica,
     *                                           or a cluster whose registry is unreachable
     */
    static void apply(StrataRuntime runtime, SqlStatementInfo info, String database, Cluster cluster) {
        Matcher form = FORM.matcher(info.sql());
        if (!form.matches()) {
            throw ErrorCode.UNSUPPORTED.exception("this form of ALTER STRATA (ALTER STRATA DATA SOURCE "
                    + "[database.]name DISABLE | ENABLE)");
        }
        String in = form.group(1) != null ? form.group(1) : database;
        String name = form.group(2);
        boolean disable = form.group(3).equalsIgnoreCase("DISABLE");
        if (in == null || runtime.ruleChain(in) == null) {
            throw ErrorCode.DATA_SOURCE_REFUSED.exception(in == null
                    ? "no database selected; name it as database.data_source"
                    : "no logical database '" + in + "' (one of " + runtime.config().databases().keySet() + ")");
        }
        if (!runtime.config().databases().get(in).dataSources().containsKey(name)) {
            throw ErrorCode.DATA_SOURCE_REFUSED.exception("no data source '" + name + "' in logical database '"
                    + in + "' (one of " + runtime.config().databases().get(in).dataSources().keySet() + ")");
        }
        DataSourceStatus status = runtime.health().status(in, name);
        if (disable && replicaOf(runtime.health(), status).isEmpty()) {
            throw ErrorCode.DATA_SOURCE_REFUSED.exception("data source '" + name + "' is no replica of a "
                    + "READWRITE_SPLITTING group (readDataSources); only a replica can leave the read rotation, "
                    + "a primary's writes have nowhere else to go");
        }
        if (cluster != null) {
            try {
                cluster.switchDataSource(in, name, disable);
            } catch (IllegalStateException e) {
                throw ErrorCode.DATA_SOURCE_REFUSED.exception(e.getMessage());
            }
        }
        status.disabled(disable);
    }

    /** The groups that read from the data source as a replica. */
    private static Optional<List<String>> replicaOf(HealthRegistry health, DataSourceStatus status) {
        List<String> groups = new ArrayList<>();
        for (HealthRegistry.Watch watch : health.watches()) {
            if (watch.status() == status && watch.role() == HealthRegistry.Role.REPLICA) {
                groups.add(watch.group());
            }
        }
        return groups.isEmpty() ? Optional.empty() : Optional.of(groups);
    }
}
