/**
 * The command phase: commands run one at a time per connection, answered locally or routed and relayed.
 */
package io.strata.frontend.command;
