/**
 * Native backend connections: opening and authenticating them, pooling them by client flavor, and making their
 * server-side session state equal to a client session's before use.
 */
package io.strata.backend.connection;
