#!/usr/bin/env python3
"""bench/cluster.sh: Strata's cluster mode under load. Three members share their configuration through Debian's
ZooKeeper server (started by the run, on a port and in a folder of its own) and sit behind HAProxy; one MariaDB is the
backend of every Strata.

Two phases:

  cells    sysbench oltp_read_write (64 threads by default) in three cells, interleaved in rounds with the order
           rotated each round: "standalone" (one Strata without `mode`, sysbench straight at it), "member" (member m1
           alone, sysbench straight at it: what cluster mode costs one process) and "three" (the three members behind
           HAProxy, balance leastconn). On a 2-core machine all of them share the same two cores: "three" shows what
           three JVMs on those cores give, not what three machines would.
  faults   the three members behind HAProxy under the same sysbench load for --faults-time seconds, while a thread
           rewrites config-sbtest.yaml on m1 or m3 every --change-every seconds and publishes it with RELOAD STRATA
           CONFIG, and member m2 is killed with SIGKILL and restarted --kills times. sysbench runs bench/cluster_rw.lua
           (oltp_read_write whose threads open a new connection, through HAProxy, when theirs is lost, and print the
           error); HAProxy's log (option tcplog) says which member each session was on and when it ended. Beside it
           one client per member, straight at it, inserts rows whose key a SNOWFLAKE generator makes; at the end
           MariaDB is asked whether any key repeats and which worker id ((id >> 12) & 1023) each member's rows
           carry.

bench/README.md explains the method and the output.
"""
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import common, cpu, interleave, mariadb, matrix, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402
from harness.sysbench import parse  # noqa: E402
from rw_split import USERS_YAML  # noqa: E402

CELLS = ["standalone", "member", "three"]
MEMBERS = ["m1", "m2", "m3"]
VICTIM = "m2"
PUBLISHERS = ["m1", "m3"]
PHASES = ["cells", "faults"]
ZK_JAR = "/usr/share/java/zookeeper.jar"
NAMESPACE = "strata_bench"
_ERROR = re.compile(r"ERROR (\d+)")
# <client> [<date>] <frontend> <backend>/<server> Tw/Tc/Tt bytes termination_state ...
_TCPLOG = re.compile(r"\[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d)\.(\d{3})\] (\S+) (\S+)/(\S+) -?\d+/-?\d+/\+?(-?\d+) "
                     r"\+?\d+ (\S\S) ")
_LOST_LINE = re.compile(r"^cluster_rw: lost (\S+) ", re.M)
_INTERVAL = re.compile(r"\[\s*(\d+)s\s*\].*?qps: ([\d.]+).*?err/s: ([\d.]+) reconn/s: ([\d.]+)")
_LOG_LEVEL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ (WARN|ERROR) +\[[^\]]*\] (.*)$")

SPEC = {
    "--rounds": ("value", "rounds"), "--time": ("value", "time"), "--threads": ("value", "threads"),
    "--ps-mode": ("value", "ps"), "--warmup": ("value", "warmup"), "--tables": ("value", "tables"),
    "--table-size": ("value", "table_size"), "--pool": ("value", "pool"), "--faults-time": ("value", "faults_time"),
    "--change-every": ("value", "every"), "--kills": ("value", "kills"), "--down": ("value", "down"),
    "--ttl": ("value", "ttl"), "--phases": ("list", "phases"), "--strata-dist": ("value", "dist"),
    "--base-port": ("value", "base_port"), "--keep": ("flag", "keep"),
}


def usage():
    return """Usage: bench/cluster.sh [options]

Strata's cluster mode: three members sharing their configuration through ZooKeeper,
behind HAProxy, against one standalone Strata; then the three under load while the
configuration changes and a member is killed. Starts its own ZooKeeper (Debian's
zookeeper package, ZooKeeperServerMain on a temp folder; not the system service),
MariaDB, four Strata processes from the distribution tarball and HAProxy. Installs
sysbench, haproxy, zookeeper, mariadb-server and mariadb-client with apt-get when they
are missing (system services they may start are neither used nor touched).

Phase "cells": sysbench oltp_read_write in three cells per round, order rotated:
  standalone  one Strata without mode, sysbench straight at it
  member      member m1 alone, sysbench straight at it (the other two idle)
  three       the three members behind HAProxy (mode tcp, balance leastconn)
Phase "faults": the three behind HAProxy under the same load for --faults-time s, the
configuration published every --change-every s (from m1 and m3 in turn), member m2
killed with SIGKILL and restarted --kills times; one client per member inserts rows
with SNOWFLAKE keys. Checks: errors only on m2's connections, no duplicate key, one
worker id per member process, every member on the last version at the end.

Options:
  --rounds N           rounds of the three cells (default 2)
  --time SECONDS       measured seconds per cell (default 60)
  --threads N          sysbench threads (client connections) (default 64)
  --ps-mode MODE       sysbench --db-ps-mode: auto or disable (default auto)
  --warmup SECONDS     unrecorded run through each cell's target first (default 20; 0 = none)
  --tables N           sbtest tables (default 4)
  --table-size N       rows per table (default 10000)
  --pool N             maximumPoolSize of every Strata's data source (default 64)
  --faults-time SECONDS
                       length of the faults phase (default 180)
  --change-every SECONDS
                       seconds between two published configurations (default 5)
  --kills N            times m2 is killed and restarted in the faults phase (default 2)
  --down SECONDS       seconds m2 stays down before its restart (default 5)
  --ttl SECONDS        timeToLiveSeconds of the members' registry sessions (default 10)
  --phases LIST        cells, faults or both (default "cells,faults")
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --base-port N        MariaDB N, ZooKeeper N+1, standalone Strata N+2, members N+3..N+5,
                       HAProxy N+6 (default 13806)
  --keep               leave everything running at the end and keep the temp folder
  -h, --help           this help

Environment:
  STRATA_JAVA_OPTS     JVM options for every Strata (passed to bin/start.sh)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java 21,
                       the newest JDK >= 21 under /usr/lib/jvm is used

Output: a table on the terminal, and bench/results/cluster-<timestamp>.csv and .txt."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        self.rounds = common.whole(a.get("rounds", 2))
        self.time = common.whole(a.get("time", 60))
        self.threads = common.whole(a.get("threads", 64))
        self.ps_mode = a.get("ps", "auto")
        self.warmup = common.whole(a.get("warmup", 20))
        self.tables = common.whole(a.get("tables", 4))
        self.table_size = common.whole(a.get("table_size", 10000))
        self.pool = common.whole(a.get("pool", 64))
        self.faults_time = common.whole(a.get("faults_time", 180))
        self.every = common.whole(a.get("every", 5))
        self.kills = common.whole(a.get("kills", 2))
        self.down = common.whole(a.get("down", 5))
        self.ttl = common.whole(a.get("ttl", 10))
        self.phases = a.get("phases", PHASES)
        self.dist = a.get("dist", "")
        self.base_port = common.whole(a.get("base_port", 13806))
        self.keep = a.has("keep")
        if min(self.rounds, self.time, self.threads, self.tables, self.table_size, self.pool, self.every,
               self.ttl) < 1:
            die("--rounds, --time, --threads, --tables, --table-size, --pool, --change-every and --ttl must be at "
                "least 1")
        if self.ps_mode not in ("auto", "disable"):
            die("--ps-mode must be auto or disable")
        if not self.phases or any(p not in PHASES for p in self.phases):
            die("--phases: cells, faults or both")
        if "faults" in self.phases and self.faults_time < (self.kills + 1) * (self.down + 30):
            die(f"--faults-time {self.faults_time} is too short for {self.kills} kill(s) with --down {self.down}: "
                f"give at least {(self.kills + 1) * (self.down + 30)} s")
        if not 1024 <= self.base_port <= 65529:
            die("--base-port must be in 1024..65529")
        b = self.base_port
        self.ports = {"mariadb": b, "zookeeper": b + 1, "standalone": b + 2, "m1": b + 3, "m2": b + 4, "m3": b + 5,
                      "haproxy": b + 6}
        need_mb = self.tables * self.table_size * 1000 // 1048576 + 1
        self.buffer_pool = f"{max(need_mb, 256)}M"


# ---- configuration ------------------------------------------------------------------------------------------------

def server_yaml(label, port, zk_port=None, ttl=10):
    text = f"# Written by bench/cluster.sh: {label}.\nserver:\n  host: 127.0.0.1\n  port: {port}\n"
    if zk_port:
        text += ("mode:\n  type: Cluster\n  repository:\n    type: ZooKeeper\n    props:\n"
                 f"      namespace: {NAMESPACE}\n      server-lists: 127.0.0.1:{zk_port}\n"
                 f"      timeToLiveSeconds: {ttl}\n")
    return text + USERS_YAML


def database_yaml(variant, db_port, pool):
    """config-sbtest.yaml, variant "a" or "b": they differ in a QUERY_ROUTING rule that matches nothing sysbench
    sends, so that each publication is a real change that touches no pool. t_key is sharded over two tables by its
    SNOWFLAKE key; the sysbench tables are named by no rule and go to ds."""
    return (f"# Written by bench/cluster.sh: configuration {variant.upper()}.\n"
            "databaseName: sbtest\ndataSources:\n"
            + targets.data_source("ds", f"jdbc:mariadb://127.0.0.1:{db_port}/sbtest", pool)
            + "rules:\n"
            "  - type: QUERY_ROUTING\n"
            "    rules:\n"
            f"      - {{ name: never-matches, pattern: \"(?i)^select nothing_matches_{variant}\", dataSource: ds }}\n"
            "  - type: SHARDING\n"
            "    tables:\n"
            "      t_key:\n"
            "        actualDataNodes: ds.t_key_${0..1}\n"
            "        tableStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: key_mod } }\n"
            "        keyGenerateStrategy: { column: id, keyGeneratorName: snowflake }\n"
            "    defaultDatabaseStrategy: { none: {} }\n"
            "    defaultTableStrategy: { none: {} }\n"
            "    shardingAlgorithms:\n"
            "      key_mod: { type: MOD, props: { sharding-count: 2 } }\n"
            "    keyGenerators:\n"
            "      snowflake: { type: SNOWFLAKE }\n")


def haproxy_cfg(listen, member_ports):
    servers = "".join(f"    server {m} 127.0.0.1:{p}\n" for m, p in member_ports.items())
    return f"""# Written by bench/cluster.sh: the three members, mode tcp, one log line per session (option tcplog).
global
    nbthread {os.cpu_count()}
    maxconn 4096
    log stdout format raw local0 info

defaults
    mode tcp
    log global
    option tcplog
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    # A connection refused by a member that is down goes to another one.
    retries 3
    option redispatch 1

listen strata
    bind 127.0.0.1:{listen}
    balance leastconn
    default-server check inter 500 fall 2 rise 2
{servers}"""


# ---- small helpers ------------------------------------------------------------------------------------------------




def four_letter(port, word):
    """ZooKeeper's four-letter word answer ("imok" for ruok), "" when it does not answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
            c.sendall(word.encode())
            data = b""
            while True:
                chunk = c.recv(4096)
                if not chunk:
                    break
                data += chunk
            return data.decode(errors="replace")
    except OSError:
        return ""


def established(port):
    """Established TCP connections whose local port is `port` (the server side of clients' connections)."""
    n = 0
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in common.read_text(path).splitlines()[1:]:
            f = line.split()
            if len(f) > 3 and f[3] == "01" and int(f[1].rsplit(":", 1)[1], 16) == port:
                n += 1
    return n


def scan_log(path, offset):
    """WARN and ERROR lines from offset on: counts and the first 8 distinct messages."""
    found = {"warn": 0, "error": 0, "messages": []}
    for line in common.read_from(path, offset).splitlines():
        m = _LOG_LEVEL.match(line)
        if not m:
            continue
        found["warn" if m.group(1) == "WARN" else "error"] += 1
        msg = re.sub(r"\d+", "N", f"{m.group(1)} {m.group(2)}")[:200]
        if msg not in found["messages"] and len(found["messages"]) < 8:
            found["messages"].append(msg)
    return found


# ---- the background work of the faults phase -------------------------------------------------------------------

class Inserter(threading.Thread):
    """One client per member, straight at it: every 0.25 s a new connection (the mariadb client) inserts 10 rows into
    t_key, whose id Strata generates; each row says which member and which life of it (1, then 2 after a restart)
    took it. Errors are counted with their code and the second of the phase they came in."""

    def __init__(self, bench, member, t0):
        super().__init__(name=f"insert-{member}", daemon=True)
        self.bench, self.member, self.t0 = bench, member, t0
        self.stop_event = threading.Event()
        self.batches = self.ok_rows = 0
        self.errors = []    # (second, code, message)

    def run(self):
        seq = 0
        port = self.bench.o.ports[self.member]
        while not self.stop_event.is_set():
            start = time.monotonic()
            life = self.bench.life[self.member]
            sql = "".join(f"INSERT INTO t_key (member, life, seq) VALUES ('{self.member}', {life}, {seq + i});"
                          for i in range(10))
            rc, out = self.bench.db_tools.tcp(port, sql)
            self.batches += 1
            if rc == 0:
                self.ok_rows += 10
            else:
                m = _ERROR.search(out)
                text = out[m.start():] if m else out
                self.errors.append((start - self.t0, m.group(1) if m else "?", text.replace("\n", " ")[:160]))
            seq += 10
            self.stop_event.wait(max(0.0, 0.25 - (time.monotonic() - start)))

    def finish(self):
        self.stop_event.set()
        self.join(timeout=30)


class ChangeLoop(threading.Thread):
    """Every `every` seconds: configuration A or B (the other one than the cluster runs) written into the next
    publisher's conf folder (m1, m3, m1, ...) and published there with RELOAD STRATA CONFIG."""

    def __init__(self, bench, every, t0):
        super().__init__(name="change-loop", daemon=True)
        self.bench, self.every, self.t0 = bench, every, t0
        self.stop_event = threading.Event()
        self.changes = []   # dicts: at, member, variant, outcome, version, ms, lagging, detail

    def run(self):
        due = time.monotonic() + self.every
        n = 0
        while not self.stop_event.wait(max(0.0, due - time.monotonic())):
            member = PUBLISHERS[n % len(PUBLISHERS)]
            n += 1
            try:
                self.changes.append(self.bench.publish(member, time.monotonic() - self.t0))
            except Exception as e:   # noqa: BLE001 - a broken loop must show in the report, not kill the run
                self.changes.append({"at": time.monotonic() - self.t0, "member": member, "variant": "?",
                                     "outcome": "unknown", "version": None, "ms": 0, "lagging": [],
                                     "detail": f"{type(e).__name__}: {e}"})
            due += self.every
            if due < time.monotonic():
                due = time.monotonic() + self.every

    def finish(self):
        self.stop_event.set()
        self.join(timeout=60)
        return self.changes


# ---- the benchmark ------------------------------------------------------------------------------------------------

class ClusterBench:
    def __init__(self, o):
        self.o = o
        self.installed = install_zookeeper() + common.install_missing(haproxy=True)
        if not os.path.isfile(ZK_JAR):
            die(f"{ZK_JAR} not found (package zookeeper)")
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.haproxy_bin = common.need_bin("haproxy", "haproxy")
        self.db_tools = mariadb.Tools()
        self.java = common.select_java()
        o.dist = common.locate_dist(o.dist)
        for name, port in o.ports.items():
            if common.port_in_use(port):
                die(f"port {port} ({name}) is in use; pick other ports with --base-port N (uses N..N+6)")
        self.load, self.busy = common.load_and_busy()
        common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts; the QPS will be "
                         "noisy.\n         Busiest processes (CPU% over their lifetime):")
        self.sb = matrix.sysbench_for(self.sysbench_bin, o.tables, o.table_size)
        self.db = self.zk = self.haproxy = None
        self.zk_version = ""
        self.procs = {}      # standalone, m1, m2, m3 -> Proc
        self.homes = {}
        self.confs = {}
        self.life = {m: 1 for m in MEMBERS}
        self.variant = "a"   # the configuration the cluster runs
        self.lock = threading.Lock()
        self.summaries = None
        self.faults = None
        self.setup_notes = []

    # ---- set-up ---------------------------------------------------------------------------------------------------

    def start_zookeeper(self, s):
        o = self.o
        folder = s.path("zookeeper")
        os.makedirs(os.path.join(folder, "data"))
        # Debian's zookeeper.jar names its dependencies in its manifest's Class-Path.
        java = "/usr/bin/java" if os.access("/usr/bin/java", os.X_OK) else self.java
        say(f"Starting ZooKeeper (Debian's {ZK_JAR}, ZooKeeperServerMain) on 127.0.0.1:{o.ports['zookeeper']}, data "
            f"in {folder}/data")
        p = common.spawn([java, "-Xms64m", "-Xmx256m", "-Dzookeeper.admin.enableServer=false",
                          "-Dzookeeper.4lw.commands.whitelist=ruok,srvr", "-cp", ZK_JAR,
                          "org.apache.zookeeper.server.ZooKeeperServerMain", str(o.ports["zookeeper"]),
                          os.path.join(folder, "data")], os.path.join(folder, "zookeeper.log"))
        self.zk = s.add(common.Proc("ZooKeeper", p.pid, p, stop_timeout=15))
        if not common.wait_until(60, p.pid, lambda: four_letter(o.ports["zookeeper"], "ruok") == "imok"):
            echo("\n".join(common.read_text(os.path.join(folder, "zookeeper.log")).splitlines()[-30:]))
            die(f"ZooKeeper did not start (log: {folder}/zookeeper.log)")
        srvr = []
        for _ in range(40):   # "not currently serving requests" for a moment after ruok answers
            srvr = four_letter(o.ports["zookeeper"], "srvr").splitlines()
            if srvr and "version" in srvr[0]:
                break
            time.sleep(0.25)
        self.zk_version = srvr[0].split(":", 1)[1].strip() if srvr and ":" in srvr[0] else "?"
        echo(f"    ZooKeeper answers: {self.zk_version} (java {java})")

    def start_mariadb(self, s):
        o = self.o
        self.db = mariadb.Server(self.db_tools, "MariaDB", s.path("mariadb"), o.ports["mariadb"])
        self.db.install()
        say(f"Starting MariaDB on 127.0.0.1:{self.db.port} (buffer pool {o.buffer_pool})")
        self.db.start(s, mariadb.bench_options(o.buffer_pool))
        self.db.sql(self.db.drop_anonymous_users() + """
            CREATE DATABASE sbtest;
            CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
            GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';""", "could not create the sbtest database and user")
        say(f"Loading the data set: {o.tables} tables x {o.table_size} rows (sysbench prepare)")
        matrix.prepare(self.sb, s, self.db.port, o.tables)
        # No unique index on id: a duplicate key would be stored and found by the check, not refused on insert.
        self.db.sql("".join(f"CREATE TABLE sbtest.t_key_{i} (id BIGINT NOT NULL, member VARCHAR(8) NOT NULL, "
                            f"life INT NOT NULL, seq INT NOT NULL, at DATETIME(3) NOT NULL DEFAULT NOW(3), "
                            f"KEY (id)) ENGINE=InnoDB;" for i in range(2)), "could not create t_key_0 and t_key_1")

    def start_strata(self, s, name):
        o = self.o
        cluster = name in MEMBERS
        label = f"Strata {name}" if cluster else "Strata standalone"
        server = server_yaml(f"{'cluster member ' + name if cluster else 'standalone'}", o.ports[name],
                             o.ports["zookeeper"] if cluster else None, o.ttl)
        try:
            proc, home = targets.start_strata(s, self.db_tools, label, o.dist, name, o.ports[name], o.pool, server,
                                              database_yaml("a", o.ports["mariadb"], o.pool),
                                              os.environ.get("STRATA_JAVA_OPTS", ""))
        except targets.StartFailed as e:
            echo("\n".join(e.output.strip().splitlines()[-30:]))
            die(f"{label} did not start or does not answer on port {o.ports[name]} (log: {e.home}/logs/)")
        self.procs[name], self.homes[name], self.confs[name] = proc, home, s.path(f"{name}-conf")

    def restart(self, s, name):
        """bin/start.sh again on the killed member's folders; returns the seconds until it answered."""
        o = self.o
        pid_file = os.path.join(self.homes[name], "logs", "strata.pid")
        if os.path.exists(pid_file):
            os.remove(pid_file)
        t0 = time.monotonic()
        try:
            self.procs[name] = targets.start_strata_daemon(
                s, self.db_tools, f"Strata {name}", self.homes[name], self.confs[name], o.ports[name],
                os.environ.get("STRATA_JAVA_OPTS", ""), s.path(f"{name}-restart-{self.life[name]}.log"))
        except targets.StartFailed as e:
            echo("\n".join(e.output.strip().splitlines()[-30:]))
            die(f"Strata {name} did not start again (log: {self.homes[name]}/logs/)")
        return time.monotonic() - t0

    def start_haproxy(self, s):
        o = self.o
        folder = s.path("haproxy")
        os.makedirs(folder)
        cfg = os.path.join(folder, "haproxy.cfg")
        with open(cfg, "w") as f:
            f.write(haproxy_cfg(o.ports["haproxy"], {m: o.ports[m] for m in MEMBERS}))
        say(f"Starting HAProxy on 127.0.0.1:{o.ports['haproxy']} (mode tcp, balance leastconn, health checks every "
            f"500 ms) in front of m1, m2, m3")
        check = subprocess.run([self.haproxy_bin, "-c", "-q", "-f", cfg], capture_output=True, text=True)
        if check.returncode != 0:
            echo(check.stdout + check.stderr)
            die(f"HAProxy rejected {cfg}")
        self.haproxy_log = os.path.join(folder, "haproxy.log")
        p = common.spawn([self.haproxy_bin, "-db", "-f", cfg], self.haproxy_log)
        self.haproxy = s.add(common.Proc("HAProxy", p.pid, p, stop_timeout=10))
        if not common.wait_until(20, p.pid, lambda: common.port_in_use(o.ports["haproxy"])):
            echo(common.read_text(self.haproxy_log))
            die(f"HAProxy did not start (log: {self.haproxy_log})")
        # The health checks (rise 2, every 500 ms) have seen each member up; then a login through HAProxy.
        time.sleep(2)
        if not self.db_tools.answers(o.ports["haproxy"]):
            die(f"no login through HAProxy on port {o.ports['haproxy']} (log: {self.haproxy_log})")

    def root(self, name, sql):
        """(exit code, rows) of SQL as the admin user on one Strata."""
        rc, out = self.db_tools.tcp(self.o.ports[name], sql, "root", "root", args=("-N", "-B"))
        return rc, [line.split("\t") for line in out.splitlines() if line.strip()] if rc == 0 else out

    def cluster_view(self, via="m1"):
        """SHOW STRATA CLUSTER on one member: [(member, version, state, worker_id)]."""
        rc, rows = self.root(via, "SHOW STRATA CLUSTER")
        if rc != 0:
            return []
        return [(r[0], r[1], r[3], r[4]) for r in rows if len(r) >= 5]

    def check_setup(self):
        """One insert per member: the SNOWFLAKE key is generated and lands in t_key_0 or t_key_1 (a configuration
        Strata would refuse stops the run here, not in the faults phase); SHOW STRATA CLUSTER lists three members."""
        for m in MEMBERS:
            rc, out = self.db_tools.tcp(self.o.ports[m], f"INSERT INTO t_key (member, life, seq) VALUES ('{m}', 0, 0)")
            if rc != 0:
                die(f"an insert into t_key through {m} failed: {out}")
        view = self.cluster_view()
        echo("    SHOW STRATA CLUSTER: " + "; ".join(f"{v[0]} version {v[1]} {v[2]} worker {v[3]}" for v in view))
        if len(view) != 3:
            die(f"SHOW STRATA CLUSTER on m1 lists {len(view)} member(s), expected 3")
        self.setup_notes.append("SHOW STRATA CLUSTER at start: " + "; ".join(f"{v[0]} v{v[1]} {v[2]} worker {v[3]}"
                                                                            for v in view))

    # ---- cells ----------------------------------------------------------------------------------------------------

    def target(self, kind):
        """(port, the Strata processes whose CPU the cell reports)."""
        if kind == "standalone":
            return self.o.ports["standalone"], ["standalone"]
        if kind == "member":
            return self.o.ports["m1"], ["m1"]
        return self.o.ports["haproxy"], MEMBERS

    def sysbench_args(self, port):
        o = self.o
        return ["oltp_read_write", f"--mysql-port={port}", f"--db-ps-mode={o.ps_mode}", f"--threads={o.threads}"]

    def warm_up(self, s):
        o = self.o
        if o.warmup <= 0:
            return
        for kind in CELLS:
            port, _ = self.target(kind)
            say(f"Warm-up (not recorded): oltp_read_write, {o.threads} threads, {o.warmup} s through {kind}")
            log = s.path("cells", f"warmup-{kind}.log")
            rc = self.sb.run([*self.sysbench_args(port), f"--time={o.warmup}", "--report-interval=0", "run"], log,
                             o.warmup)
            p = parse(common.read_text(log))
            echo(f"    exit code {rc}, qps {p.qps or '-'}, errors {p.errors}")

    def deadlocks(self):
        v = self.db.value("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'").split()
        return int(v[1]) if len(v) > 1 and v[1].isdigit() else 0

    def run_cell(self, s, kind, rnd):
        o = self.o
        port, names = self.target(kind)
        pids = {n: self.procs[n].pid for n in names}
        if kind == "three":
            pids["haproxy"] = self.haproxy.pid
        meter = cpu.Meter(pids)
        before, dl = meter.sample(), self.deadlocks()
        r = self.sb.cell(self.sysbench_args(port), s.path("cells", f"{kind}-r{rnd}.log"), o.time, o.ps_mode, None,
                         kind, db_pid=self.db.pid())
        used, _ = cpu.Meter.delta(before, meter.sample())
        ticks = [used[n] for n in names if n in used]
        r.cpu = cpu.seconds(sum(t.total for t in ticks))
        r.sys = cpu.seconds(sum(t.system for t in ticks))
        r.jit = cpu.seconds(sum(t.jit for t in ticks))
        r.extra["per_member"] = {n: cpu.seconds(used[n].total) for n in names if n in used}
        r.extra["haproxy_cpu"] = cpu.seconds(used["haproxy"].total) if "haproxy" in used else None
        r.extra["deadlocks"] = self.deadlocks() - dl
        for n in names:
            if not self.procs[n].alive():
                r.status, r.note = "FAILED", f"{n} is gone"
        return r

    def run_cells(self, s):
        o = self.o
        progress = interleave.Progress(o.rounds * len(CELLS))
        say(f"Running {o.rounds} round(s) of the {', '.join(CELLS)} cells, {o.time} s each (about "
            f"{(o.rounds * len(CELLS) * (o.time + 5)) // 60 + 1} min)")

        def show(kind, rnd, r):
            per = " ".join(f"{n} {v:.1f}" for n, v in r.extra["per_member"].items())
            echo(f"  {progress.next()} r{rnd} {kind:<10} qps {r.qps:>9}  p95 {r.p95 or '-':>7} ms  errors "
                 f"{r.errors:>3} (deadlocks {r.extra['deadlocks']})  Strata CPU s {per}"
                 + (f"  HAProxy {r.extra['haproxy_cpu']:.1f}" if r.extra["haproxy_cpu"] is not None else "")
                 + f"  busy {r.busy}%  {r.status}{': ' + r.note if r.note else ''}")

        self.summaries = interleave.run_rounds(CELLS, o.rounds, lambda kind, rnd: self.run_cell(s, kind, rnd), show)

    # ---- faults ---------------------------------------------------------------------------------------------------

    def publish(self, member, at):
        """The other configuration written into member's conf folder, then RELOAD STRATA CONFIG there."""
        with self.lock:
            variant = "b" if self.variant == "a" else "a"
            conf = self.confs[member]
            tmp = os.path.join(os.path.dirname(conf), f"{member}-config-sbtest.yaml.next")
            with open(tmp, "w") as f:
                f.write(database_yaml(variant, self.o.ports["mariadb"], self.o.pool))
            os.replace(tmp, os.path.join(conf, "config-sbtest.yaml"))
            t0 = time.monotonic()
            rc, rows = self.root(member, "RELOAD STRATA CONFIG")
            ms = (time.monotonic() - t0) * 1000
            if rc != 0 or not rows or not rows[0][0].isdigit():
                detail = rows if isinstance(rows, str) else " | ".join("\t".join(r) for r in rows)
                return {"at": at, "member": member, "variant": variant, "outcome": "refused", "version": None,
                        "ms": ms, "lagging": [], "detail": detail.replace("\n", " ")[:300]}
            self.variant = variant
            lagging = [r[1] for r in rows if len(r) > 2 and "not yet" in r[2]]
            return {"at": at, "member": member, "variant": variant, "outcome": "applied", "version": int(rows[0][0]),
                    "ms": ms, "lagging": lagging, "detail": "; ".join(r[1] for r in rows if len(r) > 1)[:300]}

    def run_faults(self, s):
        o = self.o
        f = {"events": [], "views": []}
        self.faults = f
        say(f"Faults phase: sysbench oltp_read_write (bench/cluster_rw.lua), {o.threads} threads through HAProxy for "
            f"{o.faults_time} s; "
            f"configuration published every {o.every} s from {' and '.join(PUBLISHERS)}; {VICTIM} killed (SIGKILL) "
            f"and restarted {o.kills} time(s), {o.down} s down; one inserting client per member")
        hap_from = common.file_size(self.haproxy_log)
        log_from = {m: common.file_size(os.path.join(self.homes[m], "logs", "strata.log")) for m in MEMBERS}
        dl = self.deadlocks()
        f["views"].append(("start", self.cluster_view()))
        t0 = time.monotonic()
        inserters = {m: Inserter(self, m, t0) for m in MEMBERS}
        for t in inserters.values():
            t.start()
        changes = ChangeLoop(self, o.every, t0)
        changes.start()
        log = s.path("cells", "faults.log")
        result = {}

        def load():
            # bench/cluster_rw.lua: oltp_read_write whose threads connect again when their connection is lost.
            result["rc"] = self.sb.run([os.path.join(common.BENCH_DIR, "cluster_rw.lua"),
                                        f"--mysql-port={o.ports['haproxy']}", f"--db-ps-mode={o.ps_mode}",
                                        f"--threads={o.threads}", f"--time={o.faults_time}", "--report-interval=10",
                                        "--percentile=95", "run"], log, o.faults_time)

        sysbench = threading.Thread(target=load, name="faults-sysbench", daemon=True)
        sysbench.start()
        t0_epoch = time.time()
        try:
            # Kills spread over the phase: kill k at k/(kills+1) of it.
            for k in range(1, o.kills + 1):
                at = o.faults_time * k / (o.kills + 1) - o.down / 2
                time.sleep(max(0.0, at - (time.monotonic() - t0)))
                conns = established(o.ports[VICTIM])
                pid = self.procs[VICTIM].pid
                kill_at = time.monotonic() - t0
                os.kill(pid, signal.SIGKILL)
                for _ in range(100):
                    if not cpu.is_alive(pid):
                        break
                    time.sleep(0.05)
                s.forget(self.procs[VICTIM])
                with self.lock:
                    self.life[VICTIM] += 1     # rows from now on can only come from the restarted process
                echo(f"    {kill_at:6.1f} s: killed {VICTIM} (pid {pid}, life {self.life[VICTIM] - 1}) holding {conns} "
                     f"client connection(s)")
                time.sleep(o.down)
                f["views"].append((f"{VICTIM} down ({kill_at + o.down:.0f} s)", self.cluster_view()))
                restart_at = time.monotonic() - t0
                secs = self.restart(s, VICTIM)
                up_at = time.monotonic() - t0
                view = self.cluster_view()
                f["views"].append((f"{VICTIM} back ({up_at:.0f} s)", view))
                echo(f"    {up_at:6.1f} s: {VICTIM} answers again after {secs:.1f} s (life {self.life[VICTIM]}); "
                     f"SHOW STRATA CLUSTER: " + "; ".join(f"{v[0]} v{v[1]} {v[2]} w{v[3]}" for v in view))
                f["events"].append({"kill_at": kill_at, "restart_at": restart_at, "up_at": up_at, "conns": conns,
                                    "start_s": secs, "pid": pid})
            sysbench.join()
        finally:
            f["changes"] = changes.finish()
            for t in inserters.values():
                t.finish()
        f["rc"] = result.get("rc")
        f["out"] = parse(common.read_text(log))
        f["lost"] = {}
        for m in _LOST_LINE.finditer(common.read_text(log)):
            f["lost"][m.group(1)] = f["lost"].get(m.group(1), 0) + 1
        f["timeline"] = [l.strip() for l in common.read_text(log).splitlines() if l.startswith("[")]
        f["deadlocks"] = self.deadlocks() - dl
        f["inserters"] = inserters
        f["sessions"] = haproxy_sessions(common.read_from(self.haproxy_log, hap_from), t0_epoch + o.faults_time)
        f["logs"] = {m: scan_log(os.path.join(self.homes[m], "logs", "strata.log"), log_from[m]) for m in MEMBERS}
        # Every member on the last published version: the restarted one included.
        time.sleep(1)
        f["views"].append(("end", self.cluster_view()))
        f["keys"] = self.check_keys()

    def check_keys(self):
        """On MariaDB: rows, distinct ids, and per member and life the worker ids, rows and time span."""
        union = "(SELECT id, member, life, at FROM sbtest.t_key_0 UNION ALL SELECT id, member, life, at FROM " \
                "sbtest.t_key_1) k"
        rows, distinct = (self.db.value(f"SELECT COUNT(*), COUNT(DISTINCT id) FROM {union}").split() + ["?", "?"])[:2]
        dups = self.db.value(f"SELECT id, COUNT(*) FROM {union} GROUP BY id HAVING COUNT(*) > 1 LIMIT 5")
        lives = []
        for line in self.db.value(f"SELECT member, life, (id >> 12) & 1023, COUNT(*), MIN(at), MAX(at) FROM {union} "
                                  f"WHERE life > 0 GROUP BY member, life, (id >> 12) & 1023 ORDER BY member, life"
                                  ).splitlines():
            p = line.split("\t")
            if len(p) == 6:
                lives.append({"member": p[0], "life": int(p[1]), "worker": int(p[2]), "rows": int(p[3]),
                              "from": p[4], "to": p[5]})
        per_life = {}
        for lv in lives:
            per_life.setdefault((lv["member"], lv["life"]), []).append(lv)
        several = [k for k, v in per_life.items() if len(v) > 1]
        # Two lives of different members that inserted at the same time must hold different worker ids.
        clashes = []
        items = [(k, v[0]) for k, v in per_life.items()]
        for i, (ka, a) in enumerate(items):
            for kb, b in items[i + 1:]:
                if ka[0] != kb[0] and a["worker"] == b["worker"] and a["from"] <= b["to"] and b["from"] <= a["to"]:
                    clashes.append(f"{ka[0]} life {ka[1]} and {kb[0]} life {kb[1]} both worker {a['worker']}")
        by_table = [self.db.value(f"SELECT COUNT(*) FROM sbtest.t_key_{i}") for i in range(2)]
        return {"rows": rows, "distinct": distinct, "dups": dups, "lives": lives, "several": several,
                "clashes": clashes, "by_table": by_table}

    # ---- report ---------------------------------------------------------------------------------------------------

    def cell_ratios(self, kind):
        """kind's QPS over standalone's in each round (the cells of a round ran back to back)."""
        st, other = self.summaries["standalone"].rounds, self.summaries[kind].rounds
        return [float(report.ratio(b.qps, a.qps)) for a, b in zip(st, other) if a.ok and b.ok
                and report.ratio(b.qps, a.qps)]

    def verdict(self):
        reasons = []
        if self.summaries:
            failed = [k for k in CELLS if self.summaries[k].status != "ok"]
            if failed:
                reasons.append(f"failed cell(s): {', '.join(failed)}")
        f = self.faults
        if f:
            if f["rc"] != 0:
                reasons.append(f"the faults phase's sysbench exited with {f['rc']}")
            others = {m: len(f["inserters"][m].errors) for m in MEMBERS if m != VICTIM}
            if any(others.values()):
                reasons.append("inserting clients of other members saw errors: "
                               + ", ".join(f"{m} {n}" for m, n in others.items() if n))
            cut = {m: v["server_cut"] + v["early"] for m, v in f["sessions"].items()
                   if m != VICTIM and v["server_cut"] + v["early"]}
            if cut:
                reasons.append("HAProxy sessions cut short on a member other than the killed one: "
                               + ", ".join(f"{m} {n}" for m, n in cut.items()))
            # sysbench counts the lost connections cluster_rw.lua caught among its errors too.
            lost = sum(f["lost"].values())
            unexplained = f["out"].ignored_errors - f["deadlocks"] - lost
            if unexplained > 0:
                reasons.append(f"{unexplained} sysbench error(s) beyond the InnoDB deadlocks and the lost connections")
            if set(f["lost"]) - {"2013", "2006"}:
                reasons.append(f"sysbench threads stopped on other errors than a lost connection: {f['lost']}")
            held = sum(e["conns"] for e in f["events"])
            if lost > held:
                reasons.append(f"{lost} sysbench connections lost, more than the {held} connections the "
                               f"killed member held")
            k = f["keys"]
            if k["rows"] != k["distinct"] or k["dups"]:
                reasons.append(f"duplicate keys: {k['rows']} rows, {k['distinct']} distinct ids")
            if k["several"] or k["clashes"]:
                reasons.append("worker ids: " + "; ".join([f"{m} life {l} used several" for m, l in k["several"]]
                                                         + k["clashes"]))
            applied = [c for c in f["changes"] if c["outcome"] == "applied"]
            if not applied or len(applied) != len(f["changes"]):
                reasons.append(f"{len(applied)} of {len(f['changes'])} publications applied")
            end = dict((v[0], v[1]) for v in f["views"][-1][1]) if f["views"][-1][1] else {}
            last = applied[-1]["version"] if applied else None
            if len(end) != 3 or any(str(last) != ver for ver in end.values()):
                reasons.append(f"at the end the members run {end or 'nothing known'}, expected 3 on version {last}")
        return reasons

    def report(self, s):
        o = self.o
        name = f"cluster-{common.stamp()}"
        csv, txt, failed_dir = common.results_paths(name)
        out = report.Tee()
        out()
        for line in report.machine_lines(o.command):
            out(line)
        out(f"MariaDB:   {self.db_tools.version()}")
        out(f"sysbench:  {report.first_line([self.sysbench_bin, '--version'])}")
        out(f"HAProxy:   {report.first_line([self.haproxy_bin, '-v'])}")
        out(f"ZooKeeper: {self.zk_version} (Debian's package, ZooKeeperServerMain, one server)")
        out(f"Java:      {report.first_line([self.java, '-version'])} ({self.java})")
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(o.dist)))
        out(f"Strata:    {o.dist} (built {built}, STRATA_JAVA_OPTS="
            f"{targets.java_opts_shown(os.environ.get('STRATA_JAVA_OPTS'))}); maximumPoolSize {o.pool} each; "
            f"members: mode Cluster, ZooKeeper, timeToLiveSeconds {o.ttl}")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        out(f"Workload:  sysbench oltp_read_write, {o.tables} tables x {o.table_size} rows, {o.threads} threads, "
            f"--db-ps-mode={o.ps_mode}")
        for n in self.setup_notes:
            out(f"Set-up:    {n}")
        csv_rows = []
        if self.summaries:
            out()
            out(f"Cells: {o.rounds} round(s) x {o.time} s, order rotated, {o.warmup} s warm-up per target. Strata "
                f"CPU: the cell's Strata processes (three: all members)")
            fmt = "%-10s %9s %17s %7s %6s %9s %8s %9s %9s  %s"
            out(fmt % ("cell", "qps", "qps min-max", "p95_ms", "errors", "strata_s", "q/cpu_s", "haproxy_s",
                       "/standalone", "status"))
            for kind in CELLS:
                sm = self.summaries[kind]
                hap = [r.extra["haproxy_cpu"] for r in sm.rounds if r.extra.get("haproxy_cpu") is not None]
                ratios = self.cell_ratios(kind) if kind != "standalone" else []
                out(fmt % (kind, sm.qps, f"{sm.qps_min}-{sm.qps_max}", sm.p95 or "-", sm.errors, sm.cpu, sm.qpc or "-",
                           f"{statistics.mean(hap):.2f}" if hap else "-",
                           f"{statistics.mean(ratios):.3f}" if ratios else "-",
                           sm.status + (": " + sm.note if sm.note else "")))
            out()
            out("Per round (QPS; ratios over standalone of the same round):")
            for rnd in range(1, o.rounds + 1):
                r = {k: self.summaries[k].rounds[rnd - 1] for k in CELLS}
                out(f"  round {rnd}: standalone {r['standalone'].qps}, member {r['member'].qps} "
                    f"({report.ratio(r['member'].qps, r['standalone'].qps) or '-'}), three {r['three'].qps} "
                    f"({report.ratio(r['three'].qps, r['standalone'].qps) or '-'}); deadlocks "
                    f"{r['standalone'].extra['deadlocks']}/{r['member'].extra['deadlocks']}/"
                    f"{r['three'].extra['deadlocks']}; three's Strata CPU s by member "
                    + " ".join(f"{n} {v:.1f}" for n, v in r["three"].extra["per_member"].items()))
            for kind in ("member", "three"):
                rs = self.cell_ratios(kind)
                if rs:
                    out(f"  {kind}/standalone QPS: mean {statistics.mean(rs):.3f}, min-max {min(rs):.3f}-"
                        f"{max(rs):.3f} over {len(rs)} round(s)")
            qpc = {k: self.summaries[k].qpc for k in CELLS}
            out(f"  queries per Strata CPU-second: standalone {qpc['standalone'] or '-'}, member "
                f"{qpc['member'] or '-'} "
                f"({report.ratio(qpc['member'], qpc['standalone']) or '-'} of standalone), three (all members) "
                f"{qpc['three'] or '-'} ({report.ratio(qpc['three'], qpc['standalone']) or '-'})")
            for rnd in range(1, o.rounds + 1):
                for kind in CELLS:
                    r = self.summaries[kind].rounds[rnd - 1]
                    csv_rows.append(["cells", rnd, kind, o.threads, o.ps_mode, o.time, r.qps, r.p95, r.errors, "",
                                     report.fixed(r.cpu, 2), report.per(r.queries, r.cpu, 1, 0) if r.cpu else "",
                                     report.fixed(r.extra.get("haproxy_cpu"), 2), report.fixed(r.db_cpu, 2),
                                     r.extra["deadlocks"], report.ratio(r.qps, self.summaries["standalone"]
                                                                        .rounds[rnd - 1].qps),
                                     r.status, r.note])
        f = self.faults
        if f:
            self.report_faults(out, csv_rows)
        reasons = self.verdict()
        out()
        out("PASS" + (": no failed cell" if self.summaries else "") + (
            "; errors only on the killed member's connections, no duplicate key, one worker id per member process, "
            "every member on the last version" if f else "") if not reasons else "FAIL: " + "; ".join(reasons))
        report.write_csv(csv, "phase,round,cell,threads,ps_mode,seconds,qps,p95_ms,errors,lost_connections,strata_cpu_s,"
                              "qps_per_strata_cpu_s,haproxy_cpu_s,mariadb_cpu_s,innodb_deadlocks,"
                              "over_standalone_qps,status,note", csv_rows)
        if reasons:
            for m in self.homes:
                common.copy_logs(failed_dir, [os.path.join(self.homes[m], "logs", "strata.log")], f"{m}-")
            common.copy_logs(failed_dir, [self.haproxy_log, s.path("cells", "faults.log")]
                             + [s.path("cells", f"{k}-r{r}.log") for k in CELLS for r in range(1, o.rounds + 1)])
            out(f"Logs: {failed_dir}")
        out.write(txt)
        echo()
        say(f"Results: {csv}")
        say(f"Report:  {txt}")
        return not reasons

    def report_faults(self, out, csv_rows):
        o = self.o
        f = self.faults
        p = f["out"]
        out()
        out(f"Faults phase: {o.faults_time} s through HAProxy (bench/cluster_rw.lua), {VICTIM} killed and restarted "
            f"{len(f['events'])} "
            f"time(s), configuration published every {o.every} s")
        out(f"  sysbench: exit code {f['rc']}, qps {p.qps or '-'}, p95 {p.p95 or '-'} ms, ignored errors "
            f"{p.ignored_errors} (InnoDB deadlocks counted by MariaDB: {f['deadlocks']}); connections lost and opened "
            f"again: {sum(f['lost'].values())} (error codes: {f['lost'] or '-'})")
        for e in f["events"]:
            out(f"  kill at {e['kill_at']:.1f} s: {VICTIM} held {e['conns']} client connection(s); bin/start.sh at "
                f"{e['restart_at']:.1f} s, answering after {e['start_s']:.1f} s (at {e['up_at']:.1f} s)")
        points = [m.groups() for m in (_INTERVAL.search(line) for line in f["timeline"]) if m]
        out("  sysbench every 10 s (s: qps, err/s, reconn/s): "
            + "; ".join(f"{s_}: {float(q):.0f}, {e}, {r}" for s_, q, e, r in points))
        out("  HAProxy sessions of the phase, per member (cut short: ended more than 3 s before the load did; "
            "termination states, S*: the member's side closed with data pending):")
        for m, v in f["sessions"].items():
            states = ", ".join(f"{k} {n}" for k, n in sorted(v["states"].items()))
            out(f"    {m:<8} {v['total']:>4} sessions, {v['early']:>3} cut short ({states})")
        out("  Inserting clients (one per member, straight at it, a connection per 10 rows every 0.25 s):")
        for m, t in f["inserters"].items():
            codes = {}
            for _, c, _ in t.errors:
                codes[c] = codes.get(c, 0) + 1
            span = (f", between {min(e[0] for e in t.errors):.1f} and {max(e[0] for e in t.errors):.1f} s"
                    if t.errors else "")
            out(f"    {m}: {t.batches} batches, {t.ok_rows} rows acknowledged, {len(t.errors)} failed batches "
                f"{codes or ''}{span}")
            for e in t.errors[:3]:
                out(f"      {e[0]:.1f} s: {e[2]}")
        k = f["keys"]
        out(f"  Keys on MariaDB: {k['rows']} rows (t_key_0 {k['by_table'][0]}, t_key_1 {k['by_table'][1]}), "
            f"{k['distinct']} distinct ids" + (f"; repeated: {k['dups']}" if k["dups"] else "; no duplicate"))
        for lv in k["lives"]:
            out(f"    {lv['member']} life {lv['life']}: worker id {lv['worker']}, {lv['rows']} rows, {lv['from']} .. "
                f"{lv['to']}")
        changes = f["changes"]
        applied = [c for c in changes if c["outcome"] == "applied"]
        ms = [c["ms"] for c in applied]
        lag = [c for c in applied if c["lagging"]]
        out(f"  Publications: {len(applied)} applied of {len(changes)} (RELOAD STRATA CONFIG on "
            f"{' / '.join(PUBLISHERS)}), versions {applied[0]['version'] if applied else '-'}.."
            f"{applied[-1]['version'] if applied else '-'}; answer median {statistics.median(ms):.0f} ms, max "
            f"{max(ms):.0f} ms" if ms else f"  Publications: none applied of {len(changes)}")
        for c in lag[:5]:
            out(f"    at {c['at']:.1f} s from {c['member']}: version {c['version']}, not yet on: "
                f"{', '.join(c['lagging'])}")
        for c in [c for c in changes if c["outcome"] != "applied"][:5]:
            out(f"    at {c['at']:.1f} s from {c['member']}: {c['outcome']}: {c['detail']}")
        for label, view in f["views"]:
            out(f"  SHOW STRATA CLUSTER ({label}): " + ("; ".join(f"{v[0]} v{v[1]} {v[2]} worker {v[3]}"
                                                             for v in view) or "no answer"))
        for m, lg in f["logs"].items():
            out(f"  {m}'s log in the phase: {lg['warn']} WARN, {lg['error']} ERROR")
            for msg in lg["messages"][:4]:
                out(f"    {msg}")
        csv_rows.append(["faults", "", "three", o.threads, o.ps_mode, o.faults_time, p.qps, p.p95, p.ignored_errors,
                         sum(f["lost"].values()), "", "", "", "", f["deadlocks"], "",
                         "ok" if f["rc"] == 0 else "FAILED",
                         f"{len(f['events'])} kill(s) of {VICTIM}; {len(applied)}/{len(changes)} publications; keys "
                         f"{k['rows']} rows {k['distinct']} distinct; inserter errors "
                         + " ".join(f"{m} {len(t.errors)}" for m, t in f["inserters"].items())
                         + "; HAProxy sessions cut short "
                         + " ".join(f"{m} {v['early']}" for m, v in f["sessions"].items())])

    def keep_lines(self):
        lines = []
        o = self.o
        for name, proc in self.procs.items():
            if proc.alive():
                lines.append(f"    Strata {name:<10} pid {proc.pid:<7} 127.0.0.1:{o.ports[name]}  (home "
                             f"{self.homes[name]})")
        for label, proc, port in (("HAProxy", self.haproxy, o.ports["haproxy"]),
                                  ("ZooKeeper", self.zk, o.ports["zookeeper"]),
                                  ("MariaDB", self.db.proc if self.db else None, o.ports["mariadb"])):
            if proc and proc.alive():
                lines.append(f"    {label:<17} pid {proc.pid:<7} 127.0.0.1:{port}")
        return lines


def haproxy_sessions(text, until):
    """Per server: sessions logged, those that ended more than 3 s before `until` (the epoch second the load
    stopped): cut short, those ended with a termination state S* (the server side closed with data pending), and the
    count of each state."""
    found = {}
    for line in text.splitlines():
        m = _TCPLOG.search(line)
        if not m or m.group(3) != "strata":
            continue
        accepted = time.mktime(time.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S")) + int(m.group(2)) / 1000
        ended = accepted + max(0, int(m.group(6))) / 1000
        v = found.setdefault(m.group(5), {"total": 0, "early": 0, "server_cut": 0, "states": {}})
        v["total"] += 1
        v["states"][m.group(7)] = v["states"].get(m.group(7), 0) + 1
        if m.group(7)[0] == "S":
            v["server_cut"] += 1
        if ended < until - 3:
            v["early"] += 1
    return dict(sorted(found.items()))


def install_zookeeper():
    """Debian's zookeeper package (the server's jar and its dependencies; it starts no service: zookeeperd would)."""
    if os.path.isfile(ZK_JAR):
        return []
    import shutil
    if not shutil.which("apt-get"):
        die(f"{ZK_JAR} is missing and there is no apt-get here: install ZooKeeper 3.x (Debian: zookeeper)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    say("Installing missing packages with apt-get: zookeeper")
    subprocess.run([*sudo, "apt-get", "update", "-q"], check=False)
    if subprocess.run([*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q",
                       "zookeeper"]).returncode != 0:
        die("apt-get install zookeeper failed")
    return ["zookeeper"]


def main(argv):
    bench = ClusterBench(Options(argv))
    o = bench.o
    with common.Session("strata-cluster", o.keep, bench.keep_lines,
                        keep_on_failure=("mariadb/data", "*-dist/*/lib", "zookeeper/data")) as s:
        bench.start_zookeeper(s)
        bench.start_mariadb(s)
        bench.start_strata(s, "standalone")
        for m in MEMBERS:
            bench.start_strata(s, m)
        bench.start_haproxy(s)
        bench.check_setup()
        if "cells" in o.phases:
            bench.warm_up(s)
            bench.run_cells(s)
        if "faults" in o.phases:
            bench.run_faults(s)
        if not bench.report(s):
            raise SystemExit(1)


if __name__ == "__main__":
    common.main(main)
