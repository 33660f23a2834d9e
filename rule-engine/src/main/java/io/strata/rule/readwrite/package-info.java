/** The READWRITE_SPLITTING rule: writes to the primary, reads spread over healthy, caught-up replicas. */
package io.strata.rule.readwrite;
