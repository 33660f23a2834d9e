/**
 * The merge engine: combines the protocol-neutral answers of a route's units into the client's one answer
 * (concatenated result sets, summed or single-copy update counts, errors that say where a change was applied).
 */
package io.strata.backend.merge;
