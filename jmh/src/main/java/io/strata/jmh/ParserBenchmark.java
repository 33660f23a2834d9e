package io.strata.jmh;

import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.SqlParser;
import io.strata.rule.sql.parser.StatementType;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.feature.Feature;
import net.sf.jsqlparser.statement.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The SQL parser layer, which only rules that need a statement's tables or values call (the empty chain and
 * read/write splitting never do):
 *
 * <ul>
 *   <li>{@code cold}: {@link SqlParser#parseUncached}, the whole layer without its cache: lexing for the bounds,
 *       the MySQL rewrites, JSqlParser (constructed directly, on the calling thread) and the table walk;</li>
 *   <li>{@code cached}: {@link SqlParser#parse} of a text already cached, the same String instance each time (its
 *       hash computed once);</li>
 *   <li>{@code cachedNewText}: the same for a new String per call, made from the statement's bytes as the command
 *       handler makes one from each COM_QUERY (so the hash and the comparison are paid; the decode too, which
 *       {@link ClassifierBenchmark#decode} prices alone);</li>
 *   <li>{@code cachedTwoThreads}: {@code cached} from two threads at once on one parser, as event loops share it;</li>
 *   <li>{@code whatIfParserUtil}: JSqlParser's {@code CCJSqlParserUtil.parse} with the same settings, the library's
 *       usual entry point, which runs each parse on a new single-thread executor to bound it with a timeout (not
 *       Strata code: it prices what constructing the parser directly saves).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ParserBenchmark {

    static final Map<String, String> STATEMENTS = Map.of(
            "point_select", "SELECT c FROM sbtest1 WHERE id = ?",
            "join3", "SELECT o.id, c.name, i.qty FROM orders o JOIN customers c ON c.id = o.customer_id"
                    + " LEFT JOIN order_items i ON i.order_id = o.id WHERE o.status = ? AND c.region IN (?, ?)"
                    + " AND i.qty > 2 ORDER BY o.id LIMIT 20");

    @State(Scope.Benchmark)
    public static class Parser {
        @Param({"point_select", "join3"})
        String statement;
        SqlParser parser;
        String sql;
        byte[] bytes;

        @Setup(Level.Trial)
        public void setup() {
            parser = new SqlParser();
            sql = STATEMENTS.get(statement);
            bytes = sql.getBytes(StandardCharsets.UTF_8);
            ParsedStatement parsed = parser.parse(sql);
            if (!parsed.parsed() || parsed.type() != StatementType.SELECT || parsed.tables().isEmpty()) {
                throw new IllegalStateException("not parsed as expected: " + parsed);
            }
        }
    }

    @Benchmark
    public ParsedStatement cold(Parser p) {
        return p.parser.parseUncached(p.sql);
    }

    @Benchmark
    public ParsedStatement cached(Parser p) {
        return p.parser.parse(p.sql);
    }

    @Benchmark
    public ParsedStatement cachedNewText(Parser p) {
        return p.parser.parse(new String(p.bytes, StandardCharsets.UTF_8));
    }

    @Benchmark
    @Threads(2)
    public ParsedStatement cachedTwoThreads(Parser p) {
        return p.parser.parse(p.sql);
    }

    @Benchmark
    public Statement whatIfParserUtil(Parser p) throws JSQLParserException {
        return CCJSqlParserUtil.parse(p.sql, parser -> parser.withBackslashEscapeCharacter(true)
                .withFeature(Feature.allowDoubleQuotedStrings, true).withFeature(Feature.allowHashLineComments, true));
    }
}
