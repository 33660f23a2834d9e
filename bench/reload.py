#!/usr/bin/env python3
"""bench/reload.sh: what a live reload of Strata's configuration costs under load, and whether any client notices.

sysbench oltp_read_write (64 threads by default) runs through Strata in front of a MariaDB primary and a GTID replica,
in cells of two kinds, interleaved in rounds with the order rotated each round:

  steady      no reload during the cell;
  reloading   a background thread rewrites config-sbtest.yaml (configuration A, then B, then A...) every
              --reload-every seconds and has Strata reload it, alternately with RELOAD STRATA CONFIG (as the admin
              user root) and with SIGHUP (the distribution's bin/reload.sh).

Each configuration is a real change: the READWRITE_SPLITTING group's weights, a QUERY_ROUTING rule's action (the rule
matches nothing sysbench sends) and a pool setting of replica_0 (maximumPoolSize), so that each reload builds a new
pool for replica_0 and drains the old one; with --configs A,B,C the third also changes the primary's pool, the one
every sysbench transaction uses. The goal (the acceptance criterion of the live reload): zero sysbench errors, and the
QPS of the reloading cells within 10% of the steady cells'. bench/README.md explains the method and the output.
"""
import os
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import common, interleave, mariadb, matrix, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402
from harness.sysbench import parse  # noqa: E402
from rw_split import HEALTH_CHECK, USERS_YAML  # noqa: E402

CELLS = ["steady", "reloading"]
CONFIGS = ["A", "B", "C"]
TRIGGERS = ["both", "statement", "sighup"]
GOAL = 0.90   # reloading QPS / steady QPS
_LOG_LEVEL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ (WARN|ERROR) +\[[^\]]*\] (.*)$")
_APPLIED = re.compile(r"configuration version \d+ applied")
_SIGHUP_APPLIED = re.compile(r"configuration version (\d+) applied \(SIGHUP\): (.*)$")
_SIGHUP_REFUSED = re.compile(r"configuration reload \(SIGHUP\) refused, the running configuration stays: (.*)$")
_SIGHUP_UNCHANGED = re.compile(r"configuration reload \(SIGHUP\): nothing changed")

SPEC = {
    "--rounds": ("value", "rounds"), "--time": ("value", "time"), "--reload-every": ("value", "every"),
    "--threads": ("value", "threads"), "--ps-mode": ("value", "ps"), "--warmup": ("value", "warmup"),
    "--tables": ("value", "tables"), "--table-size": ("value", "table_size"), "--pool": ("value", "pool"),
    "--trigger": ("value", "trigger"), "--configs": ("list", "configs"), "--strata-dist": ("value", "dist"),
    "--base-port": ("value", "base_port"), "--daemon": ("flag", "daemon"), "--keep": ("flag", "keep"),
}


def usage():
    return """Usage: bench/reload.sh [options]

sysbench oltp_read_write through Strata while its configuration is reloaded every few
seconds, against the same load without reloads. Starts its own MariaDB primary and one
GTID replica (ports 13706, 13707) and Strata (13708) from the distribution tarball;
installs sysbench, mariadb-server and mariadb-client with apt-get when they are missing
(the system MariaDB service, if any, is neither used nor touched).

Per round two cells, the order rotated each round: "steady" (no reload) and "reloading"
(config-sbtest.yaml rewritten A <-> B and reloaded every --reload-every seconds, the
trigger alternating between RELOAD STRATA CONFIG and SIGHUP via bin/reload.sh). Goal:
zero sysbench errors and reloading QPS within 10% of steady QPS (mean over the rounds).

Options:
  --rounds N           rounds of the two cells (default 3)
  --time SECONDS       measured seconds per cell (default 60)
  --reload-every SECONDS
                       seconds between two reloads in a reloading cell (default 3)
  --threads N          sysbench threads (client connections) (default 64)
  --ps-mode MODE       sysbench --db-ps-mode: auto (prepared statements) or disable
                       (text protocol) (default auto)
  --warmup SECONDS     unrecorded run (with reloads) before the cells, so that the JIT,
                       the pools and the buffer pool are warm (default 30; 0 = none)
  --tables N           sbtest tables (default 4)
  --table-size N       rows per table (default 10000)
  --pool N             maximumPoolSize of both data sources in configuration A (B gives
                       replica_0 N-1, C the primary N-1) (default 64)
  --trigger T          both (alternate, the default), statement (RELOAD STRATA CONFIG
                       only) or sighup (bin/reload.sh only)
  --configs LIST       the configurations the reloads cycle through, of A B C (default
                       "A,B"; "A,B,C" also rebuilds the primary's pool, which every
                       sysbench transaction uses, at two reloads out of three)
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --base-port N        primary on N, replica on N+1, Strata on N+2 (default 13706)
  --daemon             start Strata with bin/start.sh's background mode (nohup) instead of
                       its foreground mode (-f, as this run's child, its pid written to
                       logs/strata.pid for bin/reload.sh). Under nohup the JVM starts with
                       SIGHUP ignored and keeps ignoring it: bin/reload.sh then does nothing
  --keep               leave the servers running at the end and keep the temp folder;
                       prints how to stop them
  -h, --help           this help

Environment:
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java 21,
                       the newest JDK >= 21 under /usr/lib/jvm is used

Output: a table on the terminal, and bench/results/reload-<timestamp>.csv and .txt."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        self.rounds = common.whole(a.get("rounds", 3))
        self.time = common.whole(a.get("time", 60))
        self.every = common.whole(a.get("every", 3))
        self.threads = common.whole(a.get("threads", 64))
        self.ps_mode = a.get("ps", "auto")
        self.warmup = common.whole(a.get("warmup", 30))
        self.tables = common.whole(a.get("tables", 4))
        self.table_size = common.whole(a.get("table_size", 10000))
        self.pool = common.whole(a.get("pool", 64))
        self.trigger = a.get("trigger", "both")
        self.configs = [c.upper() for c in a.get("configs", ["A", "B"])]
        self.dist = a.get("dist", "")
        self.base_port = common.whole(a.get("base_port", 13706))
        self.keep = a.has("keep")
        self.daemon = a.has("daemon")
        if min(self.rounds, self.time, self.every, self.threads, self.tables, self.table_size) < 1:
            die("--rounds, --time, --reload-every, --threads, --tables and --table-size must be at least 1")
        if self.pool < 2:
            die("--pool must be at least 2 (configuration B gives replica_0 one connection less)")
        if self.every >= self.time:
            die("--reload-every must be shorter than --time, or a reloading cell holds no reload")
        if self.ps_mode not in ("auto", "disable"):
            die("--ps-mode must be auto or disable")
        if self.trigger not in TRIGGERS:
            die(f"--trigger must be one of: {' '.join(TRIGGERS)}")
        if len(self.configs) < 2 or len(set(self.configs)) != len(self.configs) or \
                any(c not in CONFIGS for c in self.configs) or self.configs[0] != "A":
            die("--configs: two or three different ones of A B C, starting with A (e.g. A,B or A,B,C)")
        if not 1024 <= self.base_port <= 65533:
            die("--base-port must be in 1024..65533")
        self.ports = {"primary": self.base_port, "replica_0": self.base_port + 1, "strata": self.base_port + 2}
        # The buffer pool holds the data set (about 250 bytes a row with its index entries; 4x that), at least 256 MB.
        need_mb = self.tables * self.table_size * 1000 // 1048576 + 1
        self.buffer_pool = f"{max(need_mb, 256)}M"


def config_yaml(name, pool, primary_port, replica_port):
    """config-sbtest.yaml of configuration A, B or C. Each differs from A in what the reload loop must really apply:
    B the group's weights, the query rule's action and replica_0's pool; C the primary's pool."""
    weights = "{ primary: 1, replica_0: 3 }" if name == "B" else "{ primary: 1, replica_0: 1 }"
    action = "replica_0" if name == "B" else "primary"
    primary_pool = pool - 1 if name == "C" else pool
    replica_pool = pool - 1 if name == "B" else pool
    return (f"# Written by bench/reload.sh: configuration {name} of the reload loop.\n"
            "databaseName: sbtest\ndataSources:\n"
            + targets.data_source("primary", f"jdbc:mariadb://127.0.0.1:{primary_port}/sbtest", primary_pool)
            + targets.data_source("replica_0", f"jdbc:mariadb://127.0.0.1:{replica_port}/sbtest", replica_pool)
            + "rules:\n"
            "  - type: QUERY_ROUTING\n"
            "    rules:\n"
            "      # Matches nothing sysbench sends: the reload swaps it, the statements never meet it.\n"
            f"      - {{ name: never-matches, pattern: \"(?i)^select nothing_matches\", dataSource: {action} }}\n"
            "  - type: READWRITE_SPLITTING\n"
            "    groups:\n"
            "      - name: rw\n"
            "        writeDataSource: primary\n"
            "        readDataSources: [replica_0]\n"
            "        loadBalancer: WEIGHT\n"
            f"        weights: {weights}\n"
            "        primaryTakesReads: true\n"
            + HEALTH_CHECK)


class Reload:
    """One reload: its trigger, outcome (applied, refused or unknown), the version then running, how long from the
    trigger to the answer, and what Strata said (the changes, or why it refused)."""

    def __init__(self, trigger, config, outcome, version, ms, detail):
        self.trigger, self.config, self.outcome, self.version, self.ms, self.detail = (trigger, config, outcome,
                                                                                       version, ms, detail)


class ReloadLoop(threading.Thread):
    """Every `every` seconds from its start: the next configuration written, then a reload, until stopped."""

    def __init__(self, bench, every):
        super().__init__(name="reload-loop", daemon=True)
        self.bench, self.every = bench, every
        self.stop_event = threading.Event()
        self.reloads = []

    def run(self):
        due = time.monotonic() + self.every
        while not self.stop_event.wait(max(0.0, due - time.monotonic())):
            try:
                self.reloads.append(self.bench.reload_next())
            except Exception as e:   # noqa: BLE001 - a broken loop must show in the report, not kill the run
                self.reloads.append(Reload("?", "?", "unknown", None, 0, f"{type(e).__name__}: {e}"))
            due += self.every
            if due < time.monotonic():   # a reload slower than the period: the next one at the next full period
                due = time.monotonic() + self.every

    def finish(self):
        self.stop_event.set()
        self.join(timeout=60)
        return self.reloads


class ReloadBench:
    def __init__(self, o):
        self.o = o
        self.installed = common.install_missing()
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.db_tools = mariadb.Tools()
        self.java = common.select_java()
        o.dist = common.locate_dist(o.dist)
        for name, port in o.ports.items():
            if common.port_in_use(port):
                die(f"port {port} ({name}) is in use; pick other ports with --base-port N (uses N..N+2)")
        self.load, self.busy = common.load_and_busy()
        common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts; the QPS will be "
                         "noisy and the\n         ratio less telling. Busiest processes (CPU% over their lifetime):")
        self.sb = matrix.sysbench_for(self.sysbench_bin, o.tables, o.table_size)
        self.nodes = []
        self.strata = None
        self.home = None
        self.conf = None
        self.running = "A"        # the configuration in the conf folder, applied or not
        self.reload_no = 0        # reloads the loops triggered, for the alternating trigger
        self.lock = threading.Lock()
        self.monitor_grant = ""
        self.checked = []         # the changes each configuration's first reload reported
        self.hup_ignored = False

    # ---- servers, data, Strata ------------------------------------------------------------------------------------

    def start_servers(self, s):
        """The primary (binary log, ROW, strict GTID) and one read-only replica, as bench/rw-split.sh starts them."""
        o = self.o
        for i, name in enumerate(("primary", "replica_0")):
            node = mariadb.Server(self.db_tools, name, s.path(f"node{i}"), o.ports[name])
            node.install()
            if i == 0:
                role = [f"--log-bin={node.dir}/data/primary-bin", "--binlog-format=ROW", "--sync-binlog=0"]
            else:
                role = ["--skip-log-bin", f"--relay-log={node.dir}/data/relay-bin", "--read-only=1"]
            say(f"Starting MariaDB {name} on 127.0.0.1:{node.port} (server-id {i + 1}, buffer pool {o.buffer_pool})")
            node.start(s, [f"--server-id={i + 1}", "--gtid-strict-mode=1", *role, "--max-connections=1000",
                           f"--innodb-buffer-pool-size={o.buffer_pool}", "--innodb-log-file-size=256M",
                           "--innodb-flush-log-at-trx-commit=2"])
            self.nodes.append(node)
        primary = self.nodes[0]
        primary.sql(primary.drop_anonymous_users(if_exists=True) + """
            CREATE USER 'repl'@'%' IDENTIFIED BY 'repl';
            GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
            CREATE DATABASE sbtest;
            CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
            GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';
            CREATE USER 'monitor'@'%' IDENTIFIED BY 'monitor';""", "could not create the accounts on the primary")
        # The health check of the rw group reads SHOW SLAVE STATUS: SLAVE MONITOR since MariaDB 10.5.9.
        if primary.root("GRANT REPLICATION CLIENT, SLAVE MONITOR ON *.* TO 'monitor'@'%'")[0] == 0:
            self.monitor_grant = "REPLICATION CLIENT, SLAVE MONITOR"
        else:
            primary.sql("GRANT REPLICATION CLIENT ON *.* TO 'monitor'@'%'", "could not grant REPLICATION CLIENT")
            self.monitor_grant = "REPLICATION CLIENT"
        primary.sql("GRANT SELECT ON sbtest.* TO 'monitor'@'%'", "could not grant SELECT on sbtest to monitor")
        mariadb.start_replica(self.nodes[1], o.ports["primary"])
        mariadb.wait_caught_up(primary, self.nodes[1:], "accounts")

    def prepare(self, s):
        o = self.o
        say(f"Loading the data set on the primary: {o.tables} tables x {o.table_size} rows (sysbench prepare)")
        matrix.prepare(self.sb, s, o.ports["primary"], o.tables)
        mariadb.wait_caught_up(self.nodes[0], self.nodes[1:], "after sysbench prepare")
        for n in self.nodes:
            count = n.value(f"SELECT COUNT(*) FROM sbtest.sbtest{o.tables}")
            if count != str(o.table_size):
                die(f"{n.name} holds {count} rows of sbtest{o.tables}, expected {o.table_size}")
        rc, out = self.db_tools.tcp(o.ports["replica_0"], "SHOW SLAVE STATUS\\G", "monitor", "monitor", args=())
        if "Seconds_Behind_Master" not in out:
            die("the monitor user cannot run SHOW SLAVE STATUS on replica_0")
        echo(f"    both servers hold the data set; monitor/monitor ({self.monitor_grant}) reads SHOW SLAVE STATUS")

    def start_strata(self, s):
        """By default bin/start.sh -f, as this run's child, with its pid written to logs/strata.pid for bin/reload.sh:
        start.sh's background mode starts the JVM under nohup, which ignores SIGHUP, and a JVM that starts with SIGHUP
        ignored keeps ignoring it (HotSpot does not install a handler for a signal ignored at its start), so
        bin/reload.sh would do nothing. --daemon starts it that way all the same."""
        o = self.o
        server = (f"# Written by bench/reload.sh.\nserver:\n  host: 127.0.0.1\n  port: {o.ports['strata']}\n"
                  + USERS_YAML)
        java_opts = os.environ.get("STRATA_JAVA_OPTS", "")
        if o.daemon:
            try:
                self.strata, self.home = targets.start_strata(
                    s, self.db_tools, "Strata", o.dist, "strata", o.ports["strata"], o.pool, server, self.yaml("A"),
                    java_opts)
            except targets.StartFailed as e:
                echo("\n".join(e.output.strip().splitlines()[-30:]))
                die(f"Strata did not start or does not answer on port {o.ports['strata']} (log: {e.home}/logs/)")
            self.conf = s.path("strata-conf")
        else:
            self.home = targets.unpack_strata(o.dist, s.path("strata-dist"))
            self.conf = targets.write_conf(self.home, s.path("strata-conf"), server, self.yaml("A"))
            say(f"Starting Strata on 127.0.0.1:{o.ports['strata']} in the foreground mode of bin/start.sh (pool "
                f"{o.pool}, STRATA_JAVA_OPTS={targets.java_opts_shown(java_opts)})")
            log = s.path("strata-stdout.log")
            try:
                self.strata = targets.start_strata_foreground(s, self.db_tools, "Strata", self.home, self.conf,
                                                              o.ports["strata"], log, "SELECT 1")
            except targets.StartFailed as e:
                echo("\n".join(e.output.strip().splitlines()[-30:]))
                die(f"Strata did not start or does not answer on port {o.ports['strata']} (log: {log})")
            with open(os.path.join(self.home, "logs", "strata.pid"), "w") as f:
                f.write(f"{self.strata.pid}\n")
        self.hup_ignored = hup_ignored(self.strata.pid)
        if self.hup_ignored and o.trigger != "statement":
            echo(f"    WARNING: Strata's JVM (pid {self.strata.pid}) ignores SIGHUP (SigIgn in /proc/{self.strata.pid}/"
                 f"status): bin/reload.sh")
            echo("             will not reload it; its reloads will show as without an outcome")
        self.wait_replica_in_rotation()

    def yaml(self, name):
        o = self.o
        return config_yaml(name, o.pool, o.ports["primary"], o.ports["replica_0"])

    def strata_log(self):
        return os.path.join(self.home, "logs", "strata.log")

    def wait_replica_in_rotation(self):
        """A replica is read from only once a health check found it replicating: wait for it, as bench/rw-split.sh
        does, so that the first cell runs on the whole configuration."""
        line = []
        for _ in range(120):
            rc, out = self.db_tools.tcp(self.o.ports["strata"], "SHOW STRATA DATA SOURCES", "root", "root",
                                        args=("-N", "-B"))
            line = next((l.split("\t") for l in out.splitlines() if l.split("\t")[0] == "replica_0"), [])
            if rc == 0 and len(line) > 4 and line[3] == "yes" and line[4].startswith("replicating"):
                echo(f"    replica_0 is in Strata's rotation: {line[4]}")
                return
            time.sleep(0.25)
        die(f"replica_0 is not in Strata's rotation after 30 s (SHOW STRATA DATA SOURCES: "
            f"{chr(9).join(line) or 'no row'})")

    # ---- reloading ------------------------------------------------------------------------------------------------

    def config_status(self):
        """SHOW STRATA CONFIG as {item: value}; {} when it does not answer."""
        rc, out = self.db_tools.tcp(self.o.ports["strata"], "SHOW STRATA CONFIG", "root", "root", args=("-N", "-B"))
        if rc != 0:
            return {}
        # The client's output comes stripped: the last row's empty value (draining_pools) loses its tab.
        return {k: v for k, _, v in (l.partition("\t") for l in out.splitlines() if l.strip())}

    def write_config(self, name):
        """Replaced whole (written beside, then renamed): a reload never reads half a file."""
        tmp = os.path.join(os.path.dirname(self.conf), "config-sbtest.yaml.next")
        with open(tmp, "w") as f:
            f.write(self.yaml(name))
        os.replace(tmp, os.path.join(self.conf, "config-sbtest.yaml"))
        self.running = name

    def reload_by_statement(self, name):
        """RELOAD STRATA CONFIG as root: one row per change (version, change, applied), or an error when refused."""
        t0 = time.monotonic()
        rc, out = self.db_tools.tcp(self.o.ports["strata"], "RELOAD STRATA CONFIG", "root", "root", args=("-N", "-B"))
        ms = (time.monotonic() - t0) * 1000
        rows = [l.split("\t") for l in out.splitlines() if "\t" in l]
        if rc != 0 or not rows or not rows[0][0].isdigit():
            return Reload("statement", name, "refused", None, ms, out.replace("\n", " ")[:300])
        return Reload("statement", name, "applied", int(rows[0][0]), ms,
                      "; ".join(f"{r[1]} ({r[2]})" if len(r) > 2 else r[1] for r in rows))

    def reload_by_sighup(self, name):
        """bin/reload.sh (HUP to the pid in logs/strata.pid); the outcome from Strata's log, the line its reload writes
        (reading a file: polling SHOW STRATA CONFIG would start a client process every few milliseconds on a machine
        the cells keep busy), within 15 s."""
        offset = common.file_size(self.strata_log())
        t0 = time.monotonic()
        r = subprocess.run([os.path.join(self.home, "bin", "reload.sh")], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            return Reload("sighup", name, "unknown", None, 0, (r.stdout + r.stderr).strip()[:300])
        while time.monotonic() - t0 < 15:
            for line in common.read_from(self.strata_log(), offset).splitlines():
                m = _SIGHUP_APPLIED.search(line)
                if m:
                    return Reload("sighup", name, "applied", int(m.group(1)), (time.monotonic() - t0) * 1000,
                                  m.group(2))
                m = _SIGHUP_REFUSED.search(line)
                if m:
                    return Reload("sighup", name, "refused", None, (time.monotonic() - t0) * 1000, m.group(1))
                if _SIGHUP_UNCHANGED.search(line):
                    return Reload("sighup", name, "unknown", None, (time.monotonic() - t0) * 1000,
                                  "Strata found nothing changed")
            time.sleep(0.02)
        return Reload("sighup", name, "unknown", None, 15000, "no reload line in logs/strata.log within 15 s of the "
                                                              "HUP")

    def reload_next(self, trigger=None):
        """The next configuration of the cycle written and reloaded, by the trigger given or the alternating one."""
        with self.lock:
            o = self.o
            name = o.configs[(o.configs.index(self.running) + 1) % len(o.configs)]
            if trigger is None:
                trigger = o.trigger
                if trigger == "both":
                    trigger = "statement" if self.reload_no % 2 == 0 else "sighup"
                self.reload_no += 1
            self.write_config(name)
            return self.reload_by_statement(name) if trigger == "statement" else self.reload_by_sighup(name)

    def reset_to_a(self):
        """After a reloading cell: configuration A again (by statement, outside any cell), so that every cell starts
        from the same configuration."""
        if self.running != "A":
            with self.lock:
                self.write_config("A")
                r = self.reload_by_statement("A")
            if r.outcome != "applied":
                die(f"the reload back to configuration A was refused: {r.detail}")

    def settle(self, limit=60):
        """Waits until no old pool drains (SHOW STRATA CONFIG's draining_pools), so that no cell starts with the
        previous one's drain; returns what still drained after `limit` seconds ("" when nothing)."""
        left = ""
        for _ in range(limit * 4):
            left = self.config_status().get("draining_pools", "?")
            if not left:
                return ""
            time.sleep(0.25)
        return left

    def check_configs(self):
        """Every configuration of the cycle is loaded once before the warm-up (each by statement, and the cycle back to
        A by SIGHUP when that trigger is used): a configuration Strata refuses stops the run here."""
        say(f"Checking that Strata applies each configuration of the cycle ({' -> '.join(self.o.configs)} -> A)")
        for _ in self.o.configs:
            last = self.running == self.o.configs[-1]
            trigger = "sighup" if last and self.o.trigger != "statement" else "statement"
            r = self.reload_next(trigger)
            if r.outcome != "applied":
                die(f"Strata did not apply configuration {r.config} ({r.trigger}): {r.outcome}: {r.detail}")
            echo(f"    {r.config} applied by {r.trigger} in {r.ms:.0f} ms, version {r.version}: {r.detail}")
            self.checked.append(r)
        left = self.settle()
        if left:
            echo(f"    still draining after 60 s: {left}")

    # ---- cells ----------------------------------------------------------------------------------------------------

    def sysbench_args(self):
        o = self.o
        return ["oltp_read_write", f"--mysql-port={o.ports['strata']}", f"--db-ps-mode={o.ps_mode}",
                f"--threads={o.threads}"]

    def warm_up(self, s):
        o = self.o
        if o.warmup <= 0:
            return
        say(f"Warm-up (not recorded): oltp_read_write, {o.threads} threads, {o.warmup} s, reloading every {o.every} s")
        loop = ReloadLoop(self, o.every)
        loop.start()
        log = s.path("cells", "warmup.log")
        try:
            rc = self.sb.run([*self.sysbench_args(), f"--time={o.warmup}", "--report-interval=0", "--verbosity=4",
                              "run"], log, o.warmup)
        finally:
            reloads = loop.finish()
        out = common.read_text(log)
        p = parse(out)
        applied = sum(1 for r in reloads if r.outcome == "applied")
        echo(f"    warm-up: exit code {rc}, qps {p.qps or '-'}, errors {p.errors}, reloads {applied} applied of "
             f"{len(reloads)}")
        if rc != 0:
            echo("    its log ends:")
            for line in [l for l in out.splitlines() if l][-5:]:
                echo("      " + line)
        self.reset_to_a()

    def primary_status(self, name):
        v = self.nodes[0].value(f"SHOW GLOBAL STATUS LIKE '{name}'").split()
        return int(v[1]) if len(v) > 1 and v[1].isdigit() else 0

    def threads_connected(self):
        out = []
        for n in self.nodes:
            v = n.value("SHOW GLOBAL STATUS LIKE 'Threads_connected'").split()
            out.append(int(v[1]) if len(v) > 1 and v[1].isdigit() else -1)
        return out

    def run_cell(self, s, kind, rnd):
        o = self.o
        left = self.settle()
        log_from = common.file_size(self.strata_log())
        before = self.config_status()
        deadlocks = self.primary_status("Innodb_deadlocks")
        loop = ReloadLoop(self, o.every) if kind == "reloading" else None
        if loop:
            loop.start()
        log = s.path("cells", f"{kind}-r{rnd}.log")
        try:
            r = self.sb.cell(self.sysbench_args(), log, o.time, o.ps_mode, self.strata.pid, "Strata",
                             db_pid=self.nodes[0].pid())
        finally:
            reloads = loop.finish() if loop else []
        after = self.config_status()
        out = parse(common.read_text(log))
        r.extra.update(
            reloads=reloads, version_before=before.get("version", "?"), version_after=after.get("version", "?"),
            ignored=out.ignored_errors, reconnects=out.reconnects,
            deadlocks=self.primary_status("Innodb_deadlocks") - deadlocks,
            connected=self.threads_connected(), draining_before=left, draining_after=after.get("draining_pools", "?"),
            log=scan_log(self.strata_log(), log_from))
        if kind == "reloading":
            self.reset_to_a()
        return r

    def run(self, s):
        o = self.o
        progress = interleave.Progress(o.rounds * len(CELLS))
        say(f"Running {o.rounds} rounds of {' and '.join(CELLS)} cells, {o.time} s each (about "
            f"{(o.rounds * len(CELLS) * (o.time + 5)) // 60 + 1} min)")

        def show(kind, rnd, r):
            x = r.extra
            a, f, u = outcome_counts(x["reloads"])
            reload_text = f"reloads {a} applied {f} refused" + (f" {u} unknown" if u else "")
            echo(f"  {progress.next()} r{rnd} {kind:<9} qps {r.qps:>9}  p95 {r.p95 or '-':>7} ms  errors {r.errors:>3} "
                 f"(ignored {x['ignored']}, reconnects {x['reconnects']})  {reload_text}  strata log "
                 f"{x['log']['warn']} WARN {x['log']['error']} ERROR  {r.status}{': ' + r.note if r.note else ''}")

        self.summaries = interleave.run_rounds(CELLS, o.rounds, lambda kind, rnd: self.run_cell(s, kind, rnd), show)
        self.final_status = self.config_status()
        self.final_draining = self.settle()
        self.final_connected = self.threads_connected()

    # ---- report ---------------------------------------------------------------------------------------------------

    def rows(self):
        """(round, kind, CellResult) in the order they ran."""
        out = []
        for rnd in range(1, self.o.rounds + 1):
            for kind in interleave.rotated(CELLS, rnd - 1):
                out.append((rnd, kind, self.summaries[kind].rounds[rnd - 1]))
        return out

    def ratios(self):
        st, rl = self.summaries["steady"].rounds, self.summaries["reloading"].rounds
        return [report.ratio(b.qps, a.qps) if a.ok and b.ok else "" for a, b in zip(st, rl)]

    def verdict(self):
        """What the goal asks: zero sysbench errors, and the mean over the rounds of reloading/steady QPS >= GOAL; and
        every reloading cell having applied reloads, none refused (a run whose reloads did not happen proves
        nothing). Returns a dict: passed, reasons, and the same apart from InnoDB deadlocks (`passed_but_deadlocks`:
        True when the only errors are deadlocks the primary counted, i.e. the workload's own lock conflicts, which
        sysbench reports as ignored errors 1213 through any proxy or none)."""
        rows = self.rows()
        v = {"errors": sum(r.errors for _, _, r in rows),
             "reconnects": sum(r.extra["reconnects"] for _, _, r in rows),
             "deadlocks": sum(r.extra["deadlocks"] for _, _, r in rows),
             # ignored errors the primary's deadlock counter does not account for, cell by cell
             "unexplained": sum(max(0, r.extra["ignored"] - r.extra["deadlocks"]) for _, _, r in rows),
             "failed": [f"r{rnd} {kind}: {r.note}" for rnd, kind, r in rows if not r.ok],
             "ratios": [float(x) for x in self.ratios() if x]}
        v["mean"] = statistics.mean(v["ratios"]) if len(v["ratios"]) == self.o.rounds else None
        reloads = [x for _, kind, r in rows if kind == "reloading" for x in r.extra["reloads"]]
        v["applied"], v["refused"], v["unknown"] = outcome_counts(reloads)
        other = []
        if v["failed"]:
            other.append(f"{len(v['failed'])} cell(s) failed")
        if v["mean"] is None:
            other.append("no QPS ratio for every round")
        elif v["mean"] < GOAL:
            other.append(f"reloading/steady QPS {v['mean']:.3f} < {GOAL:.2f}")
        if v["refused"] or v["unknown"]:
            other.append(f"{v['refused']} reload(s) refused, {v['unknown']} without an outcome")
        if any(outcome_counts(r.extra["reloads"])[0] == 0 for _, kind, r in rows if kind == "reloading"):
            other.append("a reloading cell applied no reload")
        errors = []
        if v["errors"]:
            by_kind = {k: sum(r.errors for _, kind, r in rows if kind == k) for k in CELLS}
            errors.append(f"{v['errors']} sysbench error(s) (steady {by_kind['steady']}, reloading "
                          f"{by_kind['reloading']}; {v['reconnects']} reconnects, {v['deadlocks']} InnoDB deadlocks "
                          f"counted by the primary)")
        v["reasons"] = errors + other
        v["passed"] = not v["reasons"]
        v["passed_but_deadlocks"] = (not other and v["errors"] > 0 and v["reconnects"] == 0
                                     and v["unexplained"] == 0)
        return v

    def report(self, s):
        o = self.o
        name = f"reload-{common.stamp()}"
        csv, txt, failed_dir = common.results_paths(name)
        rows = self.rows()
        ratios = self.ratios()
        csv_rows = []
        for rnd, kind, r in rows:
            x = r.extra
            a, f, u = outcome_counts(x["reloads"])
            ms = [rl.ms for rl in x["reloads"] if rl.outcome == "applied"]
            by = trigger_counts(x["reloads"])
            csv_rows.append([rnd, kind, o.threads, o.ps_mode, o.time, r.qps, r.queries, r.p95, r.errors, x["ignored"],
                             x["reconnects"], x["deadlocks"], a, f, u, by["statement"], by["sighup"],
                             _ms(statistics.median(ms)) if ms else "", _ms(max(ms)) if ms else "",
                             x["version_before"], x["version_after"], report.fixed(r.cpu, 2),
                             report.fixed(r.jit, 2), report.fixed(r.db_cpu, 2), "" if r.busy is None else r.busy,
                             x["log"]["warn"], x["log"]["error"], x["log"]["applied"], x["connected"][0],
                             x["connected"][1], x["draining_after"],
                             ratios[rnd - 1] if kind == "reloading" else "", r.status, r.note])
        report.write_csv(csv, "round,cell,threads,ps_mode,seconds,qps,queries,p95_ms,errors,ignored_errors,reconnects,"
                              "primary_innodb_deadlocks,reloads_applied,reloads_refused,reloads_unknown,"
                              "reloads_by_statement,reloads_by_sighup,reload_ms_median,reload_ms_max,version_before,"
                              "version_after,strata_cpu_s,strata_jit_cpu_s,primary_cpu_s,cpu_busy_percent,"
                              "strata_log_warn,strata_log_error,strata_log_versions_applied,"
                              "primary_threads_connected,replica_threads_connected,draining_pools_after,"
                              "reloading_over_steady_qps,status,note", csv_rows)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        fmt = "%5s %-9s %9s %7s %6s %10s %8s %8s %6s %6s %8s %6s %7s %7s  %s"
        out(fmt % ("round", "cell", "qps", "p95_ms", "errors", "ign/dl/rec", "reloads", "stmt/hup", "ms_med",
                   "ms_max", "version", "cpu_s", "log w/e", "conns", "status"))
        for rnd, kind, r in rows:
            x = r.extra
            a, f, u = outcome_counts(x["reloads"])
            ms = [rl.ms for rl in x["reloads"] if rl.outcome == "applied"]
            by = trigger_counts(x["reloads"])
            reloads = f"{a}/{f}" + (f"/{u}?" if u else "") if kind == "reloading" else "-"
            out(fmt % (rnd, kind, r.qps, r.p95 or "-", r.errors, f"{x['ignored']}/{x['deadlocks']}/{x['reconnects']}", reloads,
                       f"{by['statement']}/{by['sighup']}" if kind == "reloading" else "-",
                       _ms(statistics.median(ms)) if ms else "-", _ms(max(ms)) if ms else "-",
                       f"{x['version_before']}->{x['version_after']}", report.fixed(r.cpu, 1) or "-",
                       f"{x['log']['warn']}/{x['log']['error']}", f"{x['connected'][0]}/{x['connected'][1]}",
                       r.status + (": " + r.note if r.note else "")))
        out()
        out("Reloading over steady QPS, per round (the two cells of a round ran back to back):")
        for rnd in range(1, o.rounds + 1):
            st = self.summaries["steady"].rounds[rnd - 1]
            rl = self.summaries["reloading"].rounds[rnd - 1]
            out(f"  round {rnd}: steady {st.qps:>9} qps, reloading {rl.qps:>9} qps: {ratios[rnd - 1] or '-'}")
        v = self.verdict()
        got, mean, applied, refused, unknown = v["ratios"], v["mean"], v["applied"], v["refused"], v["unknown"]
        sm = self.summaries
        out(f"  mean over the rounds: steady {sm['steady'].qps} qps ({sm['steady'].qps_min}-{sm['steady'].qps_max}), "
            f"reloading {sm['reloading'].qps} qps ({sm['reloading'].qps_min}-{sm['reloading'].qps_max}); p95 "
            f"(median) steady {sm['steady'].p95 or '-'} ms, reloading {sm['reloading'].p95 or '-'} ms")
        if got:
            out(f"  ratio: mean {mean:.3f}" if mean is not None else "  ratio: mean -")
            out(f"         spread {min(got):.3f}-{max(got):.3f} over {len(got)} round(s); goal >= {GOAL:.2f}")
        all_reloads = [rl for _, kind, r in rows if kind == "reloading" for rl in r.extra["reloads"]]
        ms = [rl.ms for rl in all_reloads if rl.outcome == "applied"]
        by = trigger_counts([rl for rl in all_reloads if rl.outcome == "applied"])
        out()
        out(f"Reloads during the reloading cells: {applied} applied ({by['statement']} by RELOAD STRATA CONFIG, "
            f"{by['sighup']} by SIGHUP), {refused} refused, {unknown} without an outcome; trigger to answer "
            + (f"median {_ms(statistics.median(ms))} ms, max {_ms(max(ms))} ms" if ms else "-"))
        slow = sorted(((rl.ms, rnd, rl) for rnd, kind, r in rows if kind == "reloading" for rl in r.extra["reloads"]
                       if rl.outcome == "applied"), key=lambda x: -x[0])[:3]
        if slow:
            out("  slowest: " + ", ".join(f"{_ms(ms)} ms (r{rnd}, {rl.trigger}, -> {rl.config})" for ms, rnd, rl in slow))
        odd = [rl for rl in all_reloads if rl.outcome != "applied"]
        for rl in odd[:5]:
            out(f"  {rl.outcome} ({rl.trigger}, configuration {rl.config}): {rl.detail}")
        if self.checked:
            out("What each configuration's first reload changed (RELOAD STRATA CONFIG's rows, before the warm-up):")
            for rl in self.checked:
                out(f"  -> {rl.config} ({rl.trigger}): {rl.detail}")
        out(f"After the cells: version {self.final_status.get('version', '?')}; draining pools "
            f"{self.final_draining or 'none'}; backend connections (Threads_connected) primary "
            f"{self.final_connected[0]}, replica_0 {self.final_connected[1]}")
        out(f"Errors: {v['errors']} (sysbench's ignored errors + reconnects over all cells: {v['reconnects']} "
            f"reconnects); {v['deadlocks']} InnoDB deadlocks counted by the primary (Innodb_deadlocks); failed cells "
            f"{len(v['failed'])}")
        for line in v["failed"]:
            out(f"  {line}")
        warn = sum(r.extra["log"]["warn"] for _, _, r in rows)
        err = sum(r.extra["log"]["error"] for _, _, r in rows)
        out(f"Strata's log (logs/strata.log) during the cells: {warn} WARN, {err} ERROR lines")
        seen = {}
        for _, _, r in rows:
            for m in r.extra["log"]["messages"]:
                seen[m] = seen.get(m, 0) + 1
        for m, n in list(seen.items())[:10]:
            out(f"  {n} cell(s): {m[:220]}")
        out()
        if v["passed"]:
            out(f"PASS: zero errors, and reloading QPS is {mean:.3f} of steady (goal >= {GOAL:.2f}), "
                f"{applied} reloads applied")
        else:
            out(f"FAIL: {'; '.join(v['reasons'])}")
            if v["passed_but_deadlocks"]:
                out(f"      apart from the {v['errors']} deadlock(s) (error 1213: each one counted by the primary's "
                    f"InnoDB, the workload's own")
                out(f"      lock conflicts) it would pass: reloading QPS {mean:.3f} of steady, {applied} reloads "
                    f"applied, no reconnect")
        if not v['passed'] or warn or err:
            common.copy_logs(failed_dir, [self.strata_log(), os.path.join(self.home, "logs", "stdout.log")])
            common.copy_logs(failed_dir, [s.path("cells", f"{kind}-r{rnd}.log") for rnd, kind, _ in rows])
            out(f"Logs (Strata's and sysbench's): {failed_dir}")
        out()
        out("steady: no reload during the cell; reloading: config-sbtest.yaml rewritten and reloaded every "
            f"{o.every} s")
        out("(configurations " + " -> ".join(o.configs) + " -> A ...; trigger " + o.trigger + "). errors: sysbench's "
            "ignored errors (1213,")
        out("1205, 1020) + reconnects; any other error or a lost connection fails the cell. ign/dl/rec: ignored")
        out("errors / InnoDB deadlocks the primary counted in the cell (Innodb_deadlocks) / reconnects. reloads:")
        out("applied/refused (?: no outcome within 15 s); stmt/hup: by RELOAD STRATA CONFIG / by SIGHUP; ms_med,")
        out("ms_max: trigger to answer (the statement's round trip with the client's start; for SIGHUP until")
        out("Strata's log says the version applied). version: SHOW STRATA CONFIG before -> after the cell. cpu_s:")
        out("Strata's CPU seconds in the cell. log w/e: WARN/ERROR lines in Strata's log during the cell. conns:")
        out("Threads_connected on the primary / replica_0 after the cell (a leaked pool would make them grow).")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")
        return v['passed']

    def machine_info(self, out):
        o = self.o
        for line in report.machine_lines(o.command):
            out(line)
        out(f"MariaDB:   {self.db_tools.version()}")
        out(f"sysbench:  {report.first_line([self.sysbench_bin, '--version'])}")
        out(f"Java:      {report.first_line([self.java, '-version'])} ({self.java})")
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(o.dist)))
        out(f"Strata:    {o.dist} (built {built}, STRATA_JAVA_OPTS="
            f"{targets.java_opts_shown(os.environ.get('STRATA_JAVA_OPTS'))})")
        out(f"Started:   " + ("bin/start.sh (background mode, nohup)" if o.daemon else
                               "bin/start.sh -f (foreground, as this run's child; pid written to logs/strata.pid)")
            + f"; the JVM {'ignores' if self.hup_ignored else 'handles'} SIGHUP")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        out(f"Workload:  sysbench oltp_read_write, {o.tables} tables x {o.table_size} rows, {o.threads} threads, "
            f"--db-ps-mode={o.ps_mode}; {o.time} s per cell,")
        out(f"           {o.rounds} round(s) of steady and reloading, order rotated; {o.warmup} s warm-up (with "
            f"reloads)")
        out(f"Strata:    primary + replica_0 (GTID), READWRITE_SPLITTING (WEIGHT, primaryTakesReads) and a "
            f"QUERY_ROUTING rule")
        out(f"           that matches nothing; maximumPoolSize {o.pool}. A: weights 1/1, rule -> primary; B: weights "
            f"1/3,")
        out(f"           rule -> replica_0, replica_0 pool {o.pool - 1}" + (f"; C: as A with the primary's pool "
                                                                            f"{o.pool - 1}" if "C" in o.configs else ""))

    def keep_lines(self):
        lines = []
        for n in self.nodes:
            if n.proc and n.proc.alive():
                lines.append(f"    {n.name:<9} pid {n.proc.pid:<7} 127.0.0.1:{n.port}  (socket {n.sock})")
        if self.strata and self.strata.alive():
            lines.append(f"    Strata    pid {self.strata.pid} 127.0.0.1:{self.o.ports['strata']}  (home {self.home}, "
                         f"conf {self.conf})")
            lines.append(f"    connect: {self.db_tools.client} -h127.0.0.1 -P{self.o.ports['strata']} -uroot -proot "
                         f"sbtest")
        return lines


def hup_ignored(pid):
    """Whether the process ignores SIGHUP (bit 0 of SigIgn in /proc/PID/status)."""
    for line in common.read_text(f"/proc/{pid}/status").splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) & 1)
    return False


def outcome_counts(reloads):
    return (sum(1 for r in reloads if r.outcome == "applied"), sum(1 for r in reloads if r.outcome == "refused"),
            sum(1 for r in reloads if r.outcome not in ("applied", "refused")))


def trigger_counts(reloads):
    return {t: sum(1 for r in reloads if r.trigger == t) for t in ("statement", "sighup")}


def scan_log(path, offset):
    """The WARN and ERROR lines Strata logged from offset on, their messages (timestamps and threads dropped, first
    10 distinct), and the "configuration version N applied" lines."""
    found = {"warn": 0, "error": 0, "applied": 0, "messages": []}
    for line in common.read_from(path, offset).splitlines():
        if _APPLIED.search(line):
            found["applied"] += 1
        m = _LOG_LEVEL.match(line)
        if not m:
            continue
        found["warn" if m.group(1) == "WARN" else "error"] += 1
        msg = re.sub(r"\(conn=\d+\)", "(conn=N)", f"{m.group(1)} {m.group(2)}")
        if msg not in found["messages"] and len(found["messages"]) < 10:
            found["messages"].append(msg)
    return found





def _ms(v):
    return f"{v:.0f}"


def main(argv):
    bench = ReloadBench(Options(argv))
    with common.Session("strata-reload", bench.o.keep, bench.keep_lines,
                        keep_on_failure=("node*/data", "strata-dist/*/lib")) as s:
        bench.start_servers(s)
        bench.prepare(s)
        bench.start_strata(s)
        bench.check_configs()
        bench.warm_up(s)
        bench.run(s)
        if not bench.report(s):
            raise SystemExit(1)


if __name__ == "__main__":
    common.main(main)
