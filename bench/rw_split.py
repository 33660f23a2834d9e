#!/usr/bin/env python3
"""bench/rw-split.sh: how read QPS through Strata grows with 0, 1 and 2 MariaDB replicas behind the
READWRITE_SPLITTING rule; with --overhead, what a read the rule routes to a replica costs against HAProxy.

The whole machine shares its cores, so CPU cannot be the bottleneck that replicas relieve. Instead every read holds
its backend connection for a fixed wall-clock time without using CPU (SELECT c, SLEEP(0.005) FROM sbtest1 WHERE id =
?, see bench/rw-split/read_sleep.lua), and Strata's pool per data source has a fixed size, so each backend serves at
most pool / sleep reads per second: with more client threads than backend connections the read QPS should be 1x, 2x
and 3x that with 0, 1 and 2 replicas (the primary takes reads too). bench/README.md explains the method.

--overhead starts the primary and replica_0 only, HAProxy (TCP mode) in front of replica_0, and Strata with the rule
(every read to replica_0), and runs sysbench's oltp_point_select and oltp_read_only (--skip_trx=on, no SLEEP) for each
ps mode and thread count against replica-direct, haproxy and strata-rw back to back.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import common, mariadb, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402
from harness.sysbench import CellResult, Sysbench  # noqa: E402

NODE_NAMES = ["primary", "replica_0", "replica_1"]
LUA_SCRIPT = os.path.join(common.BENCH_DIR, "rw-split", "read_sleep.lua")
OH_WORKLOADS = ["oltp_point_select", "oltp_read_only"]
OH_TARGETS = ["replica-direct", "haproxy", "strata-rw"]
OH_CPU_NAMES = {"replica-direct": "mariadbd", "haproxy": "haproxy", "strata-rw": "strata"}
USERS_YAML = """users:
  - name: root
    password: root
    databases: ["*"]
    admin: true
  - name: sbtest
    password: sbtest
    databases: [sbtest]
"""
HEALTH_CHECK = """    healthCheck:
      username: monitor
      password: monitor
      interval: 1000          # ms between checks
      maxReplicationLag: 10   # seconds
"""

SPEC = {
    "--time": ("value", "time"), "--warmup": ("value", "warmup"), "--threads": ("list", "threads"),
    "--pool": ("value", "pool"), "--sleep-ms": ("value", "sleep"), "--table-size": ("value", "table_size"),
    "--replicas": ("list", "replicas"), "--ps-mode": ("list", "ps"), "--workloads": ("list", "workloads"),
    "--overhead": ("flag", "overhead"), "--direct-only": ("flag", "direct_only"),
    "--strata-dist": ("value", "dist"), "--base-port": ("value", "base_port"), "--keep": ("flag", "keep"),
}


def usage():
    return """Usage: bench/rw-split.sh [options]

Read QPS through Strata's READWRITE_SPLITTING rule with 0, 1 and 2 replicas, on this
machine. Starts its own MariaDB primary and replicas on ports 13316..13318 and Strata
on 13319; installs sysbench, mariadb-server and mariadb-client with apt-get when
they are missing (the system MariaDB service, if any, is neither used nor touched).

Every read holds its backend connection for --sleep-ms (SLEEP() in the server, no CPU),
and Strata's pool per data source has --pool connections, so a backend serves at most
pool x 1000 / sleep-ms reads per second (default: 4 x 1000 / 5 = 800) independent of
the CPU. Expected: 0 replicas 1x, 1 replica 2x, 2 replicas 3x.

Options:
  --time SECONDS       measured seconds per cell (default 10)
  --warmup SECONDS     unrecorded run through each Strata configuration before its cell
                       (default 3; 0 = none)
  --threads N          sysbench threads (client connections) for the Strata cells and the
                       direct sanity cell; must exceed the backend connections,
                       3 x --pool, so the backends saturate (default 32)
  --pool N             maximumPoolSize of every Strata data source (default 4)
  --sleep-ms N         milliseconds each read holds its connection (default 5)
  --table-size N       rows in sbtest1 (default 10000)
  --replicas LIST      replica counts to run through Strata, of 0 1 2 (default "0 1 2")
  --ps-mode MODE       sysbench --db-ps-mode: auto = server-side prepared statements
                       (binary protocol), disable = text protocol (default auto)
  --direct-only        only the direct cells (no Strata): checks the servers, the
                       replication and the per-backend ceiling without a Strata build
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --base-port N        primary on N, replicas on N+1 and N+2, Strata on N+3 (default 13316)
  --keep               leave the servers running at the end and keep the temp folder;
                       prints how to stop them
  -h, --help           this help

Overhead mode (instead of the cells above):
  --overhead           what a read that the rule routes to a replica costs against an L4
                       proxy. Starts the primary and replica_0 only, HAProxy (mode tcp,
                       nbthread = CPUs) on 13320 in front of replica_0, and Strata on 13319
                       with READWRITE_SPLITTING (readDataSources [replica_0],
                       primaryTakesReads false, readYourWrites false); runs standard sysbench
                       workloads (no SLEEP) per ps mode and thread count against
                       replica-direct, haproxy and strata-rw back to back, and reports QPS,
                       p95, proxy CPU-s, queries per proxy CPU-second and Strata/HAProxy.
                       oltp_read_only runs with --skip_trx=on (BEGIN would pin the session
                       to the primary). Needs haproxy (installed with apt-get if missing).
  --workloads LIST     of: oltp_point_select oltp_read_only (default: both)
  --threads LIST       sysbench thread counts (default "4 16")
  --ps-mode LIST       of: auto disable (default "auto disable")
  --time, --warmup     as above; --warmup is per target and ps mode (default 5)
  --pool N             maximumPoolSize of both Strata data sources (default 64)
  --table-size, --strata-dist, --base-port, --keep: as above.
  Not with --overhead: --replicas, --sleep-ms, --direct-only.

Environment:
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh)
  STRATA_WORKER_THREADS  --overhead only: Strata's server.workerThreads (default: Strata's,
                       2 x CPUs)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java 21,
                       the newest JDK >= 21 under /usr/lib/jvm is used

Output: a table on the terminal, and bench/results/rw-split-<timestamp>.csv and .txt
(--overhead: rw-split-overhead-<timestamp>.csv and .txt)."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        self.overhead = a.has("overhead")
        self.direct_only = a.has("direct_only")
        self.keep = a.has("keep")
        self.dist = a.get("dist", "")
        self.time = common.whole(a.get("time", 10))
        self.table_size = common.whole(a.get("table_size", 10000))
        self.base_port = common.whole(a.get("base_port", 13316))
        self.strata_port = self.base_port + 3
        self.haproxy_port = self.base_port + 4
        if self.overhead:
            self.overhead_options(a)
        else:
            self.scaling_options(a)
        if self.time < 1:
            die("--time must be at least 1")

    def scaling_options(self, a):
        if a.has("workloads"):
            die("--workloads only applies with --overhead")
        threads, ps = a.get("threads", ["32"]), a.get("ps", ["auto"])
        if len(threads) != 1:
            die("--threads takes one number (a list only with --overhead)")
        if len(ps) != 1:
            die("--ps-mode takes one mode (a list only with --overhead)")
        self.warmup = common.whole(a.get("warmup", 3))
        self.threads = common.whole(threads[0])
        self.pool = common.whole(a.get("pool", 4))
        self.sleep_ms = common.whole(a.get("sleep", 5))
        self.ps_mode = ps[0]
        if min(self.threads, self.pool, self.sleep_ms, self.table_size) < 1:
            die("--threads, --pool, --sleep-ms and --table-size must be at least 1")
        if not 1024 <= self.base_port <= 65532:
            die("--base-port must be in 1024..65532")
        if self.ps_mode not in ("auto", "disable"):
            die("--ps-mode must be auto or disable")
        self.replicas = a.get("replicas", ["0", "1", "2"])
        if not self.replicas:
            die("--replicas may not be empty")
        for n in self.replicas:
            if n not in ("0", "1", "2"):
                die(f"--replicas: '{n}' is not one of 0 1 2")
        self.replicas = [int(n) for n in self.replicas]
        # The direct cells look at every server, so start as many replicas as the largest configuration needs (all
        # of them for --direct-only).
        self.n_servers = 3 if self.direct_only else max(self.replicas) + 1
        if not self.direct_only and self.threads <= self.pool * self.n_servers:
            echo(f"WARNING: --threads {self.threads} is not more than the {self.pool * self.n_servers} backend "
                 f"connections of the largest")
            echo("         configuration; the backends will not saturate and the scaling will look worse than it is.")
        # The most reads per second one backend can serve through a pool of --pool connections.
        self.ceiling = int(f"{self.pool * 1000 / self.sleep_ms:.0f}")

    def overhead_options(self, a):
        """It needs the primary (the rule's writeDataSource) and replica_0 only; HAProxy listens on base port + 4."""
        if self.direct_only:
            die("--direct-only does not apply with --overhead")
        if a.has("replicas"):
            die("--replicas does not apply with --overhead (it uses the primary and replica_0)")
        if a.has("sleep"):
            die("--sleep-ms does not apply with --overhead (its reads do not sleep)")
        self.threads = [common.whole(t) for t in a.get("threads", ["4", "16"])]
        self.ps_modes = a.get("ps", ["auto", "disable"])
        self.pool = common.whole(a.get("pool", 64))
        self.warmup = common.whole(a.get("warmup", 5))
        self.workloads = a.get("workloads", list(OH_WORKLOADS))
        if self.pool < 1 or self.table_size < 1:
            die("--pool and --table-size must be at least 1")
        if any(t < 1 for t in self.threads):
            die("thread counts must be at least 1")
        if not 1024 <= self.base_port <= 65531:
            die("--base-port must be in 1024..65531")
        if not (self.threads and self.ps_modes and self.workloads):
            die("--threads, --ps-mode and --workloads may not be empty")
        for m in self.ps_modes:
            if m not in ("auto", "disable"):
                die(f"--ps-mode: '{m}' is not auto or disable")
        # Reads only: haproxy and replica-direct reach nothing but the read-only replica.
        for w in self.workloads:
            if w not in OH_WORKLOADS:
                die(f"--workloads: '{w}' is not one of: {' '.join(OH_WORKLOADS)} (read-only workloads only)")
        self.n_servers = 2
        self.sleep_ms = None


class RwSplit:
    def __init__(self, o):
        self.o = o
        self.installed = common.install_missing(haproxy=o.overhead)
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.db_tools = mariadb.Tools()
        if o.overhead:
            self.haproxy_bin = common.need_bin("haproxy", "haproxy")
            for w in o.workloads:
                if os.path.isdir("/usr/share/sysbench") and not os.path.isfile(f"/usr/share/sysbench/{w}.lua"):
                    die(f"sysbench's {w}.lua is not in /usr/share/sysbench")
        elif not os.path.isfile(LUA_SCRIPT):
            die(f"the workload script {LUA_SCRIPT} is missing")
        if not o.direct_only:
            self.java = common.select_java()
            o.dist = common.locate_dist(o.dist, " (or run --direct-only)")
        for i in range(o.n_servers):
            if common.port_in_use(o.base_port + i):
                die(f"port {o.base_port + i} is in use; pick other ports with --base-port N (uses N..N+3)")
        if not o.direct_only and common.port_in_use(o.strata_port):
            die(f"port {o.strata_port} is in use; pick other ports with --base-port N (uses N..N+3)")
        if o.overhead and common.port_in_use(o.haproxy_port):
            die(f"port {o.haproxy_port} is in use; pick other ports with --base-port N (--overhead uses N, N+1, N+3, "
                f"N+4)")
        self.load, self.busy = common.load_and_busy()
        if o.overhead:
            common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts. The "
                             "--overhead cells are\n         CPU-bound: the QPS will be noisy (queries per proxy "
                             "CPU-second suffers less).\n         Busiest processes (CPU% over their lifetime):")
        else:
            common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts. The cells "
                             "are bounded by\n         SLEEP() and the pool, not by CPU, so they suffer less than "
                             "CPU-bound ones; still, check\n         the cpu_busy column. Busiest processes (CPU% over "
                             "their lifetime):")
        self.sb = Sysbench(self.sysbench_bin, ["--db-driver=mysql", "--mysql-host=127.0.0.1", "--mysql-user=sbtest",
                                               "--mysql-password=sbtest", "--mysql-db=sbtest"])
        self.nodes = []
        self.strata = None
        self.haproxy = None
        self.home = None
        self.cells = []   # (name or key, result, extra)

    # ---- servers and replication ----------------------------------------------------------------------------------

    def port(self, node):
        return self.o.base_port + node

    def start_servers(self, s):
        """Node 0 is the primary (binary log, ROW format, strict GTID); the others read-only replicas (read_only does
        not stop the replication SQL thread, only clients without the privilege to write anyway)."""
        for i in range(self.o.n_servers):
            node = mariadb.Server(self.db_tools, NODE_NAMES[i], s.path(f"node{i}"), self.port(i))
            node.install()
            if i == 0:
                role = [f"--log-bin={node.dir}/data/primary-bin", "--binlog-format=ROW", "--sync-binlog=0"]
            else:   # no binary log: nothing replicates from a replica here
                role = ["--skip-log-bin", f"--relay-log={node.dir}/data/relay-bin", "--read-only=1"]
            say(f"Starting MariaDB {node.name} on 127.0.0.1:{node.port} (server-id {i + 1})")
            # The data set is small and the log is not synced at commit: the subject is the pool, not the disk.
            node.start(s, [f"--server-id={i + 1}", "--gtid-strict-mode=1", *role, "--max-connections=1000",
                           "--innodb-buffer-pool-size=128M", "--innodb-flush-log-at-trx-commit=2"])
            self.nodes.append(node)
        self.create_accounts()
        for r in self.nodes[1:]:
            mariadb.start_replica(r, self.port(0))
        mariadb.wait_caught_up(self.nodes[0], self.nodes[1:], "accounts")

    def create_accounts(self):
        """On the primary only: the replicas replay them from the binary log (they start from an empty
        gtid_slave_pos, i.e. the primary's first binlog event), so all servers hold the same accounts."""
        primary = self.nodes[0]
        primary.sql(primary.drop_anonymous_users(if_exists=True) + """
            CREATE USER 'repl'@'%' IDENTIFIED BY 'repl';
            GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
            CREATE DATABASE sbtest;
            CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
            GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';
            CREATE USER 'monitor'@'%' IDENTIFIED BY 'monitor';""", "could not create the accounts on the primary")
        # Strata's health check reads the replication state (SHOW SLAVE STATUS needs SLAVE MONITOR since MariaDB
        # 10.5.9; REPLICATION CLIENT covers SHOW MASTER STATUS and is what MySQL and older MariaDB need for both).
        # SELECT on sbtest: a check that connects with the data source's URL must be allowed to use that schema.
        if primary.root("GRANT REPLICATION CLIENT, SLAVE MONITOR ON *.* TO 'monitor'@'%'")[0] == 0:
            self.monitor_grant = "REPLICATION CLIENT, SLAVE MONITOR"
        else:
            primary.sql("GRANT REPLICATION CLIENT ON *.* TO 'monitor'@'%'", "could not grant REPLICATION CLIENT to "
                                                                             "monitor")
            self.monitor_grant = "REPLICATION CLIENT"
        primary.sql("GRANT SELECT ON sbtest.* TO 'monitor'@'%'", "could not grant SELECT on sbtest to monitor")
        self.monitor_grant += ", SELECT ON sbtest.*"

    def prepare(self, s):
        """sbtest1 on the primary with sysbench's own prepare; then every server must hold all its rows: proof that
        the replication carries data."""
        o = self.o
        say(f"Loading sbtest1 with {o.table_size} rows on the primary (sysbench oltp_read_write prepare)")
        log = s.path("prepare.log")
        if self.sb.run(["oltp_read_write", f"--mysql-port={self.port(0)}", "--tables=1",
                        f"--table-size={o.table_size}", "prepare"], log, 0, timeout=False) != 0:
            with open(log) as f:
                echo("\n".join(f.read().splitlines()[-20:]))
            die(f"sysbench prepare failed (log: {log})")
        mariadb.wait_caught_up(self.nodes[0], self.nodes[1:], "after loading sbtest1")
        for n in self.nodes:
            count = n.value("SELECT COUNT(*) FROM sbtest.sbtest1")
            if count != str(o.table_size):
                die(f"{n.name} holds {count} rows of sbtest1, expected {o.table_size}")
        echo(f"    sbtest1 has {o.table_size} rows on each of: {' '.join(n.name for n in self.nodes)}")
        for n in self.nodes:
            if not self.db_tools.answers(n.port, "SELECT 1", "monitor", "monitor"):
                die(f"the monitor user cannot log in on {n.name}")
        if len(self.nodes) > 1:   # a replica's SHOW SLAVE STATUS is what a health check reads
            rc, out = self.db_tools.tcp(self.port(1), "SHOW SLAVE STATUS\\G", "monitor", "monitor", args=())
            if "Seconds_Behind_Master" not in out:
                die(f"the monitor user cannot run SHOW SLAVE STATUS on {NODE_NAMES[1]}")
            echo(f"    monitor/monitor ({self.monitor_grant}) can log in everywhere and read SHOW SLAVE STATUS")

    def com_selects(self):
        """Com_select of every server: the SELECTs each one ran, prepared or not, i.e. where the reads went."""
        out = []
        for n in self.nodes:
            v = n.value("SHOW GLOBAL STATUS LIKE 'Com_select'").split()
            out.append(int(v[1]) if len(v) > 1 and v[1].isdigit() else 0)
        return out

    # ---- Strata ---------------------------------------------------------------------------------------------------

    def strata_conf(self, s, name, replicas):
        """The configuration of `name` (strata-<n> for n replicas, or strata-overhead): the same data source block
        for every backend; only the rule differs."""
        o = self.o
        server = ("# Written by bench/rw-split.sh" + (" --overhead." if name == "strata-overhead"
                                                      else " (the shape of conf/server.yaml).")
                  + f"\nserver:\n  host: 127.0.0.1\n  port: {o.strata_port}\n")
        if name == "strata-overhead" and os.environ.get("STRATA_WORKER_THREADS"):
            server += f"  workerThreads: {os.environ['STRATA_WORKER_THREADS']}\n"
        server += USERS_YAML
        if name == "strata-overhead":
            db = (f"# Written by bench/rw-split.sh --overhead: every read to replica_0, pool {o.pool} per data "
                  f"source.\n")
        else:
            db = f"# Written by bench/rw-split.sh: {replicas} replica(s), pool {o.pool} per data source.\n"
        db += "databaseName: sbtest\ndataSources:\n"
        for i in range(replicas + 1):
            db += targets.data_source(NODE_NAMES[i], f"jdbc:mariadb://127.0.0.1:{self.port(i)}/sbtest", o.pool)
        if replicas == 0:   # no replica, no rule: the empty chain sends everything to the one data source
            db += "rules: []\n"
        else:
            overhead = name == "strata-overhead"
            db += ("rules:\n  - type: READWRITE_SPLITTING\n    groups:\n      - name: rw\n"
                   "        writeDataSource: primary\n"
                   f"        readDataSources: [{', '.join(NODE_NAMES[1:replicas + 1])}]\n"
                   "        loadBalancer: ROUND_ROBIN\n"
                   f"        primaryTakesReads: {'false' if overhead else 'true'}\n"
                   + ("        readYourWrites: false\n" if overhead else "") + HEALTH_CHECK)
        return targets.write_conf(self.home, s.path(name, "conf"), server, db)

    def start_strata(self, s, name, replicas):
        """Strata in the foreground mode of start.sh, as this run's child. Returns the note of a failed start (the run
        goes on with the next configuration), or ""."""
        o = self.o
        conf = self.strata_conf(s, name, replicas)
        if name == "strata-overhead":
            say(f"Starting Strata on 127.0.0.1:{o.strata_port} with READWRITE_SPLITTING, reads to replica_0 (pool "
                f"{o.pool}, conf {conf})")
        else:
            say(f"Starting Strata on 127.0.0.1:{o.strata_port} with {replicas} replica(s) (conf {conf})")
        log = s.path(name, "stdout.log")
        try:
            self.strata = targets.start_strata_foreground(s, self.db_tools, "Strata", self.home, conf, o.strata_port,
                                                          log, "SELECT id FROM sbtest1 WHERE id = 1")
            return ""
        except targets.StartFailed as e:
            self.strata = None
            first = next((l for l in e.output.splitlines() if any(w in l for w in ("ERROR", "Exception", "rror:"))),
                         "")
            failure = "Strata did not start: " + (first[:200] or f"Strata did not answer on port {o.strata_port} "
                                                                   f"within 60 s")
            echo(f"    {failure}")
            echo(f"    (log: {log})")
            return failure

    # ---- the scaling cells ----------------------------------------------------------------------------------------

    def run_sleep_cell(self, s, name, port, threads, secs=None, log=None):
        o = self.o
        before = self.com_selects()
        r = self.sb.cell([LUA_SCRIPT, f"--mysql-port={port}", f"--db-ps-mode={o.ps_mode}",
                          f"--table-size={o.table_size}", f"--sleep-ms={o.sleep_ms}", f"--threads={threads}"],
                         log or s.path("cells", f"{name}.log"), secs or o.time, o.ps_mode, None, "")
        after = self.com_selects()
        r.extra["split"] = [b - a for a, b in zip(before, after)]
        return r

    def record(self, name, kind, desc, nodes, threads, r):
        self.cells.append((name, kind, desc, nodes, threads, r))
        echo(f"    {name:<18} qps {r.qps:>9}  p95 {r.p95 or '-':>7} ms  cpu busy {_s(r.busy):>3}%  reads per backend: "
             f"{self.split_text(r)}  {r.status}{': ' + r.note if r.note else ''}")

    def split_text(self, r):
        split = r.extra.get("split", [])
        return report.shares_text(split, NODE_NAMES) if split else "-"

    def run_scaling(self, s):
        o = self.o
        # The direct cells, no Strata, no pool: the primary with the Strata cells' thread count (every thread its own
        # server connection, so the bound is threads / sleep, far above the pooled cells: near it, the server is not
        # what limits them), and each server with exactly --pool threads, what one backend gives behind a full pool.
        say(f"Direct cells (sysbench straight to MariaDB, {o.time} s each)")
        r = self.run_sleep_cell(s, "direct-primary", self.port(0), o.threads)
        self.record("direct-primary", "direct", f"primary direct, {o.threads} connections (no pool)", 1, o.threads, r)
        for n in self.nodes:
            r = self.run_sleep_cell(s, f"ceiling-{n.name}", n.port, o.pool)
            self.record(f"ceiling-{n.name}", "ceiling", f"{n.name} direct, {o.pool} connections (= pool)", 1, o.pool,
                        r)
        if o.direct_only:
            return
        self.home = targets.unpack_strata(o.dist, s.path("strata-dist"))
        for n in o.replicas:
            name = f"strata-{n}"
            desc = "Strata, primary only, rules: []" if n == 0 else f"Strata, primary + {n} replica(s), RW splitting"
            failure = self.start_strata(s, name, n)
            if failure:
                self.record(name, "strata", desc, n + 1, o.threads, CellResult(status="FAILED", note=failure))
                continue
            if o.warmup > 0:
                # Unrecorded: JIT, the pools' connections and (with replicas) a few health checks.
                self.run_sleep_cell(s, f"{name}-warmup", o.strata_port, o.threads, o.warmup)
            r = self.run_sleep_cell(s, name, o.strata_port, o.threads)
            self.record(name, "strata", desc, n + 1, o.threads, r)
            targets.stop(s, self.strata, o.strata_port)
            self.strata = None

    def base_qps(self):
        """The QPS of the 0-replica Strata cell: the base of the scaling ratios."""
        for name, kind, desc, nodes, threads, r in self.cells:
            if name == "strata-0" and r.ok:
                return r.qps
        return ""

    def ideal(self, kind, nodes, threads):
        """Every backend connection busy all the time with SLEEP()."""
        if kind == "strata":
            return self.o.ceiling * nodes
        if kind == "ceiling":
            return self.o.ceiling
        return f"{threads * 1000 / self.o.sleep_ms:.0f}"

    def scaling_rows(self):
        base = self.base_qps()
        for name, kind, desc, nodes, threads, r in self.cells:
            rel = lin = ""
            if kind == "strata" and r.ok:
                rel = report.ratio(r.qps, base, 2)
                lin = report.ratio(r.qps, float(base) * nodes if base else "", 2)
            yield name, kind, desc, nodes, threads, r, rel, lin

    def scaling_report(self, s):
        o = self.o
        csv, txt, failed = common.results_paths(f"rw-split-{common.stamp()}")
        rows = []
        for name, kind, desc, nodes, threads, r, rel, lin in self.scaling_rows():
            split = r.extra.get("split", [])
            split = [str(x) for x in split] + [""] * (3 - len(split))
            rows.append([name, kind, desc, nodes, threads, o.pool, o.sleep_ms, o.ps_mode, r.qps,
                         self.ideal(kind, nodes, threads), r.p95, rel, lin, _s(r.busy, ""), *split[:3], r.status,
                         r.note])
        report.write_csv(csv, "cell,kind,what,backends,threads,pool,sleep_ms,ps_mode,qps,ideal_qps,p95_ms,"
                              "qps_over_0_replicas,linearity,cpu_busy_percent,reads_primary,reads_replica_0,"
                              "reads_replica_1,status,note", rows)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        fmt = "%-18s %-44s %5s %4s %9s %7s %8s %6s %6s %5s  %-40s %s"
        out(fmt % ("cell", "what", "nodes", "thr", "qps", "ideal", "p95_ms", "x_0rep", "linear", "cpu%",
                   "reads per backend (Com_select)", "status"))
        for name, kind, desc, nodes, threads, r, rel, lin in self.scaling_rows():
            out(fmt % (name, desc, nodes, threads, r.qps, self.ideal(kind, nodes, threads), r.p95 or "-", rel or "-",
                       lin or "-", _s(r.busy), self.split_text(r), r.status))
        report.failed_cells(out, [((c[0],), c[5].status, c[5].note) for c in self.cells])
        # The temp folder goes away: keep the sysbench and Strata output of every failed cell, and its configuration.
        for name, kind, desc, nodes, threads, r in self.cells:
            if not r.ok:
                common.copy_logs(failed, [s.path("cells", f"{name}.log")])
                if kind == "strata":
                    common.copy_logs(failed, [s.path(name, "stdout.log")], f"{name}-")
                    common.copy_logs(failed, [s.path(name, "conf", "config-sbtest.yaml")], f"{name}-")
        if os.path.isdir(failed):
            out(f"Logs of the failed cells: {failed}")
        out()
        out("nodes: backends that serve reads (primary + replicas). ideal: nodes x pool / sleep for the")
        out("Strata cells (and pool / sleep for a ceiling cell, threads / sleep for direct-primary): the")
        out("QPS if every backend connection were always busy with SLEEP(). x_0rep: QPS over the 0-replica")
        out("Strata cell's. linear: QPS / (nodes x the 0-replica QPS); 1.00 is perfectly linear. cpu%: how")
        out("busy the machine's CPUs were during the cell; near 100 the cell was CPU-bound after all.")
        out("reads per backend: each server's share of the SELECTs (Com_select) during the cell.")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")

    def machine_info(self, out):
        o = self.o
        for line in report.machine_lines(o.command):
            out(line)
        out(f"MariaDB:   {self.db_tools.version()}")
        out(f"sysbench:  {report.first_line([self.sysbench_bin, '--version'])}")
        if not o.direct_only:
            out(f"Java:      {report.first_line([self.java, '-version'])} ({self.java})")
            # The tarball is rebuilt in place: its time says which build a report measured.
            built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(o.dist)))
            out(f"Strata:    {o.dist} (built {built}, STRATA_JAVA_OPTS="
                f"{targets.java_opts_shown(os.environ.get('STRATA_JAVA_OPTS'))})")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        if o.overhead:
            out(f"HAProxy:   {report.first_line([self.haproxy_bin, '-v'])} (mode tcp, nbthread {os.cpu_count()}, "
                f"server replica_0)")
            out("Rule:      READWRITE_SPLITTING, write primary, read [replica_0], primaryTakesReads false, "
                "readYourWrites")
            out(f"           false, ROUND_ROBIN; maximumPoolSize {o.pool} per data source; workerThreads "
                f"{os.environ.get('STRATA_WORKER_THREADS') or '<default>'}")
            out(f"Workload:  sysbench {' '.join(o.workloads)} (oltp_read_only with --skip_trx=on), 1 table x "
                f"{o.table_size} rows,")
            out(f"           ps modes {' '.join(o.ps_modes)}, threads {' '.join(map(str, o.threads))}; {o.time} s per "
                f"cell, {o.warmup} s warm-up per target and ps mode")
            return
        out(f"Workload:  SELECT c, SLEEP({o.sleep_ms / 1000:.3f}) FROM sbtest1 WHERE id = ? (uniform id in "
            f"1..{o.table_size}),")
        out(f"           --db-ps-mode={o.ps_mode}, {o.time} s per cell, {o.warmup} s warm-up before each Strata cell")
        out(f"Bound:     pool {o.pool} per data source / {o.sleep_ms} ms per read = {o.ceiling} reads/s per backend")

    # ---- --overhead: a replica read through the rule against HAProxy ----------------------------------------------

    def oh_port(self, target):
        return {"replica-direct": self.port(1), "haproxy": self.o.haproxy_port, "strata-rw": self.o.strata_port}[target]

    def oh_pid(self, target):
        return {"replica-direct": self.nodes[1].pid(), "haproxy": self.haproxy.pid,
                "strata-rw": self.strata.pid if self.strata else None}[target]

    def oh_args(self, workload, ps, threads, port):
        """oltp_read_only wraps each event in BEGIN/COMMIT, which makes the session in-transaction, and the rule
        sends transactions to the primary: --skip_trx=on keeps its reads autocommit. No --mysql-ignore-errors: reads
        only, any error fails the cell."""
        skip = ["--skip_trx=on"] if workload == "oltp_read_only" else []
        return [workload, f"--mysql-port={port}", "--tables=1", f"--table-size={self.o.table_size}", *skip,
                f"--db-ps-mode={ps}", f"--threads={threads}"]

    def wait_replica_in_rotation(self):
        """The rule reads only from a replica in rotation, else from the primary. A replica starts in rotation as
        "not checked yet": wait until a health check has found replica_0 in rotation and replicating."""
        line = []
        for _ in range(120):
            rc, out = self.db_tools.tcp(self.o.strata_port, "SHOW STRATA DATA SOURCES", "root", "root",
                                        args=("-N", "-B"))
            line = next((l.split("\t") for l in out.splitlines() if l.split("\t")[0] == "replica_0"), [])
            if rc == 0 and len(line) > 4 and line[3] == "yes" and line[4].startswith("replicating"):
                echo(f"    replica_0 is in Strata's rotation: {line[4]}")
                return
            time.sleep(0.25)
        die(f"replica_0 is not in Strata's rotation, replicating, after 30 s (SHOW STRATA DATA SOURCES: "
            f"{chr(9).join(line) or 'no row'})")

    def run_overhead(self, s):
        o = self.o
        self.home = targets.unpack_strata(o.dist, s.path("strata-dist"))
        self.haproxy = targets.start_haproxy(s, self.haproxy_bin, s.path("haproxy"), "HAProxy", "replica_0",
                                             o.haproxy_port, self.port(1), os.cpu_count(),
                                             "bench/rw-split.sh --overhead (reads only)")
        failure = self.start_strata(s, "strata-overhead", 1)
        if failure:
            die(f"{failure} (log: {s.path('strata-overhead', 'stdout.log')})")
        self.wait_replica_in_rotation()
        if o.warmup > 0:   # JIT, the pools and the buffer pool: an unrecorded oltp_read_only through each target
            for target in OH_TARGETS:
                say(f"Warm-up (not recorded): oltp_read_only --skip_trx=on, 8 threads, {o.warmup} s per ps mode "
                    f"({' '.join(o.ps_modes)}) through {target}")
                for ps in o.ps_modes:
                    rc = self.sb.run([*self.oh_args("oltp_read_only", ps, 8, self.oh_port(target)),
                                      f"--time={o.warmup}", "--report-interval=0", "--percentile=95",
                                      "--verbosity=4", "run"], s.path("cells", f"warmup-{target}-{ps}.log"), o.warmup)
                    if rc != 0:
                        echo(f"    warm-up through {target} ({ps}) failed (exit code {rc}); the cells will show it")
        total = len(o.workloads) * len(o.ps_modes) * len(o.threads) * 3
        say(f"Running {total} cells of {o.time} s (about {total * (o.time + 2) // 60 + 1} min): replica-direct, "
            f"haproxy, strata-rw back to back")
        i = 0
        for w in o.workloads:
            for ps in o.ps_modes:
                for t in o.threads:
                    for target in OH_TARGETS:
                        i += 1
                        before = self.com_selects()
                        r = self.sb.cell(self.oh_args(w, ps, t, self.oh_port(target)),
                                         s.path("cells", f"{w}-{ps}-{t}-{target}.log"), o.time, ps,
                                         self.oh_pid(target), OH_CPU_NAMES[target], db_pid=self.nodes[1].pid())
                        after = self.com_selects()
                        r.extra["split"] = [b - a for a, b in zip(before, after)]
                        r.extra["qpc"] = report.per(r.queries, r.cpu) if r.ok and r.cpu else ""
                        self.cells.append(((w, ps, t, target), r))
                        echo(f"  [{i:2d}/{total}] {w:<17} {ps:<7} {t:>3} thr {target:<14} qps {r.qps:>9}  p95 "
                             f"{r.p95 or '-':>6} ms  cpu {_f2(r.cpu):>6} s  reads: {self.split_text(r)}  "
                             f"{r.status}{': ' + r.note if r.note else ''}")
        # Strata's own view after the matrix: where it routed (reads, writes) and the health.
        self.sources = self.db_tools.tcp(o.strata_port, "SHOW STRATA DATA SOURCES", "root", "root", args=("-t",))[1]

    def oh_ratios(self, key):
        """s/haproxy QPS, s/haproxy queries per CPU-second and s/direct QPS of a strata-rw cell; None otherwise."""
        w, ps, t, target = key
        if target != "strata-rw":
            return None
        cells = dict(self.cells)
        me, h, d = cells[key], cells.get((w, ps, t, "haproxy")), cells.get((w, ps, t, "replica-direct"))
        return (report.ratio(me.qps, h.qps if h else ""), report.ratio(me.extra["qpc"], h.extra["qpc"] if h else ""),
                report.ratio(me.qps, d.qps if d else ""))

    @staticmethod
    def on_replica(r):
        """replica_0's Com_select delta over sysbench's queries: 1.00 when every read ran on replica_0."""
        split = r.extra.get("split", [])
        return report.per(split[1], r.queries, 1, 2) if len(split) > 1 else ""

    def overhead_report(self, s):
        o = self.o
        csv, txt, failed = common.results_paths(f"rw-split-overhead-{common.stamp()}")
        rows = []
        for key, r in self.cells:
            rh, rc, rd = self.oh_ratios(key) or ("", "", "")
            split = r.extra["split"]
            rows.append([*key, r.qps, r.queries, r.p95, _f2(r.cpu, ""), r.extra["qpc"], rh, rc, rd, _s(r.busy, ""),
                         self.on_replica(r), split[0], split[1], OH_CPU_NAMES[key[3]], _f2(r.db_cpu, ""), o.pool,
                         r.status, r.note])
        report.write_csv(csv, "workload,ps_mode,threads,target,qps,queries,p95_ms,proxy_cpu_s,qps_per_proxy_cpu_s,"
                              "strata_over_haproxy_qps,strata_over_haproxy_qps_per_proxy_cpu_s,strata_over_direct_qps,"
                              "cpu_busy_percent,replica_0_selects_per_query,reads_primary,reads_replica_0,cpu_process,"
                              "replica_0_db_cpu_s,pool,status,note", rows)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        fmt = "%-17s %-7s %3s %-14s %9s %7s %15s %8s %7s %9s %8s %4s %5s  %-24s %s"
        out(fmt % ("workload", "ps", "thr", "target", "qps", "p95_ms", "proxy_cpu_s", "q/cpu_s", "s/haprx",
                   "s/h q/cpu", "s/direct", "cpu%", "on_r0", "reads (Com_select)", "status"))
        for key, r in self.cells:
            ratios = self.oh_ratios(key)
            rh, rc, rd = [x or "-" for x in ratios] if ratios else ("", "", "")
            cpu_s = f"{_f2(r.cpu)} (mariadbd)" if key[3] == "replica-direct" and r.cpu is not None else _f2(r.cpu)
            out(fmt % (*key, r.qps, r.p95 or "-", cpu_s, r.extra["qpc"] or "-", rh, rc, rd, _s(r.busy),
                       self.on_replica(r), self.split_text(r), r.status))
        report.failed_cells(out, [(k, r.status, r.note) for k, r in self.cells])
        first = True
        for key, r in self.cells:   # cells where replica_0 did not count (about) every query as a SELECT
            on = self.on_replica(r)
            if r.ok and (not on or float(on) < 0.99):
                if first:
                    out()
                    out("Reads not (all) on replica_0:")
                    first = False
                out(f"  {' '.join(map(str, key))}: replica_0 counted {on or '?'} SELECTs per query; "
                    f"{self.split_text(r)}")
        failed_targets = set()
        for (w, ps, t, target), r in self.cells:
            if not r.ok:
                failed_targets.add(target)
                common.copy_logs(failed, [s.path("cells", f"{w}-{ps}-{t}-{target}.log")])
        if "strata-rw" in failed_targets:
            common.copy_logs(failed, [s.path("strata-overhead", "stdout.log"),
                                      s.path("strata-overhead", "conf", "config-sbtest.yaml")], "strata-")
        if "haproxy" in failed_targets:
            common.copy_logs(failed, [s.path("haproxy", "haproxy.log"), s.path("haproxy", "haproxy.cfg")])
        if os.path.isdir(failed):
            out(f"Logs of the failed cells: {failed}")
        out()
        out("Goal, over the strata-rw cells of this run (a failed cell has no ratio):")
        ratios = [self.oh_ratios(k) for k, r in self.cells if k[3] == "strata-rw"]
        for name, goal, values in (("Strata/HAProxy QPS (s/haprx)", 1.0, [x[0] for x in ratios]),
                                   ("Strata/HAProxy q per CPU-s (s/h q/cpu)", 0.8, [x[1] for x in ratios])):
            ok, n, low, gmean = report.geometric_summary(values, goal)
            if n == 0:
                out(f"  {name:<38} target >= {goal:.1f}: no cell")
            else:
                out(f"  {name:<38} target >= {goal:.1f}: {ok} of {n} cells; min {low:.3f}, geometric mean {gmean:.3f}")
        out()
        out("Strata's counters after the cells (SHOW STRATA DATA SOURCES; reads/writes it routed, warm-up included):")
        out(self.sources or "?")
        out()
        out("replica-direct: sysbench straight to replica_0; haproxy: HAProxy (mode tcp) in front of replica_0;")
        out("strata-rw: Strata with READWRITE_SPLITTING, every read to replica_0. proxy_cpu_s: CPU seconds")
        out("(user+system) of the proxy process during the cell; for replica-direct, of replica_0's mariadbd.")
        out("q/cpu_s: queries per proxy CPU-second. s/haprx: Strata's QPS over HAProxy's (goal >= 1.0);")
        out("s/h q/cpu: Strata's queries per CPU-second over HAProxy's (goal >= 0.8); s/direct: Strata's QPS")
        out("over replica-direct's. cpu%: how busy the machine's CPUs were. on_r0: replica_0's Com_select delta")
        out("over sysbench's queries (1.00: every read ran on replica_0). reads: each server's share of the")
        out("SELECTs (Com_select); Strata's health checks add about one per second on each.")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")

    def keep_lines(self):
        lines = []
        for n in self.nodes:
            if n.proc and n.proc.alive():
                lines.append(f"    {n.name:<9} pid {n.proc.pid:<7} 127.0.0.1:{n.port}  (socket {n.sock})")
        if self.strata and self.strata.alive():
            lines.append(f"    Strata    pid {self.strata.pid} 127.0.0.1:{self.o.strata_port}")
        if self.haproxy and self.haproxy.alive():
            lines.append(f"    HAProxy   pid {self.haproxy.pid} 127.0.0.1:{self.o.haproxy_port}")
        lines.append(f"    connect: {self.db_tools.client} -h127.0.0.1 -P{self.o.base_port} -usbtest -psbtest sbtest")
        return lines


def _s(v, none="-"):
    return none if v is None else str(v)


def _f2(v, none="-"):
    return none if v is None else f"{v:.2f}"


def main(argv):
    bench = RwSplit(Options(argv))
    with common.Session("strata-rw-split", bench.o.keep, bench.keep_lines,
                        keep_on_failure=("node*/data", "strata-dist/lib")) as s:
        bench.start_servers(s)
        bench.prepare(s)
        if bench.o.overhead:
            bench.run_overhead(s)
            bench.overhead_report(s)
        else:
            bench.run_scaling(s)
            bench.scaling_report(s)


if __name__ == "__main__":
    common.main(main)
