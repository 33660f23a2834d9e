#!/usr/bin/env python3
"""bench/sharding/run.sh: Strata's SHARDING rule against Apache ShardingSphere-Proxy, with sysbench, on the same
sharded layout.

On one machine it starts a private MariaDB with three schemas: sbtest (sysbench prepare: all rows) and sbtest_0,
sbtest_1 (the rows with id % 2 = 0 and = 1, copied from sbtest with INSERT ... SELECT, so that both proxies see the same
data). Then it starts, each on its own port:

  shardingsphere  ShardingSphere-Proxy (from Maven Central, see shardingsphere-pom.xml) with a SHARDING rule: every
                  sbtest table on ds_0 = sbtest_0 and ds_1 = sbtest_1, the data source chosen by id with the MOD
                  algorithm (sharding-count 2), no table strategy
  strata          Strata (from the distribution tarball) with the same rule, written as Strata reads
                  ShardingSphere's YAML ("- type: SHARDING" for "- !SHARDING")
  strata_empty    Strata with the empty rule chain in front of the one unsharded schema sbtest: the yardstick of what
                  sharding costs Strata

and runs the sysbench matrix workload x ps-mode x threads with the targets back to back in every cell (the order
rotated per round), as bench/run.sh does. A Strata build without the SHARDING rule refuses the configuration
("rules[0].type: expected one of [...]"): the run says so, skips target strata and runs the others.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import common, mariadb, matrix, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402

ALL_TARGETS = ["shardingsphere", "strata", "strata_empty", "strata_b"]
ALL_WORKLOADS = ["oltp_point_select", "oltp_read_only", "oltp_read_write"]
ALL_PS_MODES = ["auto", "disable"]
# The newest shardingsphere-proxy-bootstrap on Maven Central (it holds 5.0.0 and 5.1.0 only; later proxies are
# published as binary distributions), whose dependencies all resolve from Central.
SS_DEFAULT_VERSION = "5.1.0"
SHARDS = 2   # data source ds_k is schema sbtest_k
PORT_OFFSETS = {"direct": 0, "shardingsphere": 1, "strata": 2, "strata_empty": 3, "strata_b": 4}
CPU_NAMES = {"shardingsphere": "shardingsphere-proxy", "strata": "strata (SHARDING)",
             "strata_empty": "strata (empty rules)", "strata_b": "strata B (SHARDING)"}
NO_SHARDING_RULE = re.compile(r"rules\[[0-9]+\]\.type: expected one of .*got 'SHARDING'")

SPEC = {
    "--time": ("value", "time"), "--rounds": ("value", "rounds"), "--warmup": ("value", "warmup"),
    "--targets": ("list", "targets"), "--workloads": ("list", "workloads"), "--threads": ("list", "threads"),
    "--ps-modes": ("list", "ps_modes"), "--tables": ("value", "tables"), "--table-size": ("value", "table_size"),
    "--strata-dist": ("value", "dist"), "--strata-dist-b": ("value", "dist_b"), "--strata-pool": ("value", "pool"),
    "--shardingsphere-version": ("value", "ss_version"), "--shardingsphere-lib": ("value", "ss_lib"),
    "--base-port": ("value", "base_port"), "--keep": ("flag", "keep"),
}


def usage():
    return f"""Usage: bench/sharding/run.sh [options]

Compares Strata's SHARDING rule with Apache ShardingSphere-Proxy on the same sharded layout:
sysbench's sbtest tables sharded by id over two data sources (MOD, sharding-count 2), two
schemas of one private MariaDB. Installs sysbench, mariadb-server and mariadb-client with
apt-get when they are missing; fetches ShardingSphere-Proxy from Maven Central with ./mvnw
the first time (into ~/.cache/strata-bench/shardingsphere-<version>/lib).

Targets (every cell runs through each, back to back, the order rotated per round):
  shardingsphere       ShardingSphere-Proxy {SS_DEFAULT_VERSION} with the SHARDING rule
  strata               Strata from --strata-dist with the same SHARDING rule (skipped, with a
                       message, when that build has no SHARDING rule)
  strata_empty         Strata with the empty rule chain in front of ONE unsharded schema that
                       holds all rows: Strata's own cost without sharding
  strata_b             a second Strata build (--strata-dist-b) with the same SHARDING rule, for
                       an A/B of two builds in one run (added by --strata-dist-b)

Matrix (comma- or space-separated lists):
  --time SECONDS       seconds per cell (default 10)
  --rounds N           run every cell N times, the targets in a rotated order each round;
                       QPS and CPU are the rounds' means, p95 their median (default 1)
  --warmup SECONDS     unrecorded run of every workload through each target before the
                       matrix (8 threads; the seconds split over workloads and ps modes), plus
                       oltp_point_select at the largest thread count when it is above 8
                       (default 60; 0 = none)
  --targets LIST       of: {' '.join(ALL_TARGETS)} (default: all but strata_b)
  --workloads LIST     sysbench scripts (default: {' '.join(ALL_WORKLOADS)})
  --threads LIST       sysbench thread counts (default: 4 64)
  --ps-modes LIST      sysbench --db-ps-mode values, of: {' '.join(ALL_PS_MODES)} (default: both)
  --tables N           number of sbtest tables (default 4)
  --table-size N       rows per table (default 100000)

Setup:
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default: the
                       newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --strata-dist-b PATH another build as target strata_b (port N+4); the report adds its QPS and
                       queries per CPU-second over strata's, cell by cell
  --strata-pool N      maximumPoolSize per data source of both Strata targets, and maxPoolSize
                       per data source of ShardingSphere (default 64)
  --shardingsphere-version V
                       shardingsphere-proxy-bootstrap version from Maven Central (default
                       {SS_DEFAULT_VERSION}, the newest there; the configuration written is 5.1's)
  --shardingsphere-lib DIR
                       a folder of ShardingSphere-Proxy jars to use instead of fetching them
  --base-port N        MariaDB on N, ShardingSphere on N+1, Strata on N+2, strata_empty on N+3
                       (default 13406)
  --keep               leave everything running at the end and keep the temp folder
  -h, --help           this help

Environment:
  JAVA_HOME            JDK for Strata (>= 21; else the newest JDK >= 21 under /usr/lib/jvm)
  SS_JAVA_HOME         JDK for ShardingSphere-Proxy (default: the same as Strata's)
  SS_JAVA_OPTS         JVM options for ShardingSphere-Proxy (default: those of its own bin/start.sh)
  STRATA_JAVA_OPTS     JVM options for Strata (default: those of its bin/start.sh)

Output: a table on the terminal, and bench/results/sharding-<timestamp>.csv and .txt."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        self.time = common.whole(a.get("time", 10))
        self.rounds = common.whole(a.get("rounds", 1))
        self.warmup = common.whole(a.get("warmup", 60))
        self.targets = a.get("targets", ["shardingsphere", "strata", "strata_empty"])
        self.workloads = a.get("workloads", list(ALL_WORKLOADS))
        self.ps_modes = a.get("ps_modes", list(ALL_PS_MODES))
        self.threads = [common.whole(t) for t in a.get("threads", ["4", "64"])]
        self.tables = common.whole(a.get("tables", 4))
        self.table_size = common.whole(a.get("table_size", 100000))
        self.pool = common.whole(a.get("pool", 64))
        self.base_port = common.whole(a.get("base_port", 13406))
        self.keep = a.has("keep")
        self.dist = a.get("dist", "")
        self.dist_b = a.get("dist_b", "")
        self.ss_version = a.get("ss_version", SS_DEFAULT_VERSION)
        self.ss_lib = a.get("ss_lib", "")
        if self.dist_b:
            if not os.path.exists(self.dist_b):
                die(f"--strata-dist-b: {self.dist_b} does not exist")
            self.dist_b = os.path.abspath(self.dist_b)
            if "strata_b" not in self.targets:
                self.targets.append("strata_b")
        if "strata_b" in self.targets and not self.dist_b:
            die("target strata_b needs --strata-dist-b")
        matrix.check_options(self, ALL_TARGETS, ALL_PS_MODES, 65532)
        if not re.fullmatch(r"[0-9A-Za-z.-]+", self.ss_version):
            die(f"--shardingsphere-version: not a version: '{self.ss_version}'")
        # Every read from memory: about 250 bytes a row with its index entries, three copies of the data set (sbtest,
        # and sbtest_0 + sbtest_1), 4x headroom, at least 256M.
        self.buffer_pool = f"{max(3 * self.tables * self.table_size * 1000 // 1048576 + 1, 256)}M"
        self.ports = {t: self.base_port + o for t, o in PORT_OFFSETS.items()}

    def has(self, target):
        return target in self.targets


class Sharding:
    def __init__(self, o):
        self.o = o
        self.installed = common.install_missing()
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.db_tools = mariadb.Tools()
        matrix.check_workloads(o.workloads)
        self.java = common.select_java()
        if o.has("strata") or o.has("strata_empty") or o.has("strata_b"):
            o.dist = common.locate_dist(o.dist)
        if o.has("shardingsphere"):
            # ShardingSphere-Proxy's JDK: SS_JAVA_HOME, else Strata's, so that both proxies run on the same JIT and GC.
            # 5.1.0 (built for Java 8) serves every workload here on Temurin 25; its start script knows Java 8, 11
            # and 17 and adds options for those only.
            ss_home = os.environ.get("SS_JAVA_HOME")
            if ss_home:
                if not os.access(os.path.join(ss_home, "bin", "java"), os.X_OK):
                    die(f"SS_JAVA_HOME={ss_home} has no bin/java")
                self.ss_java = os.path.join(ss_home, "bin", "java")
            else:
                self.ss_java = self.java
            self.ss_java_major = common.java_major(self.ss_java)
            self.ss_lib, self.ss_jar_version = targets.fetch_shardingsphere(o.ss_version, o.ss_lib, self.java)
        for port in [o.ports["direct"]] + [o.ports[t] for t in o.targets]:
            if common.port_in_use(port):
                die(f"port {port} is in use; pick other ports with --base-port N (uses N..N+4)")
        self.load, self.busy = common.load_and_busy()
        common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts; results will be "
                                    "noisy.")
        self.sb = matrix.sysbench_for(self.sysbench_bin, o.tables, o.table_size)
        self.procs = {}
        self.homes = {}
        self.skipped = ""
        self.ss_opts = ""

    # ---- set-up ---------------------------------------------------------------------------------------------------

    def start_mariadb(self, s):
        o = self.o
        self.db = mariadb.Server(self.db_tools, "MariaDB", s.path("mariadb"), o.ports["direct"])
        say(f"Creating a MariaDB data folder in {self.db.dir}/data")
        self.db.install()
        say(f"Starting MariaDB on 127.0.0.1:{self.db.port} (buffer pool {o.buffer_pool})")
        self.db.start(s, mariadb.bench_options(o.buffer_pool))
        # PROCESS: Strata reads the server's lock waits with it, to break deadlocks across the shards
        sql = ("CREATE DATABASE sbtest; CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest'; "
               "GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%'; GRANT PROCESS ON *.* TO 'sbtest'@'%';")
        for k in range(SHARDS):
            sql += f" CREATE DATABASE sbtest_{k}; GRANT ALL PRIVILEGES ON sbtest_{k}.* TO 'sbtest'@'%';"
        self.db.sql(self.db.drop_anonymous_users() + " " + sql, "could not create the sbtest databases and user")

    def prepare(self, s):
        """sysbench prepare into sbtest (direct), then the shards: sbtest_k.sbtestN gets the rows of sbtest.sbtestN
        with id % 2 = k, in a table of the same definition. Deterministic: both sharded targets read the same rows,
        and strata_empty all of them in one schema."""
        o = self.o
        say(f"Loading the data set: {o.tables} tables x {o.table_size} rows (sysbench prepare into sbtest, direct)")
        matrix.prepare(self.sb, s, self.db.port, o.tables)
        say(f"Sharding it: sbtest_k.sbtestN = the rows of sbtest.sbtestN with id % {SHARDS} = k (INSERT ... SELECT)")
        sql = ""
        for i in range(1, o.tables + 1):
            for k in range(SHARDS):
                sql += (f" CREATE TABLE sbtest_{k}.sbtest{i} LIKE sbtest.sbtest{i};"
                        f" INSERT INTO sbtest_{k}.sbtest{i} SELECT * FROM sbtest.sbtest{i} WHERE id % {SHARDS} = {k};")
        self.db.sql(sql, "could not copy the rows into the shards")
        for i in range(1, o.tables + 1):
            total = self.db.value(f"SELECT COUNT(*) FROM sbtest.sbtest{i}")
            parts = self.db.value(f"SELECT (SELECT COUNT(*) FROM sbtest_0.sbtest{i} WHERE id % 2 = 0) + "
                                  f"(SELECT COUNT(*) FROM sbtest_1.sbtest{i} WHERE id % 2 = 1)")
            if total != str(o.table_size) or parts != total:
                die(f"sbtest{i}: {total} rows in sbtest, {parts} in the shards (expected {o.table_size})")
        self.db.sql("ANALYZE TABLE " + ", ".join(f"sbtest.sbtest{i}, sbtest_0.sbtest{i}, sbtest_1.sbtest{i}"
                                                 for i in range(1, o.tables + 1)), "ANALYZE TABLE failed")

    def rule_body(self, ind):
        """The SHARDING rule's body, the same for both proxies (the first line, "- !SHARDING" or "- type: SHARDING",
        is the caller's): each sbtest table on ds_0 and ds_1 under its own name, the data source chosen by id with
        MOD (id % 2 = k goes to ds_k, the data source whose name ends in k), no table strategy."""
        out = f"{ind}tables:\n"
        for i in range(1, self.o.tables + 1):
            out += (f"{ind}  sbtest{i}:\n{ind}    actualDataNodes: ds_${{0..{SHARDS - 1}}}.sbtest{i}\n"
                    f"{ind}    databaseStrategy:\n{ind}      standard:\n{ind}        shardingColumn: id\n"
                    f"{ind}        shardingAlgorithmName: sbtest_mod\n")
        return out + (f"{ind}shardingAlgorithms:\n{ind}  sbtest_mod:\n{ind}    type: MOD\n{ind}    props:\n"
                      f"{ind}      sharding-count: {SHARDS}\n")

    def routing_check(self, port):
        """The layout, checked once through a proxy: a point select finds its one row, and a COUNT(*) over both shards
        finds all rows of sbtest1. Returns what it found, or "" when all is well."""
        one = self.db_tools.tcp(port, "SELECT COUNT(*) FROM sbtest1 WHERE id = 7")[1]
        every = self.db_tools.tcp(port, "SELECT COUNT(*) FROM sbtest1")[1]
        if one == "1" and every == str(self.o.table_size):
            return ""
        return f"rows with id = 7: {one}, rows of sbtest1: {every}; expected 1 and {self.o.table_size}"

    def start_shardingsphere(self, s):
        """ShardingSphere-Proxy 5.1. What is set, and why: mode Standalone with the File repository in the temp
        folder, overwrite: true (the configuration comes from these files, and nothing is left in
        ~/.shardingsphere); the AUTHORITY rule with the user sbtest/sbtest (its default would be root/root); props:
        none, every property keeps its default. Data sources: the JDBC URL of the 5.1 sample (this MariaDB has no
        TLS), the pool as large as Strata's, every other pool setting its default."""
        o = self.o
        home = s.path("shardingsphere")
        server = f"""# Written by bench/sharding/run.sh for ShardingSphere-Proxy {self.ss_jar_version}.
mode:
  type: Standalone
  repository:
    type: File
    props:
      path: {home}/repository
  overwrite: true

rules:
  - !AUTHORITY
    users:
      - sbtest@%:sbtest
    provider:
      type: ALL_PRIVILEGES_PERMITTED
"""
        db = ("# Written by bench/sharding/run.sh: sysbench's tables sharded by id over two data sources.\n"
              "schemaName: sbtest\ndataSources:\n")
        for k in range(SHARDS):
            db += (f"  ds_{k}:\n    url: jdbc:mysql://127.0.0.1:{self.db.port}/sbtest_{k}?serverTimezone=UTC&useSSL=false\n"
                   f"    username: sbtest\n    password: sbtest\n    maxPoolSize: {o.pool}\n")
        db += "rules:\n- !SHARDING\n" + self.rule_body("  ")
        self.ss_opts = os.environ.get("SS_JAVA_OPTS") or targets.shardingsphere_java_opts(self.ss_java_major)
        say(f"Starting ShardingSphere-Proxy {self.ss_jar_version} on 127.0.0.1:{o.ports['shardingsphere']} (Java "
            f"{self.ss_java_major}, maxPoolSize {o.pool})")
        self.procs["shardingsphere"] = targets.start_shardingsphere(
            s, self.db_tools, home, self.ss_java, self.ss_opts, self.ss_lib, o.ports["shardingsphere"], server, db)
        got = self.routing_check(o.ports["shardingsphere"])
        if got:
            die(f"ShardingSphere-Proxy does not serve the sharded sbtest1 as expected ({got}; log: "
                f"{home}/logs/stdout.log)")

    def start_strata(self, s, target, label, prefix, rules, dist):
        """Unpacks (or copies) a Strata distribution into <prefix>-dist, writes server.yaml and the logical
        database's configuration (the SHARDING rule, or the empty chain in front of sbtest) and starts it with
        bin/start.sh. Returns False when this build refuses the SHARDING rule's type (it has no SHARDING rule yet)."""
        o = self.o
        port = o.ports[target]
        server = (f"# Written by bench/sharding/run.sh.\nserver:\n  host: 127.0.0.1\n  port: {port}\n"
                  f"  workerThreads: {os.environ.get('STRATA_WORKER_THREADS') or 0}\n"
                  f"users:\n  - {{ name: sbtest, password: sbtest, databases: [sbtest] }}\n")
        if rules == "sharding":
            db = ('# Written by bench/sharding/run.sh: ShardingSphere\'s SHARDING rule as written, "- type: SHARDING" '
                  'for "- !SHARDING".\ndatabaseName: sbtest\ndataSources:\n')
            for k in range(SHARDS):
                db += targets.data_source(f"ds_{k}", f"jdbc:mariadb://127.0.0.1:{self.db.port}/sbtest_{k}", o.pool)
            db += "rules:\n  - type: SHARDING\n" + self.rule_body("    ")
        else:
            db = ("# Written by bench/sharding/run.sh: the empty rule chain in front of the one unsharded schema.\n"
                  "databaseName: sbtest\ndataSources:\n"
                  + targets.data_source("ds_0", f"jdbc:mariadb://127.0.0.1:{self.db.port}/sbtest", o.pool)
                  + "rules: []\n")
        try:
            self.procs[target], self.homes[target] = targets.start_strata(
                s, self.db_tools, label, dist, prefix, port, o.pool, server, db, os.environ.get("STRATA_JAVA_OPTS", ""))
            return True
        except targets.StartFailed as e:
            self.homes[target] = e.home
            refused = NO_SHARDING_RULE.search(e.output)
            if rules == "sharding" and refused:
                self.refusal = refused.group(0)
                return False
            echo("\n".join(e.output.strip().splitlines()[-30:]))
            die(f"{label} did not start or does not answer on port {port} (log: {e.home}/logs/stdout.log)")

    def start_targets(self, s):
        o = self.o
        if o.has("shardingsphere"):
            self.start_shardingsphere(s)
        if o.has("strata"):
            if not self.start_strata(s, "strata", "Strata (SHARDING rule)", "strata", "sharding", o.dist):
                self.skipped = self.refusal
                echo("    this Strata build has no SHARDING rule yet; target strata skipped")
                echo(f"    (Strata said: {self.skipped})")
                o.targets.remove("strata")
                if not o.targets:
                    die("no target left to run")
            else:   # the routing, checked once; a wrong answer is reported, and the cells run
                got = self.routing_check(o.ports["strata"])
                if got:
                    echo(f"    WARNING: Strata with the SHARDING rule: {got}")
        if o.has("strata_empty"):
            self.start_strata(s, "strata_empty", "Strata (empty rules, unsharded sbtest)", "strata-empty", "empty",
                              o.dist)
        if o.has("strata_b"):
            if not self.start_strata(s, "strata_b", "Strata B (SHARDING rule)", "strata-b", "sharding", o.dist_b):
                die(f"Strata B ({o.dist_b}) refused the SHARDING rule")
            got = self.routing_check(o.ports["strata_b"])
            if got:
                echo(f"    WARNING: Strata B with the SHARDING rule: {got}")

    def run(self, s):
        o = self.o
        m = matrix.Matrix(self.sb, s, o.ports, {t: p.pid for t, p in self.procs.items()}, CPU_NAMES, self.db.pid(),
                          o.time, o.rounds, target_width=14, show_sys=False, begin_as_text_ok=True)
        # Every workload of the matrix, not only oltp_read_write as bench/run.sh warms: ShardingSphere-Proxy has far
        # more code to compile (its C2 thread used about 28 CPU-seconds before point selects ran at a steady rate),
        # and the range queries take merge paths (ORDER BY, DISTINCT, SUM over both shards) that point selects never
        # reach.
        if o.warmup > 0:
            m.warm_up(o.targets, o.workloads, o.ps_modes, max(o.threads),
                      max(-(-o.warmup // (len(o.ps_modes) * len(o.workloads))), 2), show_log=True)
        cells = [(w, ps, t) for w in o.workloads for ps in o.ps_modes for t in o.threads]
        total = len(cells) * len(o.targets) * o.rounds
        say(f"Running {total} cells of {o.time} s (about {total * (o.time + 1) // 60 + 1} min): "
            f"{' '.join(o.targets)}")
        # ShardingSphere-Proxy 5.1 refuses to prepare BEGIN (error 1295); sysbench then sends that one statement as
        # text and every other one prepared: such a cell counts, with a note (begin_as_text_ok).
        self.results = m.run(cells, o.targets)
        self.matrix = m

    # ---- report ---------------------------------------------------------------------------------------------------

    def ratios(self, key):
        """On strata's (and strata_b's) row: QPS and queries per CPU-second over shardingsphere's, QPS over
        strata_empty's; on shardingsphere's row: its QPS over strata_empty's."""
        w, ps, t, target = key
        me = self.results[key]
        ss = self.results.get((w, ps, t, "shardingsphere"))
        empty = self.results.get((w, ps, t, "strata_empty"))
        out = dict.fromkeys(("s", "sc", "e", "se"), "")
        if target in ("strata", "strata_b"):
            out["s"] = report.ratio(me.qps, ss.qps if ss else "")
            out["sc"] = report.ratio(me.qpc, ss.qpc if ss else "")
            out["e"] = report.ratio(me.qps, empty.qps if empty else "")
        elif target == "shardingsphere":
            out["se"] = report.ratio(me.qps, empty.qps if empty else "")
        return out

    def machine_info(self, out):
        o = self.o
        for line in report.machine_lines(o.command):
            out(line)
        out(f"MariaDB:   {self.db_tools.version()}")
        out(f"sysbench:  {report.first_line([self.sysbench_bin, '--version'])}")
        if o.dist_b:
            out(f"Strata B:  {o.dist_b} (target strata_b, the same SHARDING rule and options)")
        out(f"Strata:    {o.dist} (pool {o.pool} per data source; {report.first_line([self.java, '-version'])}, "
            f"{self.java}; STRATA_JAVA_OPTS={targets.java_opts_shown(os.environ.get('STRATA_JAVA_OPTS'))})")
        if self.skipped:
            out(f"           target strata skipped: this Strata build has no SHARDING rule yet ({self.skipped})")
        if "shardingsphere" in self.procs:
            out(f"ShardingSphere-Proxy: {self.ss_jar_version} from Maven Central, jars in {self.ss_lib} (maxPoolSize "
                f"{o.pool} per data source, props all default)")
            out(f"           {report.first_line([self.ss_java, '-version'])}, {self.ss_java}; options: {self.ss_opts}")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        out(f"Layout:    {o.tables} tables x {o.table_size} rows sharded by id % {SHARDS} over ds_0 = sbtest_0, ds_1 = "
            f"sbtest_1 (MOD, no table strategy); strata_empty: all rows in sbtest")
        rounds = (f"; {o.rounds} rounds per cell, targets rotated (QPS, CPU: means; p95: median)"
                  if o.rounds > 1 else "")
        out(f"Data set:  MariaDB buffer pool {o.buffer_pool}; {o.time} s per cell, {o.warmup} s warm-up per "
            f"target{rounds}")

    def table(self, out):
        fmt = "%-18s %-7s %4s %-14s %10s %8s %6s %11s %7s %9s %7s %10s %8s %8s %8s  %s"
        out(fmt % ("workload", "ps", "thr", "target", "qps", "p95_ms", "errors", "proxy_cpu_s", "jit_s", "q/cpu_s",
                   "s/ss", "s/ss q/cpu", "s/empty", "ss/empty", "db_us/q", "status"))
        for key, x in self.results.items():
            r = self.ratios(key)
            dbq = report.per(x.db_cpu, float(x.qps) * self.o.time, 1e6, 1) if x.db_cpu else ""
            status = x.status + ("*" if x.status == "ok" and x.note else "")
            out(fmt % (*key, x.qps, x.p95 or "-", x.errors, x.cpu or "-", x.jit or "-", x.qpc or "-", r["s"] or "-",
                       r["sc"] or "-", r["e"] or "-", r["se"] or "-", dbq or "-", status))

    def notes(self, out):
        """The cells that count but carry a note (status "ok*")."""
        first = True
        for key, x in self.results.items():
            if x.status == "ok" and x.note:
                if first:
                    out()
                    out("Notes (status ok*):")
                    first = False
                out(f"  {' '.join(map(str, key))}: {x.note}")

    def b_over_a(self, out):
        """An A/B run: strata_b's QPS and queries per CPU-second over strata's, cell by cell."""
        out()
        out(f"B over A (strata_b = {self.o.dist_b} over strata = {self.o.dist}): QPS, queries per proxy CPU-second")
        for (w, ps, t, target), x in self.results.items():
            if target == "strata_b":
                a = self.results.get((w, ps, t, "strata"))
                out(f"  {w:<18} {ps:<7} {t:>4}   {report.ratio(x.qps, a.qps if a else ''):>6}   "
                    f"{report.ratio(x.qpc, a.qpc if a else ''):>6}")

    def save_failure_logs(self, s, dest, out):
        """The sysbench output of every failed cell, and the logs of a proxy that failed one, next to the results."""
        failed = self.matrix.save_failed_logs(self.results, dest)
        if "shardingsphere" in failed:
            common.copy_logs(dest, [s.path("shardingsphere", "logs", "stdout.log")], "shardingsphere-")
        for target in ("strata", "strata_empty", "strata_b"):
            if target in failed and target in self.homes:
                common.copy_logs(dest, sorted(glob.glob(f"{self.homes[target]}/logs/*.log")), f"{target}-")
        if os.path.isdir(dest):
            out(f"Logs of the failed cells: {dest}")

    def report(self, s):
        o = self.o
        csv, txt, failed = common.results_paths(f"sharding-{common.stamp()}")
        rows = []
        for key, x in self.results.items():
            r = self.ratios(key)
            rows.append([*key, x.qps, x.p95, x.errors, x.cpu, x.qpc, r["s"], r["sc"], r["e"], r["se"], x.status,
                         CPU_NAMES[key[3]], x.db_cpu, x.jit, x.note, x.qps_min, x.qps_max])
        report.write_csv(csv, "workload,ps_mode,threads,target,qps,p95_ms,errors,proxy_cpu_s,qps_per_proxy_cpu_s,"
                              "strata_over_shardingsphere_qps,strata_over_shardingsphere_qps_per_proxy_cpu_s,"
                              "strata_over_strata_empty_qps,shardingsphere_over_strata_empty_qps,status,cpu_process,"
                              "db_cpu_s,jit_cpu_s,note,qps_min,qps_max", rows)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        self.table(out)
        report.failed_cells(out, [(k, x.status, x.note) for k, x in self.results.items()])
        self.notes(out)
        if o.has("strata_b") and o.has("strata"):
            self.b_over_a(out)
        matrix.spread(out, self.results, o.rounds, 14)
        self.save_failure_logs(s, failed, out)
        out()
        out("proxy_cpu_s: CPU seconds (user+system, /proc/<pid>/stat) of the target's proxy process during the")
        out("cell. q/cpu_s: queries per proxy CPU-second. s/ss, s/ss q/cpu: strata's QPS and queries per")
        out("CPU-second over shardingsphere's (both with the SHARDING rule). s/empty: strata's QPS over")
        out("strata_empty's (what the SHARDING rule costs Strata; on point selects, one shard per query).")
        out("ss/empty: shardingsphere's QPS over strata_empty's. db_us/q: mariadbd's CPU microseconds per query.")
        out("jit_s: of proxy_cpu_s, the CPU seconds of the proxy's JIT compiler threads (C1, C2): well above")
        out("zero, the cell measured compilation too (a longer --warmup helps).")
        if self.skipped:
            out("Target strata was skipped: this Strata build has no SHARDING rule yet.")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")

    def keep_lines(self):
        o, p = self.o, self.procs
        lines = []
        for target, name in (("direct", "MariaDB        "), ("shardingsphere", "ShardingSphere "),
                             ("strata", "Strata         "), ("strata_empty", "Strata (empty) "),
                             ("strata_b", "Strata B       ")):
            if target in p and p[target].alive():
                lines.append(f"    {name} pid {p[target].pid}  127.0.0.1:{o.ports[target]}")
        lines.append(f"    connect: {self.db_tools.client} -h127.0.0.1 -P<port> -usbtest -psbtest sbtest")
        return lines


def main(argv):
    bench = Sharding(Options(argv))
    with common.Session("strata-bench-sharding", bench.o.keep, bench.keep_lines) as s:
        bench.start_mariadb(s)
        bench.procs["direct"] = bench.db.proc
        bench.prepare(s)   # the proxies read the tables' definitions at start: the data goes in first
        bench.start_targets(s)
        bench.run(s)
        bench.report(s)


if __name__ == "__main__":
    common.main(main)
