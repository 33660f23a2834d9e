package io.strata.jdbc;

import io.strata.backend.jdbc.BinaryCells;
import io.strata.backend.jdbc.JdbcColumns;
import io.strata.backend.result.ColumnMetadata;
import io.strata.rule.RoutingRule;
import io.strata.rule.RuleChain;
import io.strata.rule.sharding.DataNode;
import io.strata.rule.sharding.ShardedTable;
import io.strata.rule.sharding.ShardingRule;
import io.strata.rule.sql.SqlLike;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The logical database as JDBC describes it: {@link #getTables}, {@link #getColumns}, {@link #getPrimaryKeys},
 * {@link #getIndexInfo} and the foreign keys list logical tables (a sharded table once, by its logical name, never
 * its actual tables {@code t_order_0..3}), each described by one of its actual tables, and every table of every data
 * source of the database (single tables too). What does not depend on tables (the server's version, its keywords,
 * what SQL it supports) is MariaDB Connector/J's answer for the database's first data source.
 */
final class StrataDatabaseMetaData implements DatabaseMetaData {

    private final StrataConnection connection;

    StrataDatabaseMetaData(StrataConnection connection) {
        this.connection = connection;
    }

    @FunctionalInterface
    private interface MetaCall<T> {
        T call(DatabaseMetaData metaData) throws SQLException;
    }

    /** Asks the database's first data source (a pooled connection, for this call only). */
    private <T> T value(MetaCall<T> call) throws SQLException {
        return value(connection.dataSources().get(0), call);
    }

    private <T> T value(String dataSource, MetaCall<T> call) throws SQLException {
        try (Connection backend = connection.backend(dataSource)) {
            return call.call(backend.getMetaData());
        }
    }

    private ResultSet rows(MetaCall<ResultSet> call) throws SQLException {
        Copied copied = value(md -> copy(call.call(md)));
        return copied.resultSet();
    }

    /** A backend's metadata rows, copied (the connection they came on goes back to its pool). */
    private Copied copy(ResultSet rows) throws SQLException {
        try (rows) {
            List<ColumnMetadata> columns = JdbcColumns.describe(rows.getMetaData());
            List<Object[]> copied = new ArrayList<>();
            while (rows.next()) {
                Object[] cells = new Object[columns.size()];
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = BinaryCells.read(rows, i + 1, columns.get(i));
                }
                copied.add(cells);
            }
            return new Copied(columns, copied);
        }
    }

    /** Rows copied from a backend, with their column definitions; labels found case-insensitively. */
    private final class Copied {
        final List<ColumnMetadata> columns;
        final List<Object[]> rows;

        Copied(List<ColumnMetadata> columns, List<Object[]> rows) {
            this.columns = columns;
            this.rows = rows;
        }

        int column(String label) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(label)) {
                    return i;
                }
            }
            return -1;
        }

        /** Every row's catalog columns say the logical database, its table columns the logical table. */
        void logical(String dataSource) {
            for (int i = 0; i < columns.size(); i++) {
                String label = columns.get(i).name().toUpperCase(Locale.ROOT);
                for (Object[] row : rows) {
                    if (label.endsWith("TABLE_CAT") && row[i] != null) {
                        row[i] = connection.database();
                    } else if (label.endsWith("TABLE_NAME") && row[i] != null) {
                        row[i] = logicalName(dataSource, CellValues.text(row[i]));
                    }
                }
            }
        }

        ResultSet resultSet() {
            return new StrataResultSet(null, new StrataStatement.Listed(columns, rows));
        }
    }

    /** The logical name of an actual table on a data source: a sharded table's, else its own. */
    private String logicalName(String dataSource, String actual) {
        ShardedTable table = nodes().get(dataSource + "." + actual.toLowerCase(Locale.ROOT));
        return table != null ? table.logicalName() : actual;
    }

    /** Each actual table of a sharded table, by "data source.table" (lower case). */
    private Map<String, ShardedTable> nodes() {
        Map<String, ShardedTable> nodes = new HashMap<>();
        RuleChain chain = connection.strata().kernel().runtime().ruleChain(connection.database());
        if (chain == null) {
            return nodes;
        }
        for (RoutingRule rule : chain.routingRules()) {
            if (rule instanceof ShardingRule sharding) {
                for (ShardedTable table : sharding.tables().tables()) {
                    for (DataNode node : table.nodes()) {
                        nodes.put(node.dataSource() + "." + node.table().toLowerCase(Locale.ROOT), table);
                    }
                }
            }
        }
        return nodes;
    }

    /** Where each logical table is described: the first data source and actual table found for it. */
    private record Place(String dataSource, String table) {
    }

    /**
     * The tables of every data source of the database as logical tables, the first place of each kept, in the
     * order JDBC asks (type, then name), those matching {@code pattern} (SQL LIKE, null for all).
     */
    private Copied tables(String pattern, String[] types, Map<String, Place> places) throws SQLException {
        Copied all = null;
        Map<String, Object[]> byName = new LinkedHashMap<>();
        Pattern like = like(pattern);
        for (String dataSource : connection.dataSources()) {
            Copied found = value(dataSource, md -> copy(md.getTables(schema(md), null, "%", types)));
            int name = found.column("TABLE_NAME");
            for (Object[] row : found.rows) {
                String actual = CellValues.text(row[name]);
                String logical = logicalName(dataSource, actual);
                if (like != null && !like.matcher(logical).matches() || byName.containsKey(logical.toLowerCase(Locale.ROOT))) {
                    continue;
                }
                byName.put(logical.toLowerCase(Locale.ROOT), row);
                places.put(logical, new Place(dataSource, actual));
            }
            found.logical(dataSource);
            all = all == null ? found : all;
        }
        List<Object[]> rows = new ArrayList<>(byName.values());
        int type = all.column("TABLE_TYPE");
        int name = all.column("TABLE_NAME");
        rows.sort(Comparator.comparing((Object[] r) -> CellValues.text(r[type]))
                .thenComparing(r -> CellValues.text(r[name])));
        return new Copied(all.columns, rows);
    }

    /** A metadata pattern (SQL LIKE) as a regex; null for null (every name). */
    static Pattern like(String pattern) {
        return pattern == null ? null : SqlLike.pattern(pattern);
    }

    /**
     * The backend schema a data source's connection is in: its tables are the logical database's (Connector/J reads
     * a null catalog as every schema of the server).
     */
    private static String schema(DatabaseMetaData md) throws SQLException {
        return md.getConnection().getCatalog();
    }

    /** A table name as a LIKE pattern that matches it alone. */
    private static String exactly(String table) {
        return table.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        if (!ours(catalog)) {
            return none();
        }
        return tables(tableNamePattern, types, new HashMap<>()).resultSet();
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) throws SQLException {
        if (!ours(catalog)) {
            return none();
        }
        Map<String, Place> places = new LinkedHashMap<>();
        tables(tableNamePattern, null, places);
        Copied all = null;
        List<Object[]> rows = new ArrayList<>();
        for (Place place : places.values()) {
            Copied columns = value(place.dataSource(), md -> copy(md.getColumns(schema(md), null,
                    exactly(place.table()), columnNamePattern)));
            columns.logical(place.dataSource());
            rows.addAll(columns.rows);
            all = all == null ? columns : all;
        }
        if (all == null) {
            return value(md -> copy(md.getColumns(schema(md), null, "strata\\_no\\_such\\_table", null)))
                    .resultSet();
        }
        return new Copied(all.columns, rows).resultSet();
    }

    /** The rows a per-table question (keys, indexes) gets for one logical table, asked where the table lives. */
    private ResultSet ofTable(String catalog, String table, TableCall ask) throws SQLException {
        Map<String, Place> places = new LinkedHashMap<>();
        if (ours(catalog) && table != null) {
            tables(exactly(table), null, places);
        }
        Place place = places.isEmpty() ? null : places.values().iterator().next();
        String dataSource = place == null ? connection.dataSources().get(0) : place.dataSource();
        String actual = place == null ? "strata_no_such_table" : place.table();
        Copied copied = value(dataSource, md -> copy(ask.call(md, actual)));
        copied.logical(dataSource);
        return copied.resultSet();
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return ofTable(catalog, table, (md, actual) -> md.getPrimaryKeys(schema(md), null, actual));
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return ofTable(catalog, table, (md, actual) -> md.getIndexInfo(schema(md), null, actual, unique,
                approximate));
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return ofTable(catalog, table, (md, actual) -> md.getImportedKeys(schema(md), null, actual));
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return ofTable(catalog, table, (md, actual) -> md.getExportedKeys(schema(md), null, actual));
    }

    @FunctionalInterface
    private interface TableCall {
        ResultSet call(DatabaseMetaData metaData, String actualTable) throws SQLException;
    }

    /** Whether a catalog argument means the session's logical database (null or empty: it). */
    private boolean ours(String catalog) {
        return catalog == null || catalog.isEmpty() || catalog.equals(connection.database());
    }

    private ResultSet none() throws SQLException {
        return getTables(connection.database(), null, "strata\\_no\\_such\\_table", null);
    }

    /** The logical databases, as MariaDB Connector/J lists the server's databases. */
    @Override
    public ResultSet getCatalogs() throws SQLException {
        Copied copied = value(md -> copy(md.getCatalogs()));
        copied.rows.clear();
        for (String database : connection.strata().config().databases().keySet()) {
            copied.rows.add(new Object[]{database});
        }
        return copied.resultSet();
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return rows(DatabaseMetaData::getSchemas);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return rows(md -> md.getSchemas(catalog, schemaPattern));
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    @Override
    public String getUserName() {
        return connection.user();
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    @Override
    public String getDriverName() {
        return StrataDriver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return StrataDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return StrataDriver.MAJOR;
    }

    @Override
    public int getDriverMinorVersion() {
        return StrataDriver.MINOR;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // What does not depend on tables: the first data source's answer.

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        return value(md -> md.allProceduresAreCallable());
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        return value(md -> md.allTablesAreSelectable());
    }

    @Override
    public boolean nullsAreSortedHigh() throws SQLException {
        return value(md -> md.nullsAreSortedHigh());
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        return value(md -> md.nullsAreSortedLow());
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        return value(md -> md.nullsAreSortedAtStart());
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return value(md -> md.nullsAreSortedAtEnd());
    }

    @Override
    public String getDatabaseProductName() throws SQLException {
        return value(md -> md.getDatabaseProductName());
    }

    @Override
    public String getDatabaseProductVersion() throws SQLException {
        return value(md -> md.getDatabaseProductVersion());
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        return value(md -> md.usesLocalFiles());
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        return value(md -> md.usesLocalFilePerTable());
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() throws SQLException {
        return value(md -> md.supportsMixedCaseIdentifiers());
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws SQLException {
        return value(md -> md.storesUpperCaseIdentifiers());
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws SQLException {
        return value(md -> md.storesLowerCaseIdentifiers());
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws SQLException {
        return value(md -> md.storesMixedCaseIdentifiers());
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        return value(md -> md.supportsMixedCaseQuotedIdentifiers());
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
        return value(md -> md.storesUpperCaseQuotedIdentifiers());
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
        return value(md -> md.storesLowerCaseQuotedIdentifiers());
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
        return value(md -> md.storesMixedCaseQuotedIdentifiers());
    }

    @Override
    public String getIdentifierQuoteString() throws SQLException {
        return value(md -> md.getIdentifierQuoteString());
    }

    @Override
    public String getSQLKeywords() throws SQLException {
        return value(md -> md.getSQLKeywords());
    }

    @Override
    public String getNumericFunctions() throws SQLException {
        return value(md -> md.getNumericFunctions());
    }

    @Override
    public String getStringFunctions() throws SQLException {
        return value(md -> md.getStringFunctions());
    }

    @Override
    public String getSystemFunctions() throws SQLException {
        return value(md -> md.getSystemFunctions());
    }

    @Override
    public String getTimeDateFunctions() throws SQLException {
        return value(md -> md.getTimeDateFunctions());
    }

    @Override
    public String getSearchStringEscape() throws SQLException {
        return value(md -> md.getSearchStringEscape());
    }

    @Override
    public String getExtraNameCharacters() throws SQLException {
        return value(md -> md.getExtraNameCharacters());
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        return value(md -> md.supportsAlterTableWithAddColumn());
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return value(md -> md.supportsAlterTableWithDropColumn());
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return value(md -> md.supportsColumnAliasing());
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        return value(md -> md.nullPlusNonNullIsNull());
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        return value(md -> md.supportsConvert());
    }

    @Override
    public boolean supportsConvert(int arg0, int arg1) throws SQLException {
        return value(md -> md.supportsConvert(arg0, arg1));
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return value(md -> md.supportsTableCorrelationNames());
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        return value(md -> md.supportsDifferentTableCorrelationNames());
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        return value(md -> md.supportsExpressionsInOrderBy());
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        return value(md -> md.supportsOrderByUnrelated());
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return value(md -> md.supportsGroupBy());
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return value(md -> md.supportsGroupByUnrelated());
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return value(md -> md.supportsGroupByBeyondSelect());
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return value(md -> md.supportsLikeEscapeClause());
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        return value(md -> md.supportsMultipleResultSets());
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        return value(md -> md.supportsMultipleTransactions());
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        return value(md -> md.supportsNonNullableColumns());
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return value(md -> md.supportsMinimumSQLGrammar());
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        return value(md -> md.supportsCoreSQLGrammar());
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return value(md -> md.supportsExtendedSQLGrammar());
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        return value(md -> md.supportsANSI92EntryLevelSQL());
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        return value(md -> md.supportsANSI92IntermediateSQL());
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        return value(md -> md.supportsANSI92FullSQL());
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return value(md -> md.supportsIntegrityEnhancementFacility());
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return value(md -> md.supportsOuterJoins());
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return value(md -> md.supportsFullOuterJoins());
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return value(md -> md.supportsLimitedOuterJoins());
    }

    @Override
    public String getSchemaTerm() throws SQLException {
        return value(md -> md.getSchemaTerm());
    }

    @Override
    public String getProcedureTerm() throws SQLException {
        return value(md -> md.getProcedureTerm());
    }

    @Override
    public String getCatalogTerm() throws SQLException {
        return value(md -> md.getCatalogTerm());
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        return value(md -> md.isCatalogAtStart());
    }

    @Override
    public String getCatalogSeparator() throws SQLException {
        return value(md -> md.getCatalogSeparator());
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        return value(md -> md.supportsSchemasInDataManipulation());
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        return value(md -> md.supportsSchemasInProcedureCalls());
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        return value(md -> md.supportsSchemasInTableDefinitions());
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        return value(md -> md.supportsSchemasInIndexDefinitions());
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        return value(md -> md.supportsSchemasInPrivilegeDefinitions());
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        return value(md -> md.supportsCatalogsInDataManipulation());
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        return value(md -> md.supportsCatalogsInProcedureCalls());
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        return value(md -> md.supportsCatalogsInTableDefinitions());
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        return value(md -> md.supportsCatalogsInIndexDefinitions());
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        return value(md -> md.supportsCatalogsInPrivilegeDefinitions());
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        return value(md -> md.supportsPositionedDelete());
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        return value(md -> md.supportsPositionedUpdate());
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        return value(md -> md.supportsSelectForUpdate());
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        return value(md -> md.supportsStoredProcedures());
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        return value(md -> md.supportsSubqueriesInComparisons());
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return value(md -> md.supportsSubqueriesInExists());
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return value(md -> md.supportsSubqueriesInIns());
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return value(md -> md.supportsSubqueriesInQuantifieds());
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return value(md -> md.supportsCorrelatedSubqueries());
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        return value(md -> md.supportsUnion());
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return value(md -> md.supportsUnionAll());
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        return value(md -> md.supportsOpenCursorsAcrossCommit());
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        return value(md -> md.supportsOpenCursorsAcrossRollback());
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        return value(md -> md.supportsOpenStatementsAcrossCommit());
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        return value(md -> md.supportsOpenStatementsAcrossRollback());
    }

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        return value(md -> md.getMaxBinaryLiteralLength());
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        return value(md -> md.getMaxCharLiteralLength());
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        return value(md -> md.getMaxColumnNameLength());
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        return value(md -> md.getMaxColumnsInGroupBy());
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return value(md -> md.getMaxColumnsInIndex());
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        return value(md -> md.getMaxColumnsInOrderBy());
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return value(md -> md.getMaxColumnsInSelect());
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return value(md -> md.getMaxColumnsInTable());
    }

    @Override
    public int getMaxConnections() throws SQLException {
        return value(md -> md.getMaxConnections());
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        return value(md -> md.getMaxCursorNameLength());
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        return value(md -> md.getMaxIndexLength());
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        return value(md -> md.getMaxSchemaNameLength());
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        return value(md -> md.getMaxProcedureNameLength());
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        return value(md -> md.getMaxCatalogNameLength());
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        return value(md -> md.getMaxRowSize());
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        return value(md -> md.doesMaxRowSizeIncludeBlobs());
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        return value(md -> md.getMaxStatementLength());
    }

    @Override
    public int getMaxStatements() throws SQLException {
        return value(md -> md.getMaxStatements());
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        return value(md -> md.getMaxTableNameLength());
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        return value(md -> md.getMaxTablesInSelect());
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        return value(md -> md.getMaxUserNameLength());
    }

    @Override
    public int getDefaultTransactionIsolation() throws SQLException {
        return value(md -> md.getDefaultTransactionIsolation());
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        return value(md -> md.supportsTransactions());
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int arg0) throws SQLException {
        return value(md -> md.supportsTransactionIsolationLevel(arg0));
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        return value(md -> md.supportsDataDefinitionAndDataManipulationTransactions());
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        return value(md -> md.supportsDataManipulationTransactionsOnly());
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        return value(md -> md.dataDefinitionCausesTransactionCommit());
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        return value(md -> md.dataDefinitionIgnoredInTransactions());
    }

    @Override
    public ResultSet getProcedures(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getProcedures(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getProcedureColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return rows(md -> md.getProcedureColumns(arg0, arg1, arg2, arg3));
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return rows(md -> md.getTableTypes());
    }

    @Override
    public ResultSet getColumnPrivileges(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return rows(md -> md.getColumnPrivileges(arg0, arg1, arg2, arg3));
    }

    @Override
    public ResultSet getTablePrivileges(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getTablePrivileges(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getBestRowIdentifier(String arg0, String arg1, String arg2, int arg3, boolean arg4) throws SQLException {
        return rows(md -> md.getBestRowIdentifier(arg0, arg1, arg2, arg3, arg4));
    }

    @Override
    public ResultSet getVersionColumns(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getVersionColumns(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getCrossReference(String arg0, String arg1, String arg2, String arg3, String arg4, String arg5) throws SQLException {
        return rows(md -> md.getCrossReference(arg0, arg1, arg2, arg3, arg4, arg5));
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        return rows(md -> md.getTypeInfo());
    }

    @Override
    public boolean supportsResultSetType(int arg0) throws SQLException {
        return value(md -> md.supportsResultSetType(arg0));
    }

    @Override
    public boolean supportsResultSetConcurrency(int arg0, int arg1) throws SQLException {
        return value(md -> md.supportsResultSetConcurrency(arg0, arg1));
    }

    @Override
    public boolean ownUpdatesAreVisible(int arg0) throws SQLException {
        return value(md -> md.ownUpdatesAreVisible(arg0));
    }

    @Override
    public boolean ownDeletesAreVisible(int arg0) throws SQLException {
        return value(md -> md.ownDeletesAreVisible(arg0));
    }

    @Override
    public boolean ownInsertsAreVisible(int arg0) throws SQLException {
        return value(md -> md.ownInsertsAreVisible(arg0));
    }

    @Override
    public boolean othersUpdatesAreVisible(int arg0) throws SQLException {
        return value(md -> md.othersUpdatesAreVisible(arg0));
    }

    @Override
    public boolean othersDeletesAreVisible(int arg0) throws SQLException {
        return value(md -> md.othersDeletesAreVisible(arg0));
    }

    @Override
    public boolean othersInsertsAreVisible(int arg0) throws SQLException {
        return value(md -> md.othersInsertsAreVisible(arg0));
    }

    @Override
    public boolean updatesAreDetected(int arg0) throws SQLException {
        return value(md -> md.updatesAreDetected(arg0));
    }

    @Override
    public boolean deletesAreDetected(int arg0) throws SQLException {
        return value(md -> md.deletesAreDetected(arg0));
    }

    @Override
    public boolean insertsAreDetected(int arg0) throws SQLException {
        return value(md -> md.insertsAreDetected(arg0));
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        return value(md -> md.supportsBatchUpdates());
    }

    @Override
    public ResultSet getUDTs(String arg0, String arg1, String arg2, int[] arg3) throws SQLException {
        return rows(md -> md.getUDTs(arg0, arg1, arg2, arg3));
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        return value(md -> md.supportsSavepoints());
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        return value(md -> md.supportsNamedParameters());
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        return value(md -> md.supportsMultipleOpenResults());
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return value(md -> md.supportsGetGeneratedKeys());
    }

    @Override
    public ResultSet getSuperTypes(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getSuperTypes(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getSuperTables(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getSuperTables(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getAttributes(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return rows(md -> md.getAttributes(arg0, arg1, arg2, arg3));
    }

    @Override
    public boolean supportsResultSetHoldability(int arg0) throws SQLException {
        return value(md -> md.supportsResultSetHoldability(arg0));
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return value(md -> md.getResultSetHoldability());
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        return value(md -> md.getDatabaseMajorVersion());
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        return value(md -> md.getDatabaseMinorVersion());
    }

    @Override
    public int getJDBCMajorVersion() throws SQLException {
        return value(md -> md.getJDBCMajorVersion());
    }

    @Override
    public int getJDBCMinorVersion() throws SQLException {
        return value(md -> md.getJDBCMinorVersion());
    }

    @Override
    public int getSQLStateType() throws SQLException {
        return value(md -> md.getSQLStateType());
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        return value(md -> md.locatorsUpdateCopy());
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        return value(md -> md.supportsStatementPooling());
    }

    @Override
    public RowIdLifetime getRowIdLifetime() throws SQLException {
        return value(md -> md.getRowIdLifetime());
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        return value(md -> md.supportsStoredFunctionsUsingCallSyntax());
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        return value(md -> md.autoCommitFailureClosesAllResultSets());
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return rows(md -> md.getClientInfoProperties());
    }

    @Override
    public ResultSet getFunctions(String arg0, String arg1, String arg2) throws SQLException {
        return rows(md -> md.getFunctions(arg0, arg1, arg2));
    }

    @Override
    public ResultSet getFunctionColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return rows(md -> md.getFunctionColumns(arg0, arg1, arg2, arg3));
    }

    @Override
    public ResultSet getPseudoColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return rows(md -> md.getPseudoColumns(arg0, arg1, arg2, arg3));
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        return value(md -> md.generatedKeyAlwaysReturned());
    }
}
