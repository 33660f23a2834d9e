/**
 * The relay executor: a command's response is followed just far enough to find its end and status, and its packets
 * go to the client untouched.
 */
package io.strata.backend.relay;
