/**
 * The client-facing side of Strata.
 */
package io.strata.frontend;
