/** The registry of built-in rule types: the one place that knows every rule package, so none knows another. */
package io.strata.rule.builtin;
