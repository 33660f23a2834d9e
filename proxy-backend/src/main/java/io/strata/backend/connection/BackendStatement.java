package io.strata.backend.connection;

/**
 * A statement prepared on one backend connection: the server's id for it, its shape, the packets of the prepare
 * response (so another client session preparing the same SQL is answered without a round trip), and the parameter
 * types last bound on the server (so an execute that does not resend types is only forwarded as it is when the
 * server holds the same types).
 */
public final class BackendStatement {

    private final long id;
    private final int params;
    private final int columns;
    private final byte[] prepareResponse;
    private byte[] boundTypes;
    /** When its connection last used it (a count of lookups there): the cache evicts the smallest. */
    long lastUse;
    /** The connection whose cache holds it; null once evicted, forgotten or reset there. */
    volatile BackendConnection cachedOn;
    /**
     * Its connection's character set when it was prepared (SET NAMES, character_set_results, collation_connection):
     * the server read its literals in that set and describes its columns in it, so a session of another set cannot
     * use it (a literal 'ł' came back as '?' to a latin1 session).
     */
    String names;
    String results;
    String collation;
    /**
     * Its connection's sql_mode when it was prepared (null: the server's own), which the server parsed it in: under
     * ANSI_QUOTES {@code "q"} is a column, not a string, and NO_BACKSLASH_ESCAPES reads literals otherwise.
     */
    String sqlMode;

    public BackendStatement(long id, int params, int columns, byte[] prepareResponse) {
        this.id = id;
        this.params = params;
        this.columns = columns;
        this.prepareResponse = prepareResponse;
    }

    public long id() {
        return id;
    }

    public int params() {
        return params;
    }

    public int columns() {
        return columns;
    }

    /** All packets of the prepare response, headers included, with the backend's statement id in the first. */
    public byte[] prepareResponse() {
        return prepareResponse;
    }

    public byte[] boundTypes() {
        return boundTypes;
    }

    public void boundTypes(byte[] types) {
        this.boundTypes = types;
    }
}
