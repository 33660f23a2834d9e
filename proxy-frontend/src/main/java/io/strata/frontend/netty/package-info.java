/**
 * The listening server and the per-connection pipeline.
 */
package io.strata.frontend.netty;
