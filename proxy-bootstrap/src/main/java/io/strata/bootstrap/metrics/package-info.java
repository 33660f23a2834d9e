/**
 * The Prometheus endpoint ({@code server.metrics}): what Strata counts and reads at scrape time, served over HTTP.
 */
package io.strata.bootstrap.metrics;
