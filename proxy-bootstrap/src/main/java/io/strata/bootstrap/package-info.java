/**
 * Starting and stopping Strata: the embedding API and the command line.
 */
package io.strata.bootstrap;
