package io.strata.backend.jdbc;

/**
 * How a unit's statement runs and how its rows are read.
 *
 * @param fetchSize           rows the driver reads at a time (0: the driver's default, the whole result)
 * @param maxRows             the most rows the statement answers (0: no limit)
 * @param queryTimeoutSeconds the backend statement's time limit (0: none)
 * @param cells               how a row's values are read
 * @param textCollationId     the collation text columns are described in (0: as the backend described them)
 * @param maxBytesPerChar     the bytes per character of that collation's character set
 */
public record UnitOptions(int fetchSize, long maxRows, int queryTimeoutSeconds, Cells cells, int textCollationId,
                          int maxBytesPerChar) {

    /** How a row's values are read from the driver's result set. */
    public enum Cells {
        /** Not read: the host reads them in the driver's result set (a one-unit answer needs no copy). */
        IN_PLACE,
        /** As the binary protocol has them: numbers as Numbers, the rest as text or bytes. */
        BINARY,
        /** As the text protocol has them: text, or bytes for binary columns. */
        TEXT
    }

    public UnitOptions withFetchSize(int size) {
        return new UnitOptions(size, maxRows, queryTimeoutSeconds, cells, textCollationId, maxBytesPerChar);
    }

    public UnitOptions withCells(Cells other) {
        return new UnitOptions(fetchSize, maxRows, queryTimeoutSeconds, other, textCollationId, maxBytesPerChar);
    }
}
