package io.strata.backend.result;

import java.util.List;

/**
 * What a prepared statement looks like to its client: the parameter and result column definitions (in the client's
 * character set), the warnings and the server status of the prepare.
 */
public record StatementShape(List<ColumnMetadata> params, List<ColumnMetadata> columns, int warnings,
                             int statusFlags) {
}
