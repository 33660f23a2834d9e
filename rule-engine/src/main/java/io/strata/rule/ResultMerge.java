package io.strata.rule;

/** How the answers of a route's units make the one answer the client gets. */
public enum ResultMerge {

    /**
     * The units' answers one after the other: result sets as one (the first unit's columns, every unit's rows),
     * affected rows summed. A route of one unit merges this way too: its answer as it is.
     */
    CONCATENATE,

    /**
     * Every unit ran the same change on its own copy of the same data (a broadcast table): every copy must succeed,
     * and the client gets one copy's answer (its affected rows and last insert id), not their sum.
     */
    ONE_COPY
}
