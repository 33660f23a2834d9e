package io.strata.backend.jdbc;

import java.sql.Connection;
import java.sql.Statement;

/**
 * The connection one unit of a route runs on, as its host holds it: the host counts the answers still reading from
 * it (it goes back to its pool only when none is), knows the statement running there (to cancel it), and drops it
 * when it broke. The embedded driver's session and the proxy's JDBC executor each hold theirs their own way.
 */
public interface UnitConnection {

    Connection connection();

    /** An answer starts reading from the connection. */
    void opened();

    /** An answer was read (or dropped). */
    void done();

    /** A statement starts running here (a cancel stops it). */
    void running(Statement statement);

    void stopped(Statement statement);

    /** The connection broke: it must not serve anyone again. */
    void lost();
}
