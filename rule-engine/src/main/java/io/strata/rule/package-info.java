/**
 * The rule chain: rules turn a statement context into route units.
 */
package io.strata.rule;
