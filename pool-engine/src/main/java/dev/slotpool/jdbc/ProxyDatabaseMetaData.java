package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;

/**
 * A thin proxy of a driver's {@link DatabaseMetaData}: {@link #getConnection()} answers the proxy connection, the
 * result sets it returns are {@link ProxyResultSet}s (whose {@code getStatement()} is {@code null}, as JDBC
 * allows for metadata), and fatal errors evict the connection. Once the connection is closed the delegate is
 * the closed sentinel, since metadata queries run on the physical connection.
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 */
final class ProxyDatabaseMetaData implements DatabaseMetaData {

    private final ProxyConnection connection;
    private final DatabaseMetaData delegate;

    ProxyDatabaseMetaData(ProxyConnection connection, DatabaseMetaData delegate) {
        this.connection = connection;
        this.delegate = delegate;
    }

    private DatabaseMetaData live() {
        return connection.open() ? delegate : ClosedSentinel.METADATA;
    }

    private ResultSet wrap(ResultSet resultSet) {
        return resultSet == null ? null : new ProxyResultSet(connection, null, resultSet);
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (live() == ClosedSentinel.METADATA) {
            throw ClosedSentinel.connectionClosed();
        }
        return connection;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        DatabaseMetaData metaData = live();
        if (metaData != ClosedSentinel.METADATA && iface.isInstance(this)) {
            return iface.cast(this);
        }
        try {
            return metaData.unwrap(iface);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        DatabaseMetaData metaData = live();
        if (metaData != ClosedSentinel.METADATA && iface.isInstance(this)) {
            return true;
        }
        try {
            return metaData.isWrapperFor(iface);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        try { return live().allProceduresAreCallable(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        try { return live().allTablesAreSelectable(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getURL() throws SQLException {
        try { return live().getURL(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getUserName() throws SQLException {
        try { return live().getUserName(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        try { return live().isReadOnly(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean nullsAreSortedHigh() throws SQLException {
        try { return live().nullsAreSortedHigh(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        try { return live().nullsAreSortedLow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        try { return live().nullsAreSortedAtStart(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        try { return live().nullsAreSortedAtEnd(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getDatabaseProductName() throws SQLException {
        try { return live().getDatabaseProductName(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getDatabaseProductVersion() throws SQLException {
        try { return live().getDatabaseProductVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getDriverName() throws SQLException {
        try { return live().getDriverName(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getDriverVersion() throws SQLException {
        try { return live().getDriverVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getDriverMajorVersion() {
        return delegate.getDriverMajorVersion(); // declares no SQLException, so no sentinel; the driver answers from constants
    }

    @Override
    public int getDriverMinorVersion() {
        return delegate.getDriverMinorVersion(); // declares no SQLException, so no sentinel; the driver answers from constants
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        try { return live().usesLocalFiles(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        try { return live().usesLocalFilePerTable(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() throws SQLException {
        try { return live().supportsMixedCaseIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws SQLException {
        try { return live().storesUpperCaseIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws SQLException {
        try { return live().storesLowerCaseIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws SQLException {
        try { return live().storesMixedCaseIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        try {
            return live().supportsMixedCaseQuotedIdentifiers();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
        try { return live().storesUpperCaseQuotedIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
        try { return live().storesLowerCaseQuotedIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
        try { return live().storesMixedCaseQuotedIdentifiers(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getIdentifierQuoteString() throws SQLException {
        try { return live().getIdentifierQuoteString(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getSQLKeywords() throws SQLException {
        try { return live().getSQLKeywords(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getNumericFunctions() throws SQLException {
        try { return live().getNumericFunctions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getStringFunctions() throws SQLException {
        try { return live().getStringFunctions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getSystemFunctions() throws SQLException {
        try { return live().getSystemFunctions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getTimeDateFunctions() throws SQLException {
        try { return live().getTimeDateFunctions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getSearchStringEscape() throws SQLException {
        try { return live().getSearchStringEscape(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getExtraNameCharacters() throws SQLException {
        try { return live().getExtraNameCharacters(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        try { return live().supportsAlterTableWithAddColumn(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        try { return live().supportsAlterTableWithDropColumn(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        try { return live().supportsColumnAliasing(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        try { return live().nullPlusNonNullIsNull(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        try { return live().supportsConvert(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) throws SQLException {
        try { return live().supportsConvert(fromType, toType); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        try { return live().supportsTableCorrelationNames(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        try {
            return live().supportsDifferentTableCorrelationNames();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        try { return live().supportsExpressionsInOrderBy(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        try { return live().supportsOrderByUnrelated(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        try { return live().supportsGroupBy(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        try { return live().supportsGroupByUnrelated(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        try { return live().supportsGroupByBeyondSelect(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        try { return live().supportsLikeEscapeClause(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        try { return live().supportsMultipleResultSets(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        try { return live().supportsMultipleTransactions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        try { return live().supportsNonNullableColumns(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        try { return live().supportsMinimumSQLGrammar(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        try { return live().supportsCoreSQLGrammar(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        try { return live().supportsExtendedSQLGrammar(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        try { return live().supportsANSI92EntryLevelSQL(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        try { return live().supportsANSI92IntermediateSQL(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        try { return live().supportsANSI92FullSQL(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        try {
            return live().supportsIntegrityEnhancementFacility();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        try { return live().supportsOuterJoins(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        try { return live().supportsFullOuterJoins(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        try { return live().supportsLimitedOuterJoins(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getSchemaTerm() throws SQLException {
        try { return live().getSchemaTerm(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getProcedureTerm() throws SQLException {
        try { return live().getProcedureTerm(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getCatalogTerm() throws SQLException {
        try { return live().getCatalogTerm(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        try { return live().isCatalogAtStart(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getCatalogSeparator() throws SQLException {
        try { return live().getCatalogSeparator(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        try {
            return live().supportsSchemasInDataManipulation();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        try { return live().supportsSchemasInProcedureCalls(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        try {
            return live().supportsSchemasInTableDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        try {
            return live().supportsSchemasInIndexDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        try {
            return live().supportsSchemasInPrivilegeDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        try {
            return live().supportsCatalogsInDataManipulation();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        try { return live().supportsCatalogsInProcedureCalls(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        try {
            return live().supportsCatalogsInTableDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        try {
            return live().supportsCatalogsInIndexDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        try {
            return live().supportsCatalogsInPrivilegeDefinitions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        try { return live().supportsPositionedDelete(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        try { return live().supportsPositionedUpdate(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        try { return live().supportsSelectForUpdate(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        try { return live().supportsStoredProcedures(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        try { return live().supportsSubqueriesInComparisons(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        try { return live().supportsSubqueriesInExists(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        try { return live().supportsSubqueriesInIns(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        try { return live().supportsSubqueriesInQuantifieds(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        try { return live().supportsCorrelatedSubqueries(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        try { return live().supportsUnion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        try { return live().supportsUnionAll(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        try { return live().supportsOpenCursorsAcrossCommit(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        try {
            return live().supportsOpenCursorsAcrossRollback();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        try {
            return live().supportsOpenStatementsAcrossCommit();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        try {
            return live().supportsOpenStatementsAcrossRollback();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        try { return live().getMaxBinaryLiteralLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        try { return live().getMaxCharLiteralLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        try { return live().getMaxColumnNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        try { return live().getMaxColumnsInGroupBy(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        try { return live().getMaxColumnsInIndex(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        try { return live().getMaxColumnsInOrderBy(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        try { return live().getMaxColumnsInSelect(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        try { return live().getMaxColumnsInTable(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxConnections() throws SQLException {
        try { return live().getMaxConnections(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        try { return live().getMaxCursorNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        try { return live().getMaxIndexLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        try { return live().getMaxSchemaNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        try { return live().getMaxProcedureNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        try { return live().getMaxCatalogNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        try { return live().getMaxRowSize(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        try { return live().doesMaxRowSizeIncludeBlobs(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        try { return live().getMaxStatementLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxStatements() throws SQLException {
        try { return live().getMaxStatements(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        try { return live().getMaxTableNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        try { return live().getMaxTablesInSelect(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        try { return live().getMaxUserNameLength(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getDefaultTransactionIsolation() throws SQLException {
        try { return live().getDefaultTransactionIsolation(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        try { return live().supportsTransactions(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) throws SQLException {
        try {
            return live().supportsTransactionIsolationLevel(level);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        try {
            return live().supportsDataDefinitionAndDataManipulationTransactions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        try {
            return live().supportsDataManipulationTransactionsOnly();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        try {
            return live().dataDefinitionCausesTransactionCommit();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        try {
            return live().dataDefinitionIgnoredInTransactions();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        try {
            return wrap(live().getProcedures(catalog, schemaPattern, procedureNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
            String columnNamePattern) throws SQLException {
        try {
            return wrap(live().getProcedureColumns(catalog, schemaPattern, procedureNamePattern, columnNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        try {
            return wrap(live().getTables(catalog, schemaPattern, tableNamePattern, types));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        try { return wrap(live().getSchemas()); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        try { return wrap(live().getCatalogs()); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        try { return wrap(live().getTableTypes()); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        try {
            return wrap(live().getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        try {
            return wrap(live().getColumnPrivileges(catalog, schema, table, columnNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        try {
            return wrap(live().getTablePrivileges(catalog, schemaPattern, tableNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        try {
            return wrap(live().getBestRowIdentifier(catalog, schema, table, scope, nullable));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        try {
            return wrap(live().getVersionColumns(catalog, schema, table));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        try {
            return wrap(live().getPrimaryKeys(catalog, schema, table));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        try {
            return wrap(live().getImportedKeys(catalog, schema, table));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        try {
            return wrap(live().getExportedKeys(catalog, schema, table));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
            String foreignCatalog, String foreignSchema, String foreignTable) throws SQLException {
        try {
            return wrap(live().getCrossReference(
                    parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema, foreignTable));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        try { return wrap(live().getTypeInfo()); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        try {
            return wrap(live().getIndexInfo(catalog, schema, table, unique, approximate));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsResultSetType(int type) throws SQLException {
        try { return live().supportsResultSetType(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
        try {
            return live().supportsResultSetConcurrency(type, concurrency);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) throws SQLException {
        try { return live().ownUpdatesAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean ownDeletesAreVisible(int type) throws SQLException {
        try { return live().ownDeletesAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean ownInsertsAreVisible(int type) throws SQLException {
        try { return live().ownInsertsAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) throws SQLException {
        try { return live().othersUpdatesAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean othersDeletesAreVisible(int type) throws SQLException {
        try { return live().othersDeletesAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean othersInsertsAreVisible(int type) throws SQLException {
        try { return live().othersInsertsAreVisible(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean updatesAreDetected(int type) throws SQLException {
        try { return live().updatesAreDetected(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean deletesAreDetected(int type) throws SQLException {
        try { return live().deletesAreDetected(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean insertsAreDetected(int type) throws SQLException {
        try { return live().insertsAreDetected(type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        try { return live().supportsBatchUpdates(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        try {
            return wrap(live().getUDTs(catalog, schemaPattern, typeNamePattern, types));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        try { return live().supportsSavepoints(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        try { return live().supportsNamedParameters(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        try { return live().supportsMultipleOpenResults(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        try { return live().supportsGetGeneratedKeys(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        try {
            return wrap(live().getSuperTypes(catalog, schemaPattern, typeNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        try {
            return wrap(live().getSuperTables(catalog, schemaPattern, tableNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
            String attributeNamePattern) throws SQLException {
        try {
            return wrap(live().getAttributes(catalog, schemaPattern, typeNamePattern, attributeNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) throws SQLException {
        try {
            return live().supportsResultSetHoldability(holdability);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        try { return live().getResultSetHoldability(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        try { return live().getDatabaseMajorVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        try { return live().getDatabaseMinorVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getJDBCMajorVersion() throws SQLException {
        try { return live().getJDBCMajorVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getJDBCMinorVersion() throws SQLException {
        try { return live().getJDBCMinorVersion(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getSQLStateType() throws SQLException {
        try { return live().getSQLStateType(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        try { return live().locatorsUpdateCopy(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        try { return live().supportsStatementPooling(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public RowIdLifetime getRowIdLifetime() throws SQLException {
        try { return live().getRowIdLifetime(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        try {
            return wrap(live().getSchemas(catalog, schemaPattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        try {
            return live().supportsStoredFunctionsUsingCallSyntax();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        try {
            return live().autoCommitFailureClosesAllResultSets();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        try { return wrap(live().getClientInfoProperties()); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        try {
            return wrap(live().getFunctions(catalog, schemaPattern, functionNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
            String columnNamePattern) throws SQLException {
        try {
            return wrap(live().getFunctionColumns(catalog, schemaPattern, functionNamePattern, columnNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
            String columnNamePattern) throws SQLException {
        try {
            return wrap(live().getPseudoColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        try { return live().generatedKeyAlwaysReturned(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public long getMaxLogicalLobSize() throws SQLException {
        try { return live().getMaxLogicalLobSize(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsRefCursors() throws SQLException {
        try { return live().supportsRefCursors(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean supportsSharding() throws SQLException {
        try { return live().supportsSharding(); } catch (SQLException e) { throw connection.failed(e); }
    }
}
