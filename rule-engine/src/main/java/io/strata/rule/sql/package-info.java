/**
 * Fast SQL facts without a full parse: statement kind, multi-statements, session pinning.
 */
package io.strata.rule.sql;
