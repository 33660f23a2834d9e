/**
 * The SHARDING rule's configuration and algorithms: {@link io.strata.rule.sharding.ShardingRuleConfig} reads
 * ShardingSphere 5.x's {@code !SHARDING} keys and checks them at start; {@link io.strata.rule.sharding.ShardingTables}
 * answers which data nodes a statement's conditions ({@link io.strata.rule.sharding.ShardingConditions}) can touch,
 * which tables are bound, and makes generated keys. INLINE expressions are evaluated by a small Groovy-subset
 * interpreter of its own, not a scripting engine. Routing statements and rewriting SQL are the rule's business, not
 * this package's. ALGORITHMS.md here lists every algorithm with its props.
 */
package io.strata.rule.sharding;
