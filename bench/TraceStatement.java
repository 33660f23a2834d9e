import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToIntFunction;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The client and the analysis of bench/trace-statement.sh. It sends one statement to a running Strata as COM_QUERY
 * (MariaDB Connector/J, {@code Statement.executeQuery}, one connection), warms Strata up with it, starts a JDK Flight
 * Recorder recording in Strata with jcmd (the script's .jfc: jdk.MethodTrace on every class of Strata's jars), runs
 * the statement once per traced run with quiet pauses around it, stops the recording and reports what ran.
 *
 * <pre>
 * java -cp mariadb-java-client.jar bench/TraceStatement.java trace   LABEL URL SQL PID JCMD JFC WORK_DIR WARMUP RUNS
 * java                             bench/TraceStatement.java analyze LABEL SQL WORK_DIR
 * </pre>
 *
 * {@code trace} writes WORK_DIR/LABEL.jfr and WORK_DIR/LABEL.times (when each traced run was sent, ns since the epoch)
 * and prints the report; {@code analyze} prints it again from those two files.
 *
 * <p>What counts. A jdk.MethodTrace event is one call of a traced method, written when it returns, with its start, its
 * thread and the stack of its callers (the method itself is not in that stack). An event belongs to the traced run in
 * whose window it started: from 100 ms before the statement was sent to 100 ms before the next run was sent (the
 * last run: to the end of the recording, 500 ms after its answer). Events whose entry into Strata (the bottom Strata frame
 * of the stack: a Netty handler, a task an event loop or executor runs, a thread's run) is periodic background work
 * are left out: the entries seen in the quiet second before the first run (the pool's waiter sweep every 50 ms, the
 * deadlock check every 250 ms, ...) and those of {@link #BACKGROUND}; the report names what it left out.
 *
 * <p>Methods and types are those of the events plus the Strata frames of their stacks: the JDK does not trace
 * synthetic methods (lambda bodies {@code lambda$x$0}), which show only as frames. What the compilers add is neither
 * a type, a method nor a frame here: a lambda's hidden class ({@code Foo$$Lambda/0x...::run}, which calls the lambda
 * body) and bridge methods (which call the method they bridge to).
 */
public class TraceStatement {

    private static final String STRATA = "io.strata.";

    /** Entries into Strata of periodic work that no statement starts (matched as "Class::method" prefixes). */
    private static final List<String> BACKGROUND = List.of(
            "io.strata.backend.connection.BackendPool::expireWaiters",
            "io.strata.backend.connection.BackendPool::evictIdle",
            "io.strata.backend.connection.LeakDetector::check",
            "io.strata.backend.deadlock.DeadlockDetector::loop",
            "io.strata.backend.health.HealthMonitor::loop",
            "io.strata.frontend.command.CommandHandler::closeIfIdle",
            "io.strata.frontend.slowlog.SlowLog::writeLoop");

    private static final long QUIET_MILLIS = 1000;
    private static final long GAP_MILLIS = 500;
    /**
     * A run's window opens this long before the client's send time (two JVMs' clocks, JFR's tick conversion): the
     * pauses around the runs are longer, and what runs in Strata in them is background work.
     */
    private static final long SLACK_NANOS = 100_000_000;

    public static void main(String[] args) throws Exception {
        if (args.length == 10 && args[0].equals("trace")) {
            trace(args[1], args[2], args[3], args[4], args[5], args[6], Path.of(args[7]),
                    Integer.parseInt(args[8]), Integer.parseInt(args[9]));
        } else if (args.length == 4 && args[0].equals("analyze")) {
            analyze(args[1], args[2], Path.of(args[3]), System.out);
        } else {
            System.err.println("usage: TraceStatement.java trace LABEL URL SQL PID JCMD JFC WORK_DIR WARMUP RUNS\n"
                    + "       TraceStatement.java analyze LABEL SQL WORK_DIR");
            System.exit(2);
        }
    }

    // ---- the client ------------------------------------------------------------------------------------------------

    private static void trace(String label, String url, String sql, String pid, String jcmd, String jfc, Path work,
            int warmup, int runs) throws Exception {
        Path jfr = work.resolve(label + ".jfr");
        List<String> times = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            int rows = run(statement, sql);
            System.err.printf("    [%s] %s -> %d row(s); warm-up: %d executions%n", label, sql, rows, warmup);
            for (int i = 0; i < warmup; i++) {
                run(statement, sql);
            }
            Thread.sleep(GAP_MILLIS);
            System.err.printf("    [%s] jcmd %s JFR.start, then %d traced run(s)%n", label, pid, runs);
            jcmd(jcmd, pid, "JFR.start", "name=strata-trace-" + label, "settings=" + jfc, "filename=" + jfr);
            try {
                Thread.sleep(QUIET_MILLIS);
                for (int i = 0; i < runs; i++) {
                    Instant sent = Instant.now();
                    run(statement, sql);
                    times.add(Long.toString(epochNanos(sent)));
                    Thread.sleep(GAP_MILLIS);
                }
            } finally {
                jcmd(jcmd, pid, "JFR.stop", "name=strata-trace-" + label);
            }
        }
        Files.write(work.resolve(label + ".times"), times);
        analyze(label, sql, work, System.out);
    }

    private static int run(Statement statement, String sql) throws SQLException {
        int rows = 0;
        try (ResultSet rs = statement.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int c = 1; c <= columns; c++) {
                    rs.getString(c);
                }
                rows++;
            }
        }
        return rows;
    }

    private static void jcmd(String jcmd, String pid, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(jcmd, pid));
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0 || out.contains("Could not") || out.contains("Exception")) {
            throw new IllegalStateException(String.join(" ", line) + " failed:\n" + out);
        }
    }

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    // ---- the model -------------------------------------------------------------------------------------------------

    /**
     * A method in a stack: {@code strata} for Strata's own classes; {@code glue} for what the compilers add to them: a
     * lambda's hidden class (Foo$$Lambda/0x...::run, which only calls the lambda body Foo::lambda$bar$0) and bridge
     * methods (which only call the method they bridge to); else a library or JDK frame.
     */
    private record Frame(String type, String method, String descriptor, boolean strata, boolean glue) {

        private static final int ACC_BRIDGE = 0x0040;

        static Frame of(RecordedMethod m) {
            String type = m.getType().getName();
            boolean ours = type.startsWith(STRATA);
            boolean glue = ours && (type.contains("$$Lambda") || m.isHidden() || (m.getModifiers() & ACC_BRIDGE) != 0);
            return new Frame(type, m.getName(), m.getDescriptor(), ours && !glue, glue);
        }

        String key() {
            return type + "::" + method + descriptor;
        }

        String name() {
            return type + "::" + method;
        }

        boolean lambda() {
            return strata && method.startsWith("lambda$");
        }

        boolean callback() {
            return strata && (lambda() || isAnonymous(type));
        }

        boolean futureStage() {
            return type.startsWith("java.util.concurrent.CompletableFuture") && method.equals("tryFire");
        }
    }

    static boolean isAnonymous(String type) {
        int dollar = type.lastIndexOf('$');
        return dollar > 0 && dollar < type.length() - 1
                && type.substring(dollar + 1).chars().allMatch(Character::isDigit);
    }

    /** One jdk.MethodTrace event: a call of {@code self}, with its callers ({@code stack}, top first). */
    private record Call(long start, long end, String thread, Frame self, List<Frame> stack, boolean truncated) {

        /** The bottom Strata frame of the stack, or this call when no Strata frame is under it. */
        Frame entry() {
            for (int i = stack.size() - 1; i >= 0; i--) {
                if (stack.get(i).strata()) {
                    return stack.get(i);
                }
            }
            return self;
        }

        boolean isEntry() {
            return entry() == self;
        }

        /** This call and then its callers, top first. */
        List<Frame> chain() {
            List<Frame> chain = new ArrayList<>(stack.size() + 1);
            chain.add(self);
            chain.addAll(stack);
            return chain;
        }

        Frame caller() {
            return stack.stream().filter(f -> !f.glue()).findFirst().orElse(null);
        }
    }

    /** The measures of one chain of frames (a call and its callers); glue frames are skipped. */
    private record Depth(int strata, int total, int callbacks, int stages, int segments) {

        static Depth of(List<Frame> chain) {
            int strata = 0, total = 0, callbacks = 0, stages = 0, segments = 0;
            boolean inStrata = false;
            for (Frame frame : chain) {
                if (frame.glue()) {
                    continue;
                }
                total++;
                if (frame.strata()) {
                    strata++;
                    if (frame.callback()) {
                        callbacks++;
                    }
                    if (!inStrata) {
                        segments++;
                    }
                } else if (frame.futureStage()) {
                    stages++;
                }
                inStrata = frame.strata();
            }
            return new Depth(strata, total, callbacks, stages, segments);
        }
    }

    /**
     * One entry into Strata from outside: a traced entry call and what ran under it, or, for an entry frame that is
     * not traced (a lambda body a Netty task or an executor runs), the run of consecutive calls on its thread under
     * that frame.
     */
    private static final class Entry {
        final String thread;
        final Frame frame;
        final Frame caller;
        final long start;
        long end;
        int calls;

        Entry(Call call) {
            this.thread = call.thread();
            this.frame = call.entry();
            this.caller = call.isEntry() ? call.caller() : callerOf(call, frame);
            this.start = call.start();
            this.end = call.isEntry() ? call.end() : Long.MIN_VALUE;
        }

        private static Frame callerOf(Call call, Frame frame) {
            int i = call.stack().lastIndexOf(frame);
            for (int j = i + 1; j < call.stack().size(); j++) {
                if (!call.stack().get(j).glue()) {
                    return call.stack().get(j);
                }
            }
            return null;
        }
    }

    /** What ran for one traced execution. */
    private static final class Run {
        final List<Call> calls;
        final Map<String, Integer> dropped;
        /** Method key -> calls traced (0: seen only as a frame). */
        final Map<String, Integer> methods = new TreeMap<>();
        /** Type -> {methods, calls}. */
        final Map<String, int[]> types = new TreeMap<>();
        final Set<String> topLevelTypes = new TreeSet<>();
        final Set<String> threads = new TreeSet<>();
        final List<Entry> entries = new ArrayList<>();

        Run(List<Call> calls, Map<String, Integer> dropped) {
            this.calls = calls.stream().filter(c -> !c.self().glue()).toList();
            calls = this.calls;
            this.dropped = dropped;
            for (Call call : calls) {
                methods.merge(call.self().key(), 1, Integer::sum);
                for (Frame frame : call.stack()) {
                    if (frame.strata()) {
                        methods.putIfAbsent(frame.key(), 0);
                    }
                }
                threads.add(call.thread());
            }
            methods.forEach((key, n) -> {
                String type = key.substring(0, key.indexOf("::"));
                int[] counts = types.computeIfAbsent(type, t -> new int[2]);
                counts[0]++;
                counts[1] += n;
                topLevelTypes.add(type.contains("$") ? type.substring(0, type.indexOf('$')) : type);
            });
            // Entries, per thread in the order the calls started.
            Map<String, Entry> open = new HashMap<>();
            for (Call call : calls) {
                Entry current = open.get(call.thread());
                boolean inside = current != null && current.frame.equals(call.entry())
                        && (current.end == Long.MIN_VALUE || call.start() <= current.end) && !call.isEntry();
                if (!inside) {
                    current = new Entry(call);
                    open.put(call.thread(), current);
                    entries.add(current);
                }
                current.calls++;
            }
        }

        long lambdaBodies() {
            return methods.keySet().stream().filter(k -> k.contains("::lambda$")).count();
        }

        long frameOnly() {
            return methods.values().stream().filter(n -> n == 0).count();
        }

        long anonymousTypes() {
            return types.keySet().stream().filter(TraceStatement::isAnonymous).count();
        }

        Call deepest(ToIntFunction<Depth> measure) {
            return calls.stream().max(Comparator.comparingInt((Call c) -> measure.applyAsInt(Depth.of(c.chain())))
                    .thenComparing(Comparator.comparingLong(Call::start).reversed())).orElse(null);
        }

        int most(ToIntFunction<Depth> measure) {
            Call call = deepest(measure);
            return call == null ? 0 : measure.applyAsInt(Depth.of(call.chain()));
        }

        String summary() {
            return String.format("%d types (%d top-level), %d methods (%d lambda bodies), %d calls, %d entries into"
                    + " Strata, %d thread(s)", types.size(), topLevelTypes.size(), methods.size(), lambdaBodies(),
                    calls.size(), entries.size(), threads.size());
        }

        void print(PrintStream out) {
            if (calls.isEmpty()) {
                out.println("NO STRATA METHOD RAN in this run: did the statement reach Strata, is the filter right?");
                return;
            }
            long truncated = calls.stream().filter(Call::truncated).count();
            out.printf("%nrun 1: %d Strata types (%d top-level types: nested and anonymous ones folded into theirs;"
                    + " %d anonymous classes), %d methods (%d lambda bodies; %d seen only as stack frames: lambda bodies"
                    + " and other untraced synthetic methods), %d calls traced, %d entries into Strata, on %d thread(s): %s%n",
                    types.size(), topLevelTypes.size(), anonymousTypes(), methods.size(), lambdaBodies(), frameOnly(),
                    calls.size(), entries.size(), threads.size(), threads);
            if (truncated > 0) {
                out.printf("WARNING: %d stack traces were truncated (raise -XX:FlightRecorderOptions:stackdepth)%n",
                        truncated);
            }
            out.printf("left out as background (entry -> calls): %s%n", dropped.isEmpty() ? "nothing" : dropped);

            out.printf("%nTypes (%d), with the methods run and the calls traced:%n", types.size());
            types.forEach((t, c) -> out.printf("  %-88s %3d %5d%n", t, c[0], c[1]));

            out.printf("%nTop-level types (%d):%n", topLevelTypes.size());
            topLevelTypes.forEach(t -> out.printf("  %s%n", t));

            out.printf("%nEntries into Strata in the order they started (thread: entry, calls under it, called by):%n");
            int i = 0;
            for (Entry e : entries) {
                out.printf("  %2d. %-30s %s  (%d calls; from %s)%n", ++i, e.thread, shortName(e.frame.name()),
                        e.calls, e.caller == null ? "?" : e.caller.name());
            }

            printChain(out, "Deepest stack in Strata frames", deepest(Depth::strata));
            printChain(out, "Deepest callback nesting (lambda bodies and anonymous-class methods in one stack)",
                    deepest(Depth::callbacks));
            if (most(Depth::stages) > 0) {
                printChain(out, "Most CompletableFuture stages inside one another (tryFire frames in one stack)",
                        deepest(Depth::stages));
            } else {
                out.printf("%nCompletableFuture stages: no stack holds a CompletableFuture tryFire frame%n");
            }
            printChain(out, "Most Strata segments in one stack (Strata calls a library, which calls Strata back)",
                    deepest(Depth::segments));

            out.printf("%nMethods (%d), with the calls traced (-: seen only as a stack frame):%n", methods.size());
            methods.forEach((m, n) -> out.printf("  %5s  %s%n", n == 0 ? "-" : n.toString(), m));
        }

        private static void printChain(PrintStream out, String title, Call call) {
            Depth d = Depth.of(call.chain());
            out.printf("%n%s: %d Strata frames (of %d), %d callback frames, %d CompletableFuture stages, %d Strata"
                    + " segments; thread %s; top first, library frames folded:%n", title, d.strata(), d.total(),
                    d.callbacks(), d.stages(), d.segments(), call.thread());
            int folded = 0;
            StringBuilder stages = new StringBuilder();
            for (Frame frame : call.chain()) {
                if (frame.glue()) {
                    continue;
                }
                if (!frame.strata()) {
                    folded++;
                    if (frame.futureStage()) {
                        stages.append(" [").append(frame.type().replace("java.util.concurrent.", ""))
                                .append("::tryFire]");
                    }
                    continue;
                }
                if (folded > 0) {
                    out.printf("        ... %d library frame(s)%s%n", folded, stages);
                    folded = 0;
                    stages.setLength(0);
                }
                out.printf("    %s%s%n", frame.name(), frame.callback() ? "   <- callback" : "");
            }
            if (folded > 0) {
                out.printf("        ... %d library frame(s)%s%n", folded, stages);
            }
        }
    }

    private static String shortName(String name) {
        return name.startsWith(STRATA) ? name.substring(STRATA.length()) : name;
    }

    private static String threadName(RecordedThread thread) {
        String name = thread.getJavaName();
        if (name == null || name.isEmpty()) {
            name = thread.getOSName();
        }
        if (name == null || name.isEmpty()) {
            name = "#" + thread.getJavaThreadId();
        }
        return thread.isVirtual() ? name + " (virtual)" : name;
    }

    // ---- the analysis ----------------------------------------------------------------------------------------------

    static void analyze(String label, String sql, Path work, PrintStream out) throws IOException {
        Path jfr = work.resolve(label + ".jfr");
        List<Long> sent = Files.readAllLines(work.resolve(label + ".times")).stream().map(Long::parseLong).toList();
        List<Call> calls = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
            if (!event.getEventType().getName().equals("jdk.MethodTrace")) {
                continue;
            }
            RecordedThread thread = event.getThread();
            RecordedStackTrace trace = event.getStackTrace();
            List<Frame> stack = new ArrayList<>();
            if (trace != null) {
                for (RecordedFrame frame : trace.getFrames()) {
                    stack.add(Frame.of(frame.getMethod()));
                }
            }
            calls.add(new Call(epochNanos(event.getStartTime()), epochNanos(event.getEndTime()),
                    thread == null ? "?" : threadName(thread), Frame.of(event.getValue("method")), stack,
                    trace != null && trace.isTruncated()));
        }
        calls.sort(Comparator.comparingLong(Call::start));

        // The entries of the quiet window (before the first run) are background work.
        Map<String, Integer> quiet = new TreeMap<>();
        for (Call call : calls) {
            if (call.start() < sent.get(0) - SLACK_NANOS) {
                quiet.merge(call.entry().name(), 1, Integer::sum);
            }
        }

        out.printf("%n==== %s: %s%n", label, sql);
        out.printf("recording: %s (%d jdk.MethodTrace events); %d traced run(s) of the statement%n", jfr, calls.size(),
                sent.size());
        out.printf("quiet window before the first run (%d ms, no statement; entry -> calls): %s%n",
                QUIET_MILLIS - SLACK_NANOS / 1_000_000, quiet.isEmpty() ? "no Strata method ran" : quiet);
        for (String entry : quiet.keySet()) {
            if (BACKGROUND.stream().noneMatch(entry::startsWith)) {
                out.printf("NOTE: %s ran in the quiet window and is not known background work: its calls are left"
                        + " out of every run; if the statement's path enters Strata there too, the counts miss them%n",
                        entry);
            }
        }

        List<Run> runs = new ArrayList<>();
        for (int r = 0; r < sent.size(); r++) {
            long from = sent.get(r) - SLACK_NANOS;
            long to = r + 1 < sent.size() ? sent.get(r + 1) - SLACK_NANOS : Long.MAX_VALUE;
            List<Call> mine = new ArrayList<>();
            Map<String, Integer> dropped = new TreeMap<>();
            for (Call call : calls) {
                if (call.start() < from || call.start() >= to) {
                    continue;
                }
                String entry = call.entry().name();
                if (quiet.containsKey(entry) || BACKGROUND.stream().anyMatch(entry::startsWith)) {
                    dropped.merge(entry, 1, Integer::sum);
                } else {
                    mine.add(call);
                }
            }
            runs.add(new Run(mine, dropped));
        }

        Run first = runs.get(0);
        first.print(out);
        boolean agree = true;
        for (int r = 1; r < runs.size(); r++) {
            Run other = runs.get(r);
            Set<String> onlyFirst = new TreeSet<>(first.methods.keySet());
            onlyFirst.removeAll(other.methods.keySet());
            Set<String> onlyOther = new TreeSet<>(other.methods.keySet());
            onlyOther.removeAll(first.methods.keySet());
            agree &= onlyFirst.isEmpty() && onlyOther.isEmpty();
            out.printf("%nrun %d of %d, to check that one run is representative: %s; %s%n", r + 1, runs.size(),
                    other.summary(), onlyFirst.isEmpty() && onlyOther.isEmpty() ? "the same methods as run 1"
                            : "methods only in run 1: " + onlyFirst + "; only in run " + (r + 1) + ": " + onlyOther);
            out.printf("  left out as background: %s%n", other.dropped.isEmpty() ? "nothing" : other.dropped);
        }
        out.printf("%nSUMMARY %s types=%d top_level_types=%d methods=%d lambda_bodies=%d calls=%d entries=%d"
                + " threads=%d max_strata_depth=%d max_callback_nesting=%d max_future_stages=%d"
                + " max_strata_segments=%d runs_agree=%s%n", label, first.types.size(), first.topLevelTypes.size(),
                first.methods.size(), first.lambdaBodies(), first.calls.size(), first.entries.size(),
                first.threads.size(), first.most(Depth::strata), first.most(Depth::callbacks),
                first.most(Depth::stages), first.most(Depth::segments), agree);
    }
}
