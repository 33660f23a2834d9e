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
    /** The statement of the same SQL parsed in another state on its connection, if any; guarded by its monitor. */
    BackendStatement otherState;
    /** What its connection's state was when it was prepared, which the server parsed it in. */
    ParseState parsedIn;
    /**
     * Its connection's character_set_results when it was prepared: the prepare response describes the columns in it,
     * so it answers only a prepare of a session with the same (an execute describes them anew).
     */
    String results;

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

    /** Set when a connection caches it, which is before any session uses it. */
    public ParseState parsedIn() {
        return parsedIn;
    }

    public byte[] boundTypes() {
        return boundTypes;
    }

    public void boundTypes(byte[] types) {
        this.boundTypes = types;
    }
}
