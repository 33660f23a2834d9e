/**
 * What Strata knows of each data source at run time: whether it is in rotation and why not, its replication lag and
 * GTID position (kept by the health monitor), and counters of the statements routed to it.
 */
package io.strata.rule.health;
