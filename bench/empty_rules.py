#!/usr/bin/env python3
"""bench/run.sh: sysbench through Strata with the empty rule chain, compared with MariaDB direct and with HAProxy.

On one machine it starts a private MariaDB, two HAProxies (TCP mode; nbthread = cores and nbthread 1) and Strata
(from the distribution tarball) in front of it, with --strata-dist-b a second Strata build for an A/B run, then runs
the sysbench matrix workload x ps-mode x threads x target with the targets back to back in every cell, so that drift
(thermal, noisy neighbours, InnoDB state) hits them alike. It prints a table and writes bench/results/<timestamp>.csv
(and .txt). Everything it starts is stopped at the end (by pid), and its temp folder is removed, unless --keep.
bench/README.md explains how to read the results.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import common, mariadb, matrix, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402

DEFAULT_TARGETS = ["direct", "haproxy", "haproxy1", "strata"]
KNOWN_TARGETS = DEFAULT_TARGETS + ["strata_b"]
ALL_WORKLOADS = ["oltp_point_select", "oltp_read_only", "oltp_read_write"]
ALL_PS_MODES = ["auto", "disable"]
CPU_NAMES = {"direct": "mariadbd", "haproxy": "haproxy", "haproxy1": "haproxy (nbthread 1)", "strata": "strata",
             "strata_b": "strata (B)"}
# The port plan: N+3 and N+4 came later, so the first three stay where scripts and notes expect them (Strata on
# 13308 for bench/profile.sh, MariaDB and Strata on N and N+2 for bench/common.sh's kept_setup).
PORT_OFFSETS = {"direct": 0, "haproxy": 1, "strata": 2, "strata_b": 3, "haproxy1": 4}
PROFILES = {  # tables, table size, threads, seconds per cell, warm-up, buffer pool MB, many clients
    "quick": (4, 10000, ["4", "16"], 3, 6, 256, 200),
    "full": (8, 100000, ["1", "4", "16", "64"], 10, 20, 1024, 500),
}

SPEC = {
    "--quick": ("flag", "quick"), "--full": ("flag", "full"), "--time": ("value", "time"),
    "--rounds": ("value", "rounds"), "--warmup": ("value", "warmup"), "--targets": ("list", "targets"),
    "--workloads": ("list", "workloads"), "--threads": ("list", "threads"), "--ps-modes": ("list", "ps_modes"),
    "--tables": ("value", "tables"), "--table-size": ("value", "table_size"),
    "--strata-dist": ("value", "dist"), "--strata-dist-b": ("value", "dist_b"),
    "--strata-rules-b": ("value", "rules_b"), "--strata-server-b": ("value", "server_b"),
    "--strata-java-opts-b": ("value", "java_opts_b"), "--strata-pool": ("value", "pool"),
    "--many-clients": ("value", "many_clients"), "--think-ms": ("value", "think_ms"),
    "--base-port": ("value", "base_port"), "--keep": ("flag", "keep"),
}


def usage():
    n = os.cpu_count()
    return f"""Usage: bench/run.sh [options]

Benchmarks Strata against MariaDB direct and HAProxy (TCP mode) with sysbench, on this
machine. Installs sysbench, haproxy, mariadb-server and mariadb-client with apt-get when
they are missing. Starts its own MariaDB and the targets chosen on ports 13306..13310
(see --base-port; the system MariaDB service, if any, is neither used nor touched).

Targets (every cell runs through each, back to back):
  direct               MariaDB itself
  haproxy              HAProxy, mode tcp, nbthread = CPUs ({n} here)
  haproxy1             a second HAProxy, mode tcp, nbthread 1: the cheapest HAProxy on a
                       small machine
  strata               Strata from --strata-dist
  strata_b             only with --strata-dist-b: a second Strata build, same configuration,
                       for an A/B run (added to the targets by that option)

Profiles (with the four default targets):
  --quick              (default) 4 tables x 10,000 rows, threads 4 and 16, 3 s per cell:
                       48 matrix cells and 16 many-clients cells, about 6 minutes with
                       start-up (add a quarter for strata_b)
  --full               8 tables x 100,000 rows, threads 1, 4, 16 and 64, 10 s per cell:
                       96 matrix cells and 16 many-clients cells, about 25 minutes

Narrowing or changing the matrix (comma- or space-separated lists):
  --time SECONDS       seconds per cell (sysbench --time)
  --rounds N           run every cell N times, the targets back to back in a rotated
                       order each round (each target first once in N = targets rounds);
                       QPS and CPU are the rounds' means, p95 their median (default 1)
  --warmup SECONDS     unrecorded oltp_read_write run through each target before the
                       matrix (split over the ps modes), so the JIT and the buffer pool
                       are warm (quick 6, full 20; 0 = none)
  --targets LIST       of: {' '.join(KNOWN_TARGETS)}
                       (default: {' '.join(DEFAULT_TARGETS)}; strata_b comes with --strata-dist-b)
  --workloads LIST     sysbench scripts, default: {' '.join(ALL_WORKLOADS)}
  --threads LIST       sysbench thread counts (client connections)
  --ps-modes LIST      sysbench --db-ps-mode values, of: {' '.join(ALL_PS_MODES)}
  --many-clients N     after the matrix, the many-clients cells: N clients running short
                       transactions with --think-ms between them, autocommit on (BEGIN ...
                       COMMIT) and off (SET AUTOCOMMIT = 0 at connect, as PyMySQL does),
                       reported beside each other (bench/autocommit/transactions.lua;
                       quick 200, full 500; 0 = none)
  --think-ms N         pause of each many-clients client between transactions (default 10)
  --tables N           number of sbtest tables
  --table-size N       rows per table

Setup:
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --strata-dist-b PATH a second Strata distribution (tarball or folder), started beside the
                       first with the same configuration as target strata_b: an A/B run
                       of two builds, interleaved and rotated with the other targets in
                       every cell, so that drift hits both alike. The table adds b/a and
                       b/a q/cpu (strata_b's QPS and queries per CPU-second over strata's)
  --strata-rules-b FILE
                       rules for strata_b (the YAML of a rules: section, e.g. bench/rules/
                       shadow.yaml): an A/B run of one build with and without a rule, whose
                       b/a columns are the rule's cost. strata_b's configuration then also
                       has a data source ds_shadow (the same server) for rules to name;
                       --strata-dist-b defaults to --strata-dist
  --strata-server-b YAML
                       extra settings of strata_b's server: section, one flow mapping per
                       line, e.g. "digests: {{ enabled: false }}": an A/B run of one build
                       with a server setting changed (--strata-dist-b defaults to --strata-dist)
  --strata-java-opts-b OPTS
                       JVM options of strata_b (its STRATA_JAVA_OPTS), e.g. "-XX:+UseSerialGC":
                       an A/B run of one build under other JVM options (--strata-dist-b
                       defaults to --strata-dist)
  --strata-pool N      maximumPoolSize of Strata's backend pool (default 64; both builds)
  --base-port N        MariaDB on N, HAProxy on N+1, Strata on N+2, Strata B on N+3,
                       HAProxy nbthread 1 on N+4 (default 13306)
  --keep               leave MariaDB, the proxies and Strata running at the end and keep
                       the temp folder; prints how to stop them
  -h, --help           this help

A/B of two commits (the build overwrites distribution/target, so copy the first aside):
  git checkout A && ./mvnw -DskipTests install
  cp distribution/target/strata-proxy-*-bin.tar.gz /tmp/strata-a.tar.gz
  git checkout B && ./mvnw -DskipTests install
  cp distribution/target/strata-proxy-*-bin.tar.gz /tmp/strata-b.tar.gz
  bench/run.sh --strata-dist /tmp/strata-a.tar.gz --strata-dist-b /tmp/strata-b.tar.gz \\
      --targets haproxy,strata --workloads oltp_point_select,oltp_read_only --rounds 3 --time 10
  (targets haproxy strata strata_b; rounds = targets, so each goes first once). A worktree
  per commit, or two unpacked distributions, do as well. Read the b/a columns: queries per
  CPU-second is the steady one; QPS moves with the machine.

Environment (for both Strata builds):
  STRATA_WORKER_THREADS  Strata's server.workerThreads (event loops; default: unset, the
                       build's own default)
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh; default: that
                       script's, from the memory found, e.g. "-Xms512m -Xmx2048m ..." with 8 GiB or more)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java 21,
                       the newest JDK >= 21 under /usr/lib/jvm is used

Output: a table on the terminal, and bench/results/<timestamp>.csv and .txt."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        # The profile gives the defaults; explicit options win whatever their order (the last profile given wins).
        profile = "quick"
        for x in argv:
            if x in ("--quick", "--full"):
                profile = x[2:]
        tables, size, threads, secs, warmup, pool_mb, many = PROFILES[profile]
        self.time = common.whole(a.get("time", secs))
        self.rounds = common.whole(a.get("rounds", 1))
        self.warmup = common.whole(a.get("warmup", warmup))
        self.targets = a.get("targets", list(DEFAULT_TARGETS))
        self.workloads = a.get("workloads", list(ALL_WORKLOADS))
        self.ps_modes = a.get("ps_modes", list(ALL_PS_MODES))
        self.threads = [common.whole(t) for t in a.get("threads", threads)]
        self.tables = common.whole(a.get("tables", tables))
        self.table_size = common.whole(a.get("table_size", size))
        self.pool = common.whole(a.get("pool", 64))
        self.many_clients = common.whole(a.get("many_clients", many))
        self.think_ms = common.whole(a.get("think_ms", 10))
        self.base_port = common.whole(a.get("base_port", 13306))
        self.keep = a.has("keep")
        self.dist = a.get("dist", "")
        self.dist_b = a.get("dist_b", "")
        self.rules_b = a.get("rules_b", "")
        self.server_b = a.get("server_b", "")
        self.java_opts_b = a.get("java_opts_b", "")
        self.java_opts = os.environ.get("STRATA_JAVA_OPTS", "")
        # A second build is a target of its own, in every cell: --strata-dist-b adds it to the targets, given or
        # default, and it needs that option; the options of B alone mean B is the same build.
        if self.rules_b:
            if not os.path.isfile(self.rules_b):
                die(f"--strata-rules-b: no file {self.rules_b}")
            self.rules_b = os.path.abspath(self.rules_b)
        if (self.rules_b or self.server_b or self.java_opts_b) and not self.dist_b:
            self.dist_b = "same"
        if self.dist_b:
            if "strata_b" not in self.targets:
                self.targets.append("strata_b")
        elif "strata_b" in self.targets:
            die("target strata_b needs --strata-dist-b PATH (the second Strata build)")
        matrix.check_options(self, KNOWN_TARGETS, ALL_PS_MODES, 65531)
        # The buffer pool grows with the data set: sysbench rows take about 250 bytes with their index entries; keep
        # 4x that, at least the profile's size, so every read is served from memory.
        need_mb = self.tables * self.table_size * 1000 // 1048576 + 1
        self.buffer_pool = f"{need_mb}M" if need_mb > pool_mb else (f"{pool_mb // 1024}G" if pool_mb >= 1024
                                                                     else f"{pool_mb}M")
        self.ports = {t: self.base_port + o for t, o in PORT_OFFSETS.items()}

    def has(self, target):
        return target in self.targets


class EmptyRules:
    def __init__(self, o):
        self.o = o
        self.installed = common.install_missing(haproxy=True)
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.haproxy_bin = common.need_bin("haproxy", "haproxy")
        self.db_tools = mariadb.Tools()
        matrix.check_workloads(o.workloads)
        self.java = common.select_java()
        o.dist = common.locate_dist(o.dist)
        if o.dist_b == "same":
            o.dist_b = o.dist
        elif o.dist_b:
            if not os.path.exists(o.dist_b):
                die(f"--strata-dist-b: {o.dist_b} does not exist")
            o.dist_b = os.path.abspath(o.dist_b)
        for port in [o.ports["direct"]] + [o.ports[t] for t in o.targets]:
            if common.port_in_use(port):
                die(f"port {port} is in use; pick other ports with --base-port N (uses N..N+4)")
        self.load, self.busy = common.load_and_busy()
        common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts; results will be "
                                    "noisy.\n         Busiest processes (CPU% over their lifetime):")
        self.sb = matrix.sysbench_for(self.sysbench_bin, o.tables, o.table_size)
        self.procs = {}
        self.homes = {}

    # ---- set-up ---------------------------------------------------------------------------------------------------

    def start(self, s):
        o = self.o
        self.db = mariadb.Server(self.db_tools, "MariaDB", s.path("mariadb"), o.ports["direct"])
        say(f"Creating a MariaDB data folder in {self.db.dir}/data")
        self.db.install()
        say(f"Starting MariaDB on 127.0.0.1:{self.db.port} (buffer pool {o.buffer_pool})")
        self.db.start(s, mariadb.bench_options(o.buffer_pool))
        self.procs["direct"] = self.db.proc
        self.db.sql(self.db.drop_anonymous_users() + """
            CREATE DATABASE sbtest;
            CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
            GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';""", "could not create the sbtest database and user")
        if o.has("haproxy"):
            self.procs["haproxy"] = targets.start_haproxy(
                s, self.haproxy_bin, s.path("haproxy"), "HAProxy", "mariadb", o.ports["haproxy"], self.db.port,
                os.cpu_count(), "bench/run.sh")
        if o.has("haproxy1"):
            self.procs["haproxy1"] = targets.start_haproxy(
                s, self.haproxy_bin, s.path("haproxy1"), "HAProxy (nbthread 1)", "mariadb", o.ports["haproxy1"],
                self.db.port, 1, "bench/run.sh (haproxy1)")
        if o.has("strata"):
            self.start_strata(s, "strata", "Strata", o.dist, "strata")
        if o.has("strata_b"):
            self.start_strata(s, "strata_b", "Strata B", o.dist_b, "strata-b", o.rules_b, o.server_b,
                              o.java_opts_b or o.java_opts)

    def start_strata(self, s, target, label, dist, prefix, rules="", server_extra="", java_opts=None):
        """A distribution with its own configuration: the empty rule chain, or the rules: section of a file with a
        second data source on the same server for the rules to name; server_extra: lines of the server: section."""
        o = self.o
        java_opts = o.java_opts if java_opts is None else java_opts
        port = o.ports[target]
        server = ["# Written by bench/run.sh.", "server:", "  host: 127.0.0.1", f"  port: {port}"]
        if os.environ.get("STRATA_WORKER_THREADS"):
            server.append(f"  workerThreads: {os.environ['STRATA_WORKER_THREADS']}")
        server += ["  " + line for line in server_extra.split("\n") if line]
        server += ["users:", "  - { name: sbtest, password: sbtest, databases: [sbtest], admin: true }"]
        url = f"jdbc:mariadb://127.0.0.1:{self.db.port}/sbtest"
        db = ("# Written by bench/run.sh: the empty rule chain, i.e. a pass-through proxy.\n"
              "databaseName: sbtest\ndataSources:\n" + targets.data_source("ds_0", url, o.pool))
        if rules:
            with open(rules) as f:
                db += targets.data_source("ds_shadow", url, 4) + f.read()
        else:
            db += "rules: []\n"
        try:
            self.procs[target], self.homes[target] = targets.start_strata(
                s, self.db_tools, label, dist, prefix, port, o.pool, "\n".join(server) + "\n", db, java_opts)
        except targets.StartFailed as e:
            echo("\n".join(e.output.strip().splitlines()[-30:]))
            die(f"{label} did not start or does not answer on port {port} (log: {e.home}/logs/stdout.log)")

    def workload_args(self, workload):
        """sysbench's own OLTP scripts by name, the many-clients workloads as bench/autocommit/transactions.lua."""
        if workload in ("autocommit_on", "autocommit_off"):
            return [os.path.join(common.BENCH_DIR, "autocommit", "transactions.lua"),
                    f"--autocommit={workload[len('autocommit_'):]}", f"--think-ms={self.o.think_ms}"]
        return [workload]

    def run(self, s):
        o = self.o
        m = matrix.Matrix(self.sb, s, o.ports, {t: p.pid for t, p in self.procs.items()}, CPU_NAMES, self.db.pid(),
                          o.time, o.rounds)
        say(f"Loading the data set: {o.tables} tables x {o.table_size} rows (sysbench prepare, direct)")
        matrix.prepare(self.sb, s, self.db.port, o.tables)
        # An unrecorded oltp_read_write (every kind of statement the workloads send) keeps JIT compilation and a cold
        # buffer pool out of the first cells. A matrix with more threads than its 8 also warms each target at its
        # largest thread count: many clients take code paths a few never reach (a pool grown to its maximum lends
        # another event loop's connections; hundreds of clients wait for one), and the first cell at that count would
        # otherwise measure the JIT at work (without it, Strata's JIT threads used 0.85 CPU-seconds during the first
        # 64-thread cell of --full, 0.07 during the next, and that cell cost 46 us of Strata CPU per query against 37).
        if o.warmup > 0:
            m.warm_up(o.targets, ["oltp_read_write"], o.ps_modes, max(o.threads), -(-o.warmup // len(o.ps_modes)))
        cells = [(w, ps, t) for w in o.workloads for ps in o.ps_modes for t in o.threads]
        # The many-clients cells, autocommit on and off side by side: a session with autocommit off must share the
        # pool between its transactions as one with it on does.
        if o.many_clients > 0:
            cells += [(w, ps, o.many_clients) for ps in o.ps_modes for w in ("autocommit_on", "autocommit_off")]
        total = len(cells) * len(o.targets) * o.rounds
        say(f"Running {total} cells of {o.time} s (about {total * (o.time + 1) // 60 + 1} min)")
        self.results = m.run(cells, o.targets, self.workload_args)
        self.matrix = m

    # ---- report ---------------------------------------------------------------------------------------------------

    def ratios(self, key):
        """The ratios of a row, blank where they do not apply: on the rows of both Strata builds, their QPS over
        direct's, QPS and queries per CPU-second over haproxy's and haproxy1's; on strata_b's rows also over strata's
        (B over A)."""
        w, ps, t, target = key
        out = dict.fromkeys(("d", "h", "hc", "h1", "h1c", "b", "bc"), "")
        if target not in ("strata", "strata_b"):
            return out
        me = self.results[key]

        def other(name):
            return self.results.get((w, ps, t, name))

        for k, name in (("d", "direct"), ("h", "haproxy"), ("h1", "haproxy1"), ("b", "strata")):
            if name == "strata" and target != "strata_b":
                continue
            x = other(name)
            if x:
                out[k] = report.ratio(me.qps, x.qps)
                if k != "d":
                    out[k + "c"] = report.ratio(me.qpc, x.qpc)
        return out

    def machine_info(self, out):
        o = self.o
        for line in report.machine_lines(o.command):
            out(line)
        out(f"MariaDB:   {self.db_tools.version()}")
        out(f"HAProxy:   {report.first_line([self.haproxy_bin, '-v'])}; haproxy: nbthread {os.cpu_count()}, "
            f"haproxy1: nbthread 1")
        out(f"sysbench:  {report.first_line([self.sysbench_bin, '--version'])}")
        out(f"Java:      {report.first_line([self.java, '-version'])} ({self.java})")
        out(f"Strata:    {o.dist} (pool {o.pool}, STRATA_JAVA_OPTS={targets.java_opts_shown(o.java_opts)})")
        if o.rules_b:
            out(f"Strata B:  {o.dist_b} (target strata_b, with the rules of {o.rules_b})")
        elif o.dist_b:
            out(f"Strata B:  {o.dist_b} (target strata_b, the same configuration and options)")
        if o.server_b:
            out(f"Strata B server: {o.server_b.replace(chr(10), ' ')}")
        if o.java_opts_b:
            out(f"Strata B JVM options: {o.java_opts_b}")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        rounds = (f"; {o.rounds} rounds per cell, targets rotated (QPS, CPU: means; p95: median)"
                  if o.rounds > 1 else "")
        out(f"Data set:  {o.tables} tables x {o.table_size} rows, MariaDB buffer pool {o.buffer_pool}; {o.time} s per "
            f"cell, {o.warmup} s warm-up per target{rounds}")

    def table(self, out):
        """The ratio columns against haproxy1 show when it is a target, the A/B ones when strata_b is."""
        show_h1, show_b = self.o.has("haproxy1"), self.o.has("strata_b")

        def row(c):
            line = "%-18s %-7s %4s %-8s %10s %8s %6s %16s %10s %8s %8s %9s" % tuple(c[:12])
            if show_h1:
                line += " %8s %10s" % tuple(c[12:14])
            if show_b:
                line += " %8s %9s" % tuple(c[14:16])
            return line + " %8s %8s %8s %6s  %s" % tuple(c[16:21])

        out(row(["workload", "ps", "thr", "target", "qps", "p95_ms", "errors", "proxy_cpu_s", "q/cpu_s", "s/direct",
                 "s/haprx", "s/h q/cpu", "s/haprx1", "s/h1 q/cpu", "b/a", "b/a q/cpu", "db_us/q", "usr_us/q",
                 "sys_us/q", "jit_s", "status"]))
        for key, x in self.results.items():
            w, ps, t, target = key
            cpu_s = f"{x.cpu} (mariadbd)" if target == "direct" and x.cpu else x.cpu
            # mariadbd's CPU per query through this target: what multiplexing saves the server shows here
            dbq = report.per(x.db_cpu, float(x.qps) * self.o.time, 1e6, 1) if x.db_cpu else ""
            r = self.ratios(key)
            out(row([w, ps, t, target, x.qps, x.p95 or "-", x.errors, cpu_s or "-", x.qpc or "-"]
                    + [r[k] or "-" for k in ("d", "h", "hc", "h1", "h1c", "b", "bc")]
                    + [dbq or "-", x.usr_us_q or "-", x.sys_us_q or "-", x.jit or "-", x.status]))

    def write_csv(self, path):
        header = ("workload,ps_mode,threads,target,qps,p95_ms,errors,proxy_cpu_s,qps_per_proxy_cpu_s,"
                  "strata_over_direct_qps,strata_over_haproxy_qps,strata_over_haproxy_qps_per_proxy_cpu_s,status,"
                  "cpu_process,db_cpu_s,note,strata_over_haproxy1_qps,strata_over_haproxy1_qps_per_proxy_cpu_s,"
                  "strata_b_over_strata_qps,strata_b_over_strata_qps_per_proxy_cpu_s,user_us_per_query,"
                  "system_us_per_query,jit_cpu_s,qps_min,qps_max")
        rows = []
        for key, x in self.results.items():
            w, ps, t, target = key
            r = self.ratios(key)
            rows.append([w, ps, t, target, x.qps, x.p95, x.errors, x.cpu, x.qpc, r["d"], r["h"], r["hc"], x.status,
                         CPU_NAMES[target], x.db_cpu, x.note, r["h1"], r["h1c"], r["b"], r["bc"], x.usr_us_q,
                         x.sys_us_q, x.jit, x.qps_min, x.qps_max])
        report.write_csv(path, header, rows)

    def save_failure_logs(self, dest, out):
        """The sysbench output of every failed cell, and Strata's logs when a Strata cell failed (build B's as
        strata_b-<name>), next to the results."""
        failed = self.matrix.save_failed_logs(self.results, dest)
        for target, prefix in (("strata", ""), ("strata_b", "strata_b-")):
            if target in failed and target in self.homes:
                common.copy_logs(dest, sorted(glob.glob(f"{self.homes[target]}/logs/*.log")), prefix)
        if os.path.isdir(dest):
            out(f"Logs of the failed cells: {dest}")

    def report(self, s):
        o = self.o
        csv, txt, failed = common.results_paths(common.stamp())
        self.write_csv(csv)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        self.table(out)
        report.failed_cells(out, [(k, x.status, x.note) for k, x in self.results.items()])
        matrix.spread(out, self.results, o.rounds, 8)
        self.save_failure_logs(failed, out)
        out()
        out("proxy_cpu_s: CPU seconds (user+system) of the proxy process during the cell; for direct,")
        out("of mariadbd. q/cpu_s: queries per proxy CPU-second. s/direct, s/haprx: Strata's QPS over")
        out(f"direct's and HAProxy's (nbthread {os.cpu_count()}); s/h q/cpu: Strata's queries per CPU-second over "
            f"HAProxy's.")
        if o.has("haproxy1"):
            out("s/haprx1, s/h1 q/cpu: the same against haproxy1, HAProxy with nbthread 1 (on a small")
            out("machine the cheapest HAProxy per query).")
        if o.has("strata_b"):
            out("strata_b: the second build (--strata-dist-b); its rows carry its own ratios, and")
            out("b/a, b/a q/cpu: its QPS and queries per CPU-second over strata's in the same cell (B over A;")
            out("q/cpu is the steadier of the two).")
        out("db_us/q: mariadbd's CPU microseconds per query through the target (multiplexing lowers it).")
        out("usr_us/q, sys_us/q: the proxy's user and kernel CPU microseconds per query (an L4 proxy's")
        out("are mostly kernel: the same sends and receives). jit_s: of proxy_cpu_s, the CPU seconds of")
        out("a JVM's JIT compiler threads (well above 0: the cell measured compilation too).")
        if o.many_clients > 0:
            out(f"autocommit_on / autocommit_off: {o.many_clients} clients, {o.think_ms} ms between transactions; a "
                f"transaction")
            out("is 4 statements with autocommit on (BEGIN) and 3 with it off: at equal transactions per")
            out("second, autocommit_off shows 3/4 of autocommit_on's QPS.")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")

    def keep_lines(self, s):
        o, p = self.o, self.procs
        lines = []

        def up(t):
            return t in p and p[t].alive()

        if up("direct"):
            lines.append(f"    MariaDB  pid {p['direct'].pid}  127.0.0.1:{o.ports['direct']}  (socket {self.db.sock})")
        if up("haproxy"):
            lines.append(f"    HAProxy  pid {p['haproxy'].pid}  127.0.0.1:{o.ports['haproxy']}")
        if up("haproxy1"):
            lines.append(f"    HAProxy1 pid {p['haproxy1'].pid}  127.0.0.1:{o.ports['haproxy1']}  (nbthread 1)")
        if up("strata"):
            lines.append(f"    Strata   pid {p['strata'].pid}  127.0.0.1:{o.ports['strata']}")
        if up("strata_b"):
            lines.append(f"    Strata B pid {p['strata_b'].pid}  127.0.0.1:{o.ports['strata_b']}  ({o.dist_b})")
        if o.has("strata"):
            lines.append(f"    connect: {self.db_tools.client} -h127.0.0.1 -P{o.ports['strata']} -usbtest -psbtest "
                         f"sbtest")
        return lines


def main(argv):
    bench = EmptyRules(Options(argv))
    with common.Session("strata-bench", bench.o.keep, lambda: bench.keep_lines(s)) as s:
        bench.start(s)
        bench.run(s)
        bench.report(s)


if __name__ == "__main__":
    common.main(main)
