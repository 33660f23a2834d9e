/**
 * Configuration as immutable records, read from server.yaml and config-*.yaml and validated once at start.
 */
package io.strata.config;
