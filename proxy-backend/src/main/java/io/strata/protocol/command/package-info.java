/**
 * The client's command packets as one sealed family: {@link io.strata.protocol.command.CommandDecoder} turns a
 * command's payload into a {@link io.strata.protocol.command.ClientCommand} record, reading only what a decision
 * needs (a statement id, a schema name, the SQL text the rules classify) and keeping the payload itself where its
 * bytes go on to a backend untouched. It is the one place that knows the offsets inside a command; the frontend
 * dispatches on the records, and the relay rewrites an execute's statement id and parameter types through
 * {@link io.strata.protocol.command.ComStmtExecute}.
 */
package io.strata.protocol.command;
