package io.strata.rule.sql.parser;

import java.util.List;
import java.util.Objects;
import net.sf.jsqlparser.statement.Statement;

/**
 * What the parser layer understood of one statement. Instances are cached and shared by every caller that parses
 * the same text, on any thread.
 *
 * @param type           the statement's type; for an unparsed statement, what its leading keywords say
 * @param tables         the tables it names, each once, in order of first appearance: in joins, subqueries, derived
 *                       tables, CTE bodies and UNION parts alike, but not CTE names, DUAL, or tables a foreign key
 *                       names. Empty for an unparsed statement and for type OTHER, whose tables are not looked for
 * @param ast            JSqlParser's tree, for rules that need conditions and values. Shared with every other
 *                       caller of the same text: read it, never change it (copy it, or deparse and parse again, to
 *                       rewrite). Null when unparsed, and for LOAD DATA, which is recognised without the library.
 *                       The tree of a text holding a MySQL form the library cannot read (index hints, LOCK IN
 *                       SHARE MODE, DELETE ... USING) is that of the equivalent form it was given instead
 * @param unparsedReason why the statement was not understood, for a log or an error message; null when it was
 */
public record ParsedStatement(StatementType type, List<TableName> tables, Statement ast, String unparsedReason) {

    public ParsedStatement {
        Objects.requireNonNull(type, "type");
        tables = List.copyOf(tables);
    }

    static ParsedStatement unparsed(StatementType type, String reason) {
        return new ParsedStatement(type, List.of(), null, reason);
    }

    /** Whether the statement was understood: its type and tables are exact. */
    public boolean parsed() {
        return unparsedReason == null;
    }
}
