package io.strata.frontend.command;

import io.strata.config.UserConfig;
import io.strata.frontend.FrontendContext;
import io.strata.kernel.digest.DigestKey;
import io.strata.kernel.digest.DigestStats;
import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Session;
import io.strata.protocol.ErrorCode;
import io.strata.rule.RoutingRule;
import io.strata.rule.query.QueryRoutingRule;
import io.strata.rule.sharding.ShardedTable;
import io.strata.rule.sharding.ShardingRule;
import io.strata.rule.sharding.TableRuleConfig;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Strata's admin statements, for users marked {@code admin: true} only (others get 1227, as MySQL without the
 * privilege): {@code SHOW STRATA DIGESTS [LIKE '...'] [ORDER BY column [ASC|DESC]] [LIMIT n]},
 * {@code FLUSH STRATA DIGESTS}, {@code SHOW STRATA QUERY RULES}, {@code SHOW STRATA SHARDING TABLES}; and the admin
 * check of every other {@code SHOW STRATA ...} / {@code FLUSH STRATA ...}, answered elsewhere.
 */
final class AdminStatements {

    /** The answer to FLUSH STRATA ...: an OK. */
    static final LocalResultSet OK = new LocalResultSet(List.of(), List.of());

    private static final DateTimeFormatter SEEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final List<String> DIGEST_COLUMNS = List.of("digest", "digest_text", "user", "database",
            "data_source", "count", "first_seen", "last_seen", "sum_time_us", "min_time_us", "max_time_us",
            "avg_time_us", "rows_sent", "rows_affected", "errors", "warnings", "folded");
    private static final List<String> TEXT_COLUMNS = List.of("digest", "digest_text", "user", "database",
            "data_source", "first_seen", "last_seen");

    private AdminStatements() {
    }

    /** Whether the statement is an admin statement (SHOW STRATA ..., FLUSH STRATA ...). */
    static boolean isAdmin(SqlStatementInfo info) {
        // the kind first: reading a token makes them all, which the statements of an OLTP load never need
        return (info.kind() == SqlKind.SHOW
                || info.kind() == SqlKind.OTHER && (info.tokenIs(0, "FLUSH") || info.tokenIs(0, "RELOAD"))
                || info.kind() == SqlKind.DDL && info.tokenIs(0, "ALTER"))
                && info.tokenIs(1, "STRATA");
    }

    /** RELOAD STRATA CONFIG (an admin statement: {@link #isAdmin} holds too). */
    static boolean isReload(SqlStatementInfo info) {
        return info.tokenIs(0, "RELOAD") && info.tokens().size() == 3 && info.tokenIs(2, "CONFIG");
    }

    /** @throws io.strata.protocol.MySQLException 1227 when the session's user is no administrator */
    static void checkAdmin(FrontendContext context, Session session) {
        if (!isAdministrator(context, session)) {
            throw ErrorCode.ADMIN_ONLY.exception();
        }
    }

    /** Whether the session's user is a Strata administrator ({@code users[].admin}). */
    static boolean isAdministrator(FrontendContext context, Session session) {
        return context.authenticator().user(session.user()).map(UserConfig::admin).orElse(false);
    }

    /**
     * The answer to an admin statement answered here; {@link #OK} for one answered by an OK; empty for any other
     * statement.
     */
    static Optional<LocalResultSet> answer(FrontendContext context, SqlStatementInfo info) {
        List<String> t = info.tokens();
        if (t.size() == 3 && info.tokenIs(0, "FLUSH") && info.tokenIs(2, "DIGESTS")) {
            digestsOn(context);
            context.digests().clear();
            return Optional.of(OK);
        }
        if (info.kind() == SqlKind.SHOW && t.size() >= 3 && info.tokenIs(2, "DIGESTS")) {
            digestsOn(context);
            return Optional.of(digests(context, info));
        }
        if (info.kind() == SqlKind.SHOW && t.size() == 4 && info.tokenIs(2, "QUERY") && info.tokenIs(3, "RULES")) {
            return Optional.of(queryRules(context));
        }
        if (info.kind() == SqlKind.SHOW && t.size() == 4 && info.tokenIs(2, "SHARDING") && info.tokenIs(3, "TABLES")) {
            return Optional.of(shardingTables(context));
        }
        if (info.kind() == SqlKind.SHOW && t.size() == 3 && info.tokenIs(2, "CONFIG")) {
            return Optional.of(ConfigStatus.answer(context.kernel().reloader(), context.kernel().cluster()));
        }
        if (info.kind() == SqlKind.SHOW && t.size() == 3 && info.tokenIs(2, "CLUSTER")) {
            return Optional.of(ConfigStatus.members(context.kernel().cluster()));
        }
        return Optional.empty();
    }

    /** @throws io.strata.protocol.MySQLException 1289 (a feature disabled) when digests are off */
    private static void digestsOn(FrontendContext context) {
        if (context.digests() == null) {
            throw new io.strata.protocol.MySQLException(new io.strata.protocol.ErrPacket(1289, "HY000",
                    "The 'query digests' feature is disabled; set server.digests: { enabled: true } in server.yaml"));
        }
    }

    private static LocalResultSet digests(FrontendContext context, SqlStatementInfo info) {
        List<String> t = info.tokens();
        int at = 3;
        Pattern like = null;
        if (info.tokenIs(at, "LIKE") && at + 1 < t.size()) {
            like = LocalQueries.likePattern(t.get(at + 1));
            at += 2;
        }
        String orderBy = "sum_time_us";
        boolean descending = true;
        if (info.tokenIs(at, "ORDER") && info.tokenIs(at + 1, "BY") && at + 2 < t.size()) {
            orderBy = SqlClassifier.unquote(t.get(at + 2)).toLowerCase(Locale.ROOT);
            if (!DIGEST_COLUMNS.contains(orderBy)) {
                throw new io.strata.protocol.MySQLException(new io.strata.protocol.ErrPacket(1054, "42S22",
                        "Unknown column '" + orderBy + "' in 'order clause' (one of " + DIGEST_COLUMNS + ")"));
            }
            at += 3;
            descending = TEXT_COLUMNS.contains(orderBy) ? false : descending;
            if (info.tokenIs(at, "ASC") || info.tokenIs(at, "DESC")) {
                descending = info.tokenIs(at, "DESC");
                at++;
            }
        }
        long limit = Long.MAX_VALUE;
        if (info.tokenIs(at, "LIMIT") && at + 1 < t.size()) {
            try {
                limit = Long.parseLong(t.get(at + 1));
            } catch (NumberFormatException e) {
                limit = -1;
            }
            at += 2;
        }
        if (at != t.size() || limit < 0) {
            throw ErrorCode.UNSUPPORTED.exception("this form of SHOW STRATA DIGESTS (SHOW STRATA DIGESTS "
                    + "[LIKE 'pattern'] [ORDER BY column [ASC|DESC]] [LIMIT n])");
        }
        List<List<Object>> rows = new ArrayList<>();
        for (Map.Entry<DigestKey, DigestStats.Snapshot> entry : context.digests().snapshot()) {
            if (like == null || like.matcher(entry.getKey().digest()).matches()) {
                rows.add(row(entry.getKey(), entry.getValue()));
            }
        }
        int column = DIGEST_COLUMNS.indexOf(orderBy);
        Function<List<Object>, Comparable<Object>> key = row -> comparable(row.get(column));
        Comparator<List<Object>> order = Comparator.comparing(key);
        rows.sort(descending ? order.reversed() : order);
        List<ColumnDefinition41> columns = DIGEST_COLUMNS.stream().map(name -> TEXT_COLUMNS.contains(name)
                ? ColumnDefinition41.varchar(name) : ColumnDefinition41.bigint(name)).toList();
        return new LocalResultSet(columns, rows.subList(0, (int) Math.min(rows.size(), limit)));
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> comparable(Object cell) {
        return (Comparable<Object>) (Comparable<?>) (cell == null ? "" : cell);
    }

    private static List<Object> row(DigestKey key, DigestStats.Snapshot s) {
        return Arrays.asList(key.id(), key.digest(), key.user(), key.database(), key.dataSource(),
                s.count(), SEEN.format(Instant.ofEpochMilli(s.firstSeenMillis())),
                SEEN.format(Instant.ofEpochMilli(s.lastSeenMillis())), s.sumMicros(), s.minMicros(), s.maxMicros(),
                s.avgMicros(), s.rowsSent(), s.rowsAffected(), s.errors(), s.warnings(), s.folded());
    }

    /** Each sharded table of each logical database: its nodes, strategies, key, auditors and binding group. */
    private static LocalResultSet shardingTables(FrontendContext context) {
        List<List<Object>> rows = new ArrayList<>();
        context.ruleChains().forEach((database, chain) -> {
            for (RoutingRule rule : chain.routingRules()) {
                if (rule instanceof ShardingRule sharding) {
                    for (ShardedTable table : sharding.tables().tables()) {
                        TableRuleConfig config = table.config();
                        rows.add(Arrays.asList(database, table.logicalName(), table.nodes().stream()
                                .map(Object::toString).collect(Collectors.joining(", ")),
                                config.databaseStrategy().describe(), config.tableStrategy().describe(),
                                config.keyGenerate().map(k -> k.column() + " by " + k.keyGeneratorName())
                                        .orElse(null),
                                config.audit().map(a -> String.join(", ", a.auditorNames())
                                        + (a.allowHintDisable() ? " (hint may disable)" : "")).orElse(null),
                                String.join(", ", sharding.tables().bindingGroup(table.logicalName()))));
                    }
                }
            }
        });
        return new LocalResultSet(List.of(ColumnDefinition41.varchar("database"), ColumnDefinition41.varchar("table"),
                ColumnDefinition41.varchar("data_nodes"), ColumnDefinition41.varchar("database_strategy"),
                ColumnDefinition41.varchar("table_strategy"), ColumnDefinition41.varchar("key_generate"),
                ColumnDefinition41.varchar("auditors"), ColumnDefinition41.varchar("binding_tables")), rows);
    }

    private static LocalResultSet queryRules(FrontendContext context) {
        List<List<Object>> rows = new ArrayList<>();
        context.ruleChains().forEach((database, chain) -> {
            for (RoutingRule rule : chain.routingRules()) {
                if (rule instanceof QueryRoutingRule query) {
                    for (QueryRoutingRule.RuleStats stats : query.stats()) {
                        rows.add(Arrays.asList(database, stats.name(), stats.matchers(), stats.actions(),
                                stats.hits()));
                    }
                }
            }
        });
        return new LocalResultSet(List.of(ColumnDefinition41.varchar("database"), ColumnDefinition41.varchar("rule"),
                ColumnDefinition41.varchar("matchers"), ColumnDefinition41.varchar("actions"),
                ColumnDefinition41.bigint("hits")), rows);
    }
}
