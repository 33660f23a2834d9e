package io.strata.jdbc;

import java.sql.SQLFeatureNotSupportedException;

/** JDBC methods the embedded driver cannot honour say so by name. */
final class Unsupported {

    private Unsupported() {
    }

    static SQLFeatureNotSupportedException method(String what) {
        return new SQLFeatureNotSupportedException("Strata's embedded driver does not support " + what, "0A000");
    }
}
