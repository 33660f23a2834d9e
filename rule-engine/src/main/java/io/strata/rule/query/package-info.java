/**
 * The QUERY_ROUTING rule: ProxySQL's query rules in a MySQL proxy's chain. Each rule matches statements by user,
 * logical database, client address, digest or regex, and acts: sends them to a data source, refuses them with an
 * error, limits their time, rewrites their text, or mirrors them to another data source.
 */
package io.strata.rule.query;
