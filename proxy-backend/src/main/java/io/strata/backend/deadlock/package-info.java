/**
 * Deadlocks across data sources: a session's transaction on several data sources is one transaction per backend
 * connection, and two such sessions can wait for each other through different connections, a cycle no InnoDB sees
 * (not even when both data sources are schemas of one server). The check reads the servers' lock waits, joins them
 * into one wait-for graph of Strata's sessions and breaks a cycle as InnoDB breaks its own: the youngest session
 * gets 1213 and its transaction is rolled back everywhere.
 */
package io.strata.backend.deadlock;
