/**
 * The protocol-neutral kernel: what a session's statements run against ({@link io.strata.kernel.StrataRuntime}, one
 * snapshot, swapped whole), the sessions of every host ({@link io.strata.kernel.Session},
 * {@link io.strata.kernel.SessionRegistry}), and the stages every statement passes whatever host runs it
 * ({@link io.strata.kernel.StatementLife}: the process list, routing by the rule chain, counts per data source, a
 * query rule's time limit and mirrors, digests and the slow log). Hosts (the MySQL frontend; an embedded driver)
 * decode their commands, call these stages around the executor, and encode the answers.
 */
package io.strata.kernel;
