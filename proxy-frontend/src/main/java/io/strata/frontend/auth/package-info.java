/**
 * The connection phase: greeting, handshake response, auth switch, caching_sha2_password fast and full
 * authentication, database access checks.
 */
package io.strata.frontend.auth;
