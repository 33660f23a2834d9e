package io.strata.backend.execute;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.strata.protocol.command.ComStmtExecute;

import java.util.HashSet;
import java.util.Set;

/**
 * A session's prepared statements: ids handed out (never reused within the session), the statements by id, the last
 * one prepared (MariaDB's id {@link ComStmtExecute#LAST_PREPARED} names it), and which have a cursor open on a
 * backend connection.
 */
public final class PreparedStatements {

    /** By id; looked up on every execute, so keys stay unboxed (a boxed map cost a cache miss more per command). */
    private final IntObjectMap<PreparedStatement> statements = new IntObjectHashMap<>();
    private final Set<Integer> openCursors = new HashSet<>();
    private int nextId = 1;
    private int lastPrepared = -1;

    /** A fresh statement id for COM_STMT_PREPARE. */
    public int nextId() {
        return nextId++;
    }

    public void prepared(PreparedStatement statement) {
        statements.put(statement.id(), statement);
        lastPrepared = statement.id();
    }

    /** A prepare failed: there is no last statement to execute by {@link ComStmtExecute#LAST_PREPARED}. */
    public void prepareFailed() {
        lastPrepared = -1;
    }

    /** The statement with this id, or null when unknown. */
    public PreparedStatement get(long id) {
        return statements.get(id == ComStmtExecute.LAST_PREPARED ? lastPrepared : (int) id);
    }

    public void close(PreparedStatement statement) {
        statements.remove(statement.id());
        openCursors.remove(statement.id());
    }

    public void cursor(PreparedStatement statement, boolean open) {
        if (open) {
            openCursors.add(statement.id());
        } else if (!openCursors.isEmpty()) { // every execute says "none": no boxing, no hashing then
            openCursors.remove(statement.id());
        }
    }

    /** Whether a cursor of a statement is open on a backend connection. */
    public boolean anyCursorOpen() {
        return !openCursors.isEmpty();
    }

    /** The backend connection holding the cursors broke: they are gone, the statements stay. */
    public void cursorsLost() {
        openCursors.clear();
    }

    /** A reset closes every prepared statement, as the server does; ids go on counting. */
    public void clear() {
        statements.clear();
        openCursors.clear();
        lastPrepared = -1;
    }
}
