/**
 * Per-connection session state and the registry of live sessions.
 */
package io.strata.frontend.session;
