/**
 * Query digests: every statement counted under its digest text (literals as {@code ?}), user, logical database and
 * data source, in a bounded table that SHOW STRATA DIGESTS reads and Prometheus samples.
 */
package io.strata.kernel.digest;
