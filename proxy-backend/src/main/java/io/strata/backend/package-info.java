/**
 * Backend data sources: every pool Strata holds, keyed by logical database and data source.
 */
package io.strata.backend;
