package io.strata.rule.sharding;

import java.util.List;

/**
 * A table's {@code auditStrategy} (its own, else {@code defaultAuditStrategy}): the auditors a statement on it must
 * pass. The one auditor there is, ShardingSphere's {@code DML_SHARDING_CONDITIONS}, refuses a SELECT, UPDATE or
 * DELETE with no condition on the table's sharding columns: one that would reach every shard.
 *
 * @param auditorNames     {@code auditorNames}, each an entry of the rule's {@code auditors}
 * @param allowHintDisable {@code allowHintDisable} (default true): a leading hint
 *                         {@code /* SHARDINGSPHERE_HINT: DISABLE_AUDIT_NAMES=name *}{@code /} lets a statement past
 *                         the auditors it names
 */
public record AuditConfig(List<String> auditorNames, boolean allowHintDisable) {

    public AuditConfig {
        auditorNames = List.copyOf(auditorNames);
    }
}
