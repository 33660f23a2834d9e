#!/usr/bin/env python3
"""bench/transports.sh: what Strata's client transports cost: TCP, the Unix domain socket (server.socket) and TCP with
the compressed protocol (CLIENT_COMPRESS, zlib), measured in one interleaved run.

One private MariaDB, sysbench's tables loaded into it, and one Strata from the distribution tarball with the empty rule
chain, listening on 127.0.0.1:<port> and on <temp folder>/strata.sock. Every cell (workload x ps mode x threads) runs
through three targets back to back, in rounds with the order rotated each round:

  tcp             sysbench --mysql-host=127.0.0.1 --mysql-port=<port>
  socket          sysbench --mysql-socket=<temp folder>/strata.sock (no host, no port)
  tcp-compressed  as tcp, with --mysql-compression=on

Per target and cell: QPS, p95, Strata's CPU seconds and queries per Strata CPU-second, and the bytes per query on the
loopback interface (/proc/net/dev "lo", received + transmitted). The ratios over tcp, per round, their mean and
spread; the goal: the socket at least as fast as TCP (mean QPS ratio >= 1.0 in every cell). bench/README.md explains
the method and the output.
"""
import glob
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import common, cpu, interleave, mariadb, matrix, report, targets  # noqa: E402
from harness.common import die, echo, say  # noqa: E402
from harness.sysbench import IGNORE_ERRORS, Interrupted, Sysbench  # noqa: E402

TARGETS = ["tcp", "socket", "tcp-compressed"]
ALL_WORKLOADS = ["oltp_point_select", "oltp_read_only"]
ALL_PS_MODES = ["auto", "disable"]
GOAL = 1.0   # socket QPS / tcp QPS, mean over the rounds, in every cell
_LOG_LEVEL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ (WARN|ERROR) +\[[^\]]*\] (.*)$")
_EXCEPTION = re.compile(r"^(?:Caused by: )?[\w.$]+(?:Exception|Error)\b")

SPEC = {
    "--workloads": ("list", "workloads"), "--ps-modes": ("list", "ps_modes"), "--threads": ("list", "threads"),
    "--time": ("value", "time"), "--rounds": ("value", "rounds"), "--warmup": ("value", "warmup"),
    "--tables": ("value", "tables"), "--table-size": ("value", "table_size"), "--strata-pool": ("value", "pool"),
    "--strata-dist": ("value", "dist"), "--base-port": ("value", "base_port"), "--keep": ("flag", "keep"),
}


def usage():
    return f"""Usage: bench/transports.sh [options]

sysbench through one Strata (the empty rule chain) over three transports, back to back in
every cell, rounds rotated:
  tcp             127.0.0.1:<port>
  socket          the Unix domain socket of server.socket (sysbench --mysql-socket)
  tcp-compressed  TCP with the compressed protocol (sysbench --mysql-compression=on)
Starts its own MariaDB (port 13506) and Strata (13507, and <temp folder>/strata.sock)
from the distribution tarball; installs sysbench, mariadb-server and mariadb-client with
apt-get when they are missing (the system MariaDB service, if any, is neither used nor
touched). Goal: the socket at least as fast as TCP (mean QPS ratio >= 1.0 in every cell).

Options (lists comma- or space-separated):
  --workloads LIST     sysbench scripts (default: {' '.join(ALL_WORKLOADS)})
  --ps-modes LIST      sysbench --db-ps-mode values, of: {' '.join(ALL_PS_MODES)} (default: both)
  --threads LIST       sysbench thread counts (client connections) (default: 4 64)
  --time SECONDS       measured seconds per cell (default 20)
  --rounds N           rounds of every cell, the targets back to back, the order rotated
                       each round (3 = each target first once) (default 3)
  --warmup SECONDS     unrecorded run through each target and workload at the largest
                       thread count before the cells, split over the ps modes (default 20;
                       0 = none)
  --tables N           sbtest tables (default 4)
  --table-size N       rows per table (default 10000)
  --strata-pool N      maximumPoolSize of Strata's data source (default 64)
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --base-port N        MariaDB on N, Strata on N+1 (default 13506)
  --keep               leave MariaDB and Strata running at the end and keep the temp
                       folder; prints how to stop them
  -h, --help           this help

Environment:
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java 21,
                       the newest JDK >= 21 under /usr/lib/jvm is used

Output: a table on the terminal, and bench/results/transports-<timestamp>.csv and .txt."""


class Options:
    def __init__(self, argv):
        a = common.Args(argv, SPEC, usage)
        self.command = common.command_line(argv)
        self.workloads = a.get("workloads", list(ALL_WORKLOADS))
        self.ps_modes = a.get("ps_modes", list(ALL_PS_MODES))
        self.threads = [common.whole(t) for t in a.get("threads", ["4", "64"])]
        self.time = common.whole(a.get("time", 20))
        self.rounds = common.whole(a.get("rounds", 3))
        self.warmup = common.whole(a.get("warmup", 20))
        self.tables = common.whole(a.get("tables", 4))
        self.table_size = common.whole(a.get("table_size", 10000))
        self.pool = common.whole(a.get("pool", 64))
        self.dist = a.get("dist", "")
        self.base_port = common.whole(a.get("base_port", 13506))
        self.keep = a.has("keep")
        self.targets = list(TARGETS)
        matrix.check_options(self, TARGETS, ALL_PS_MODES, 65534)
        if self.pool < 1:
            die("--strata-pool must be at least 1")
        self.ports = {"mariadb": self.base_port, "strata": self.base_port + 1}
        need_mb = self.tables * self.table_size * 1000 // 1048576 + 1
        self.buffer_pool = f"{max(need_mb, 256)}M"

    def cells(self):
        return [(w, ps, t) for w in self.workloads for ps in self.ps_modes for t in self.threads]


# ---- what the kernel says: loopback bytes, connections by transport ---------------------------------------------

def lo_bytes(text=None):
    """Received + transmitted bytes of the loopback interface, from /proc/net/dev (None when not found). On lo every
    byte sent is also received, so this is twice what crossed it, TCP/IP headers and ACKs included."""
    if text is None:
        text = common.read_text("/proc/net/dev")
    for line in text.splitlines():
        name, sep, rest = line.partition(":")
        if sep and name.strip() == "lo":
            f = rest.split()
            return int(f[0]) + int(f[8])
    return None


def tcp_established(port, texts=None):
    """Established TCP connections whose local port is `port` (Strata's side of its clients' connections), from
    /proc/net/tcp and tcp6."""
    if texts is None:
        texts = [common.read_text("/proc/net/tcp"), common.read_text("/proc/net/tcp6")]
    n = 0
    for text in texts:
        for line in text.splitlines()[1:]:
            f = line.split()
            if len(f) > 3 and f[3] == "01" and ":" in f[1] and int(f[1].rsplit(":", 1)[1], 16) == port:
                n += 1
    return n


def unix_connected(path, text=None):
    """Connected stream sockets bound to `path` in /proc/net/unix: the accepted side of each connection to the
    listener (the listener itself is not connected)."""
    if text is None:
        text = common.read_text("/proc/net/unix")
    n = 0
    for line in text.splitlines()[1:]:
        f = line.split()
        if len(f) >= 8 and f[7] == path and f[5] == "03":
            n += 1
    return n


class ConnectionSample:
    """Counts Strata's TCP and Unix socket client connections once, `delay` seconds after its start (the middle of a
    cell, when every sysbench thread is connected)."""

    def __init__(self, delay, port, sock):
        self.tcp = self.unix = None
        self.timer = threading.Timer(delay, self._sample, args=(port, sock))
        self.timer.daemon = True

    def _sample(self, port, sock):
        self.tcp, self.unix = tcp_established(port), unix_connected(sock)

    def start(self):
        self.timer.start()
        return self

    def finish(self):
        self.timer.cancel()
        self.timer.join(timeout=5)
        return self.tcp, self.unix


def transport_check(target, threads, tcp, unix):
    """(why the cell fails, a remark) from the connections seen mid-cell: the transport the target names must hold at
    least the sysbench threads (else the cell does not measure it: it fails); connections beyond them, on either
    transport, are someone else's (a remark: another client of this Strata during the cell)."""
    if tcp is None:
        return "transport check: no connection sample taken", ""
    mine, other = (unix, tcp) if target == "socket" else (tcp, unix)
    if mine < threads:
        return (f"transport check: {tcp} TCP and {unix} Unix socket connections to Strata mid-cell, expected "
                f"{threads} on {'the socket' if target == 'socket' else 'TCP'}"), ""
    if mine > threads or other > 0:
        return "", (f"{tcp} TCP and {unix} Unix socket connections to Strata mid-cell: {mine - threads + other} "
                    f"not sysbench's")
    return "", ""


def spread_of(values):
    """(max - min) / min of positive numbers, None for fewer than two."""
    v = [x for x in values if x]
    return (max(v) - min(v)) / min(v) if len(v) > 1 else None


# ---- Strata's log ------------------------------------------------------------------------------------------------

def scan_log(text):
    """WARN and ERROR lines (their messages, first 10 distinct) and exception lines ("...Exception: ...", "Caused by:")
    in a piece of Strata's log."""
    found = {"warn": 0, "error": 0, "exceptions": 0, "messages": []}
    for line in text.splitlines():
        m = _LOG_LEVEL.match(line)
        if m:
            found["warn" if m.group(1) == "WARN" else "error"] += 1
            msg = f"{m.group(1)} {m.group(2)}"
            if msg not in found["messages"] and len(found["messages"]) < 10:
                found["messages"].append(msg)
        elif _EXCEPTION.match(line.strip()):
            found["exceptions"] += 1
            if line.strip() not in found["messages"] and len(found["messages"]) < 10:
                found["messages"].append(line.strip())
    return found


def _children_cpu():
    """User + system CPU seconds of this process's children that have ended."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime





def _mean_spread(values, digits=3):
    """"1.023 (0.990-1.051)" of ratios given as text (blank ones skipped); "-" when none."""
    v = [float(x) for x in values if x not in ("", None)]
    if not v:
        return "-"
    if len(v) == 1:
        return f"{v[0]:.{digits}f}"
    return f"{statistics.mean(v):.{digits}f} ({min(v):.{digits}f}-{max(v):.{digits}f})"


def _stats(values):
    """(mean, min, max) of ratios given as text, as text with 3 decimals; blanks when not every round has one."""
    v = [float(x) for x in values if x not in ("", None)]
    if not v or len(v) != len(values):
        return "", "", ""
    return f"{statistics.mean(v):.3f}", f"{min(v):.3f}", f"{max(v):.3f}"


class TransportsBench:
    def __init__(self, o):
        self.o = o
        self.installed = common.install_missing()
        self.sysbench_bin = common.need_bin("sysbench", "sysbench")
        self.db_tools = mariadb.Tools()
        matrix.check_workloads(o.workloads)
        self.java = common.select_java()
        o.dist = common.locate_dist(o.dist)
        for name, port in o.ports.items():
            if common.port_in_use(port):
                die(f"port {port} ({name}) is in use; pick other ports with --base-port N (uses N and N+1)")
        if lo_bytes() is None:
            die("no loopback interface 'lo' in /proc/net/dev: the bytes per query cannot be measured")
        self.load, self.busy = common.load_and_busy()
        common.warn_busy(self.busy, "WARNING: the CPUs are {busy}% busy before the benchmark starts; results will be "
                                    "noisy.\n         Busiest processes (CPU% over their lifetime):")
        self.sb_direct = matrix.sysbench_for(self.sysbench_bin, o.tables, o.table_size)
        self.sock = None
        self.db = None
        self.strata = None
        self.home = None
        self.checks = []          # (what, ok, detail) of the logins before the cells
        self.results = {}         # (w, ps, t) -> {target: Summary}
        self.interrupted = ""     # why the run stopped before its last cell, if it did

    # ---- set-up ---------------------------------------------------------------------------------------------------

    def start(self, s):
        o = self.o
        self.db = mariadb.Server(self.db_tools, "MariaDB", s.path("mariadb"), o.ports["mariadb"])
        say(f"Creating a MariaDB data folder in {self.db.dir}/data")
        self.db.install()
        say(f"Starting MariaDB on 127.0.0.1:{self.db.port} (buffer pool {o.buffer_pool})")
        self.db.start(s, mariadb.bench_options(o.buffer_pool))
        self.db.sql(self.db.drop_anonymous_users() + """
            CREATE DATABASE sbtest;
            CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
            GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';""", "could not create the sbtest database and user")
        self.sock = s.path("strata.sock")
        if len(self.sock.encode()) > 107:
            die(f"the socket path {self.sock} is longer than a Unix socket address allows (107 bytes); set TMPDIR to "
                f"a shorter folder")
        server = ("# Written by bench/transports.sh: the distribution's defaults plus a Unix domain socket.\n"
                  f"server:\n  host: 127.0.0.1\n  port: {o.ports['strata']}\n  socket: {self.sock}\n"
                  "users:\n  - { name: sbtest, password: sbtest, databases: [sbtest], admin: true }\n")
        db = ("# Written by bench/transports.sh: the empty rule chain, i.e. a pass-through proxy.\n"
              "databaseName: sbtest\ndataSources:\n"
              + targets.data_source("ds_0", f"jdbc:mariadb://127.0.0.1:{self.db.port}/sbtest", o.pool)
              + "rules: []\n")
        java_opts = os.environ.get("STRATA_JAVA_OPTS", "")
        try:
            self.strata, self.home = targets.start_strata(s, self.db_tools, "Strata", o.dist, "strata",
                                                          o.ports["strata"], o.pool, server, db, java_opts)
        except targets.StartFailed as e:
            echo("\n".join(e.output.strip().splitlines()[-30:]))
            die(f"Strata did not start or does not answer on port {o.ports['strata']} (log: {e.home}/logs/)")
        self.sb = {
            "tcp": Sysbench(self.sysbench_bin, self._common_args("--mysql-host=127.0.0.1",
                                                                 f"--mysql-port={o.ports['strata']}")),
            "socket": Sysbench(self.sysbench_bin, self._common_args(f"--mysql-socket={self.sock}")),
            "tcp-compressed": Sysbench(self.sysbench_bin, self._common_args(
                "--mysql-host=127.0.0.1", f"--mysql-port={o.ports['strata']}", "--mysql-compression=on")),
        }
        self.check_logins()

    def _common_args(self, *where):
        o = self.o
        return ["--db-driver=mysql", *where, "--mysql-user=sbtest", "--mysql-password=sbtest", "--mysql-db=sbtest",
                f"--tables={o.tables}", f"--table-size={o.table_size}", f"--mysql-ignore-errors={IGNORE_ERRORS}"]

    def _client_status(self, *how):
        """The mariadb client's `status` through Strata: its Connection and Protocol lines say the transport and whether
        the compressed protocol is in effect."""
        r = subprocess.run([self.db_tools.client, "--no-defaults", *how, "-usbtest", "-psbtest", "sbtest", "-e",
                            "status"], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
        return r.returncode, (r.stdout + r.stderr).strip()

    def check_logins(self):
        """One login per transport with the mariadb client before the cells: the socket must be a Unix socket
        connection, the compressed one must show the compressed protocol. A failure is reported, not fatal: the
        cells then show what sysbench gets."""
        o = self.o
        say("Checking one login per transport with the mariadb client (its status command)")
        tcp = ("--protocol=TCP", "-h127.0.0.1", f"-P{o.ports['strata']}")
        for what, how, want in (("tcp", tcp, "TCP/IP"),
                                ("socket", ("--protocol=SOCKET", f"-S{self.sock}"), "UNIX socket"),
                                ("tcp-compressed", (*tcp, "-C"), "Compressed")):
            rc, out = self._client_status(*how)
            lines = [l.strip() for l in out.splitlines() if l.strip().startswith(("Connection:", "Protocol:"))]
            ok = rc == 0 and any(want in l for l in lines)
            if what == "tcp" and any("Compressed" in l for l in lines):
                ok = False
            detail = "; ".join(" ".join(l.split()) for l in lines) if rc == 0 else out.replace("\n", " ")[:300]
            self.checks.append((what, ok, detail))
            echo(f"    {what:<15} {'ok' if ok else 'FAILED'}: {detail}")

    def strata_log(self):
        return os.path.join(self.home, "logs", "strata.log")

    # ---- cells ----------------------------------------------------------------------------------------------------

    def prepare(self, s):
        o = self.o
        say(f"Loading the data set: {o.tables} tables x {o.table_size} rows (sysbench prepare, direct)")
        matrix.prepare(self.sb_direct, s, self.db.port, o.tables)

    def warm_up(self, s):
        """Each target, each workload, at the largest thread count, warmup seconds split over the ps modes: the JIT
        compiles the socket's and the compression's paths as well as TCP's before the first measured cell."""
        o = self.o
        if o.warmup <= 0:
            return
        secs = -(-o.warmup // len(o.ps_modes))
        top = max(o.threads)
        for target in TARGETS:
            for w in o.workloads:
                say(f"Warm-up (not recorded): {w}, {top} threads, {secs} s per ps mode ({' '.join(o.ps_modes)}) "
                    f"through {target}")
                for ps in o.ps_modes:
                    log = s.path(f"warmup-{target}-{w}-{ps}.log")
                    rc = self.sb[target].run([w, f"--db-ps-mode={ps}", f"--threads={top}", f"--time={secs}", "run"],
                                             log, secs)
                    if rc != 0:
                        echo(f"    warm-up through {target} ({w}, {ps}) failed (exit code {rc}); the cells will show "
                             f"it; its log ends:")
                        for line in [l for l in common.read_text(log).splitlines() if l][-5:]:
                            echo("      " + line)

    def log_of(self, s, w, ps, t, target, r):
        return s.path("cells", f"{w}-{ps}-{t}-{target}-r{r}.log")

    def run_cell(self, s, w, ps, t, target, r):
        o = self.o
        log_from = common.file_size(self.strata_log())
        sample = ConnectionSample(o.time / 2, o.ports["strata"], self.sock).start()
        lo_before, machine_before, children_before = lo_bytes(), cpu.machine(), _children_cpu()
        try:
            x = self.sb[target].cell([w, f"--db-ps-mode={ps}", f"--threads={t}"], self.log_of(s, w, ps, t, target, r),
                                     o.time, ps, self.strata.pid, "Strata", db_pid=self.db.pid())
        finally:
            lo_after, machine_after, children_after = lo_bytes(), cpu.machine(), _children_cpu()
            tcp, unix = sample.finish()
        # sysbench is this run's only child that ends during the cell: the children's CPU that grew is its own.
        client = children_after - children_before
        busy = (machine_after[0] - machine_before[0]) / cpu.CLK_TCK
        x.extra.update(lo_bytes=lo_after - lo_before, tcp=tcp, unix=unix, client_cpu=client,
                       other_cpu=busy - (x.cpu or 0) - (x.db_cpu or 0) - client,
                       log=scan_log(common.read_from(self.strata_log(), log_from)))
        if x.ok and x.errors > 0:
            x.status, x.note = "FAILED", f"{x.errors} sysbench error(s) (ignored errors + reconnects)"
        why, remark = transport_check(target, t, tcp, unix)
        x.extra["remark"] = remark
        if x.ok and why:
            x.status, x.note = "FAILED", why
        return x

    def run(self, s):
        o = self.o
        cells = o.cells()
        total = len(cells) * len(TARGETS) * o.rounds
        progress = interleave.Progress(total)
        say(f"Running {total} cells of {o.time} s ({len(cells)} cells x {len(TARGETS)} targets x {o.rounds} rounds; "
            f"about {total * (o.time + 2) // 60 + 1} min)")
        for w, ps, t in cells:
            def show(target, r, x, w=w, ps=ps, t=t):
                bpq = report.per(x.extra["lo_bytes"], x.queries, 1, 0) if x.queries else "-"
                lg = x.extra["log"]
                echo(f"  {progress.next()} {w:<18} {ps:<7} {t:>3} thr {target:<14} r{r} qps {x.qps:>10}  p95 "
                     f"{x.p95 or '-':>7} ms  errors {x.errors:>3}  cpu {report.fixed(x.cpu, 2) or '-':>6} s  "
                     f"sysbench {x.extra['client_cpu']:5.2f} s  other {x.extra['other_cpu']:5.2f} s  lo "
                     f"{bpq:>6} B/q  conns tcp/unix {x.extra['tcp']}/{x.extra['unix']}  log "
                     f"{lg['warn']}/{lg['error']}/{lg['exceptions']}  {x.status}{': ' + x.note if x.note else ''}"
                     f"{'  (' + x.extra['remark'] + ')' if x.extra['remark'] else ''}")

            self.results[(w, ps, t)] = interleave.run_rounds(
                TARGETS, o.rounds, lambda target, r, w=w, ps=ps, t=t: self.run_cell(s, w, ps, t, target, r), show)

    # ---- report ---------------------------------------------------------------------------------------------------

    @staticmethod
    def bytes_per_query(summary):
        """Loopback bytes (rx + tx) per query over all rounds; blank when the cell failed."""
        if summary.status != "ok":
            return ""
        return report.per(sum(x.extra["lo_bytes"] for x in summary.rounds), summary.queries, 1, 0)

    @staticmethod
    def round_ratios(me, tcp, what):
        """me over tcp, per round (the targets of a round ran back to back): "qps", "qpc" (queries per Strata
        CPU-second) or "bpq" (loopback bytes per query); blank for a round in which either failed."""
        out = []
        for a, b in zip(me.rounds, tcp.rounds):
            if not (a.ok and b.ok):
                out.append("")
            elif what == "qps":
                out.append(report.ratio(a.qps, b.qps))
            elif what == "qpc":
                out.append(report.ratio(report.per(a.queries, a.cpu, 1, 3), report.per(b.queries, b.cpu, 1, 3)))
            else:
                out.append(report.ratio(report.per(a.extra["lo_bytes"], a.queries, 1, 3),
                                        report.per(b.extra["lo_bytes"], b.queries, 1, 3)))
        return out

    def client_bytes(self, cell, target):
        """The client side's loopback bytes per query: the target's minus the socket cell's, whose lo traffic is
        Strata<->MariaDB alone (the same queries, so the same backend traffic); blank when either failed."""
        sm = self.results[cell]
        a, sock = self.bytes_per_query(sm[target]), self.bytes_per_query(sm["socket"])
        if a == "" or sock == "":
            return ""
        return f"{float(a) - float(sock):.0f}"

    def goal(self):
        """(cells that hold, cells that do not, cells without a ratio) for the mean socket/tcp QPS >= GOAL."""
        held, missed, unknown = [], [], []
        for cell, sm in self.results.items():
            mean, _, _ = _stats(self.round_ratios(sm["socket"], sm["tcp"], "qps"))
            if mean == "":
                unknown.append(cell)
            elif float(mean) >= GOAL:
                held.append((cell, mean))
            else:
                missed.append((cell, mean))
        return held, missed, unknown

    def write_csv(self, path):
        header = ("workload,ps_mode,threads,target,rounds,seconds,qps,qps_min,qps_max,p95_ms,queries,errors,"
                  "strata_cpu_s,qps_per_strata_cpu_s,strata_user_us_per_query,strata_system_us_per_query,"
                  "strata_jit_cpu_s,db_cpu_s,lo_bytes_per_query,client_lo_bytes_per_query,tcp_conns_mid_cell,"
                  "unix_conns_mid_cell,strata_log_warn,strata_log_error,strata_log_exceptions,"
                  "over_tcp_qps,over_tcp_qps_min,over_tcp_qps_max,over_tcp_qps_per_strata_cpu_s,"
                  "over_tcp_qps_per_strata_cpu_s_min,over_tcp_qps_per_strata_cpu_s_max,over_tcp_lo_bytes_per_query,"
                  "over_tcp_lo_bytes_per_query_min,over_tcp_lo_bytes_per_query_max,sysbench_cpu_s,other_cpu_s,"
                  "lo_bytes_per_query_round_spread,status,note,remarks")
        rows = []
        o = self.o
        for (w, ps, t), sm in self.results.items():
            for target in TARGETS:
                x = sm[target]
                ratios = ["" for _ in range(9)]
                if target != "tcp":
                    ratios = [*_stats(self.round_ratios(x, sm["tcp"], "qps")),
                              *_stats(self.round_ratios(x, sm["tcp"], "qpc")),
                              *_stats(self.round_ratios(x, sm["tcp"], "bpq"))]
                tcp_seen = ";".join(str(r.extra["tcp"]) for r in x.rounds)
                unix_seen = ";".join(str(r.extra["unix"]) for r in x.rounds)
                lg = [sum(r.extra["log"][k] for r in x.rounds) for k in ("warn", "error", "exceptions")]
                bpq_spread = self.bpq_spread(x)
                rows.append([w, ps, t, target, o.rounds, o.time, x.qps, x.qps_min, x.qps_max, x.p95, x.queries,
                             x.errors, x.cpu, x.qpc, x.usr_us_q, x.sys_us_q, x.jit, x.db_cpu,
                             self.bytes_per_query(x), self.client_bytes((w, ps, t), target), tcp_seen, unix_seen,
                             *lg, *ratios, f"{self.mean_extra(x, 'client_cpu'):.2f}",
                             f"{self.mean_extra(x, 'other_cpu'):.2f}",
                             "" if bpq_spread is None else f"{bpq_spread:.3f}", x.status, x.note,
                             "; ".join(f"r{i} {r.extra['remark']}" for i, r in enumerate(x.rounds, 1)
                                       if r.extra["remark"])])
        report.write_csv(path, header, rows)

    @staticmethod
    def mean_extra(x, key):
        return statistics.mean(r.extra[key] for r in x.rounds)

    @staticmethod
    def bpq_spread(x):
        """How far the rounds' loopback bytes per query lie apart, (max - min) / min: the same queries send the same
        bytes, so more than a few percent means someone else used the loopback during a round."""
        return spread_of([r.extra["lo_bytes"] / r.queries for r in x.rounds if r.ok and r.queries])

    def table(self, out):
        fmt = "%-18s %-7s %4s %-14s %10s %13s %8s %6s %7s %8s %6s %7s %7s %7s %7s %9s  %s"
        out(fmt % ("workload", "ps", "thr", "target", "qps", "qps min-max", "p95_ms", "errors", "cpu_s", "q/cpu_s",
                   "sb_s", "other_s", "lo_B/q", "cli_B/q", "tcp/unx", "log w/e/x", "status"))
        for (w, ps, t), sm in self.results.items():
            for target in TARGETS:
                x = sm[target]
                conns = ",".join(sorted({f"{r.extra['tcp']}/{r.extra['unix']}" for r in x.rounds}))
                lg = "/".join(str(sum(r.extra["log"][k] for r in x.rounds)) for k in ("warn", "error", "exceptions"))
                spread = f"{float(x.qps_min):.0f}-{float(x.qps_max):.0f}" if x.qps_min else "-"
                out(fmt % (w, ps, t, target, x.qps, spread, x.p95 or "-", x.errors, x.cpu or "-", x.qpc or "-",
                           f"{self.mean_extra(x, 'client_cpu'):.2f}", f"{self.mean_extra(x, 'other_cpu'):.2f}",
                           self.bytes_per_query(x) or "-", self.client_bytes((w, ps, t), target) or "-", conns, lg,
                           x.status))

    def per_round(self, out):
        """Every round of every target: the figures the means come from."""
        out("Per round (qps, Strata / sysbench / other CPU seconds, loopback bytes per query, TCP/Unix connections "
            "mid-cell):")
        for (w, ps, t), sm in self.results.items():
            for target in TARGETS:
                parts = []
                for i, r in enumerate(sm[target].rounds, 1):
                    bpq = f"{r.extra['lo_bytes'] / r.queries:.0f}" if r.queries else "-"
                    parts.append(f"r{i} {r.qps} q/s {report.fixed(r.cpu, 2) or '-'}/{r.extra['client_cpu']:.2f}/"
                                 f"{r.extra['other_cpu']:.2f} s {bpq} B/q {r.extra['tcp']}/{r.extra['unix']}"
                                 + ("" if r.ok else " FAILED"))
                out(f"  {w:<18} {ps:<7} {t:>4} {target:<14} " + "; ".join(parts))

    def disturbances(self, out):
        """Signs that something else shared the machine during a cell: rounds whose loopback bytes per query differ by
        more than 5%, connections to Strata that were not sysbench's."""
        lines = []
        for (w, ps, t), sm in self.results.items():
            for target in TARGETS:
                x = sm[target]
                sp = self.bpq_spread(x)
                if sp is not None and sp > 0.05:
                    lines.append(f"  {w} {ps} {t} {target}: loopback bytes per query differ by {100 * sp:.0f}% between "
                                 f"rounds (other traffic on lo: its lo_B/q and B/q ratios are off)")
                for i, r in enumerate(x.rounds, 1):
                    if r.extra["remark"]:
                        lines.append(f"  {w} {ps} {t} {target} r{i}: {r.extra['remark']}")
        if lines:
            out("Signs of other load during the cells:")
            for line in lines:
                out(line)
            out()

    def ratio_table(self, out):
        fmt = "%-18s %-7s %4s  %-21s %-21s  %-21s %-21s %-21s"
        out(fmt % ("workload", "ps", "thr", "socket/tcp qps", "socket/tcp q/cpu", "compr/tcp qps", "compr/tcp q/cpu",
                   "compr/tcp lo_B/q"))
        for (w, ps, t), sm in self.results.items():
            tcp = sm["tcp"]
            out(fmt % (w, ps, t, _mean_spread(self.round_ratios(sm["socket"], tcp, "qps")),
                       _mean_spread(self.round_ratios(sm["socket"], tcp, "qpc")),
                       _mean_spread(self.round_ratios(sm["tcp-compressed"], tcp, "qps")),
                       _mean_spread(self.round_ratios(sm["tcp-compressed"], tcp, "qpc")),
                       _mean_spread(self.round_ratios(sm["tcp-compressed"], tcp, "bpq"))))

    def compression_lines(self, out):
        """The client side's bytes per query, uncompressed and compressed, and the saving."""
        out("Client side (Strata<->sysbench) loopback bytes per query: the target's lo_B/q minus the socket cell's")
        out("(whose lo traffic is Strata<->MariaDB alone, the same in every target):")
        for cell, sm in self.results.items():
            w, ps, t = cell
            a, c = self.client_bytes(cell, "tcp"), self.client_bytes(cell, "tcp-compressed")
            if not (a and c) or float(a) <= 0:
                change = "-"
            elif float(c) <= float(a):
                change = f"saves {100 * (1 - float(c) / float(a)):.0f}% of the client side's bytes"
            else:
                change = f"{100 * (float(c) / float(a) - 1):.0f}% MORE bytes on the client side"
            out(f"  {w:<18} {ps:<7} {t:>4}  tcp {a or '-':>6}  tcp-compressed {c or '-':>6}  compression {change}")

    def log_summary(self, out):
        """Strata's WARN / ERROR / exception lines over the whole run (warm-up included), first 10 distinct."""
        text = common.read_text(self.strata_log())
        found = scan_log(text)
        stdout = scan_log(common.read_text(os.path.join(self.home, "logs", "stdout.log")))
        out(f"Strata's log over the whole run (logs/strata.log, warm-up included): {found['warn']} WARN, "
            f"{found['error']} ERROR, {found['exceptions']} exception lines; logs/stdout.log: "
            f"{stdout['exceptions']} exception lines")
        for m in found["messages"]:
            out(f"  {m[:240]}")
        return found["warn"] + found["error"] + found["exceptions"] + stdout["exceptions"]

    def report(self, s):
        o = self.o
        csv, txt, failed_dir = common.results_paths(f"transports-{common.stamp()}")
        self.write_csv(csv)
        out = report.Tee()
        out()
        self.machine_info(out)
        out()
        if self.interrupted:
            out(f"INTERRUPTED ({self.interrupted}) after {len(self.results)} of {len(o.cells())} cells: this report "
                f"covers the cells that finished all their rounds.")
            out()
        self.table(out)
        report.failed_cells(out, [((w, ps, t, target), x.status, x.note)
                                  for (w, ps, t), sm in self.results.items() for target, x in sm.items()])
        out()
        self.per_round(out)
        out()
        self.disturbances(out)
        out(f"Ratios over tcp in the same cell, per round, then their mean (min-max over {o.rounds} round(s)):")
        self.ratio_table(out)
        out()
        self.compression_lines(out)
        out()
        held, missed, unknown = self.goal()
        total = len(self.results)
        verdict = "holds" if not missed and not unknown else "does not hold"
        out(f"Goal: socket at least as fast as TCP (mean socket/tcp QPS >= {GOAL:.1f} in every cell): {verdict}; "
            f"{len(held)} of {total} cells hold" + (" (an interrupted run: not every cell ran)" if self.interrupted
                                                    else ""))
        if held:
            out("  hold:    " + ", ".join(f"{w} {ps} {t} ({m})" for (w, ps, t), m in held))
        if missed:
            out("  miss:    " + ", ".join(f"{w} {ps} {t} ({m})" for (w, ps, t), m in missed))
        if unknown:
            out("  no ratio (a failed round): " + ", ".join(f"{w} {ps} {t}" for w, ps, t in unknown))
        out()
        problems = self.log_summary(out)
        failed = [(cell, target) for cell, sm in self.results.items() for target, x in sm.items() if x.status != "ok"]
        if failed or problems or not all(ok for _, ok, _ in self.checks):
            for (w, ps, t), target in failed:
                common.copy_logs(failed_dir, sorted(glob.glob(s.path("cells", f"{w}-{ps}-{t}-{target}-r*.log"))))
            common.copy_logs(failed_dir, sorted(glob.glob(os.path.join(self.home, "logs", "*.log"))), "strata-")
            out(f"Logs (Strata's, and sysbench's of the failed cells): {failed_dir}")
        out()
        out("qps: mean over the rounds (min-max beside it); p95_ms: median of the rounds' 95th percentile event latency")
        out("(an event: 1 query for point select, 16 for read-only). errors: sysbench's ignored errors + reconnects;")
        out("any error fails the cell. cpu_s: Strata's CPU seconds (user+system) per cell, mean; q/cpu_s: queries per")
        out("Strata CPU-second over all rounds. lo_B/q: bytes counted on the loopback interface (/proc/net/dev, rx +")
        out("tx: every byte twice, with TCP/IP headers and ACKs) per query, over all rounds. It counts the")
        out("Strata<->MariaDB traffic too, which is the same in every target (the backend connections are never")
        out("compressed); the socket's lo_B/q is that traffic alone, so the difference per query between tcp and")
        out("tcp-compressed is the client side's saving. cli_B/q: lo_B/q minus the socket's, the client side's share.")
        out("sb_s: sysbench's CPU seconds per cell (the client side, zlib included), mean; other_s: the machine's busy")
        out("CPU seconds minus Strata's, MariaDB's and sysbench's (kernel softirq work for the loopback, and any")
        out("other process: well above the other cells' means someone else used the machine).")
        out("tcp/unx: Strata's established TCP / connected Unix socket client connections mid-cell (per round,")
        out("distinct values). log w/e/x: WARN / ERROR / exception lines in Strata's log during the cells.")
        out("Ratios: per round (the three targets of a round ran back to back), over tcp; q/cpu is the steadier")
        out("one on a shared machine, QPS moves with who won the race for the cores.")
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
        out(f"Java:      {report.first_line([self.java, '-version'])} ({self.java})")
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(o.dist)))
        out(f"Strata:    {o.dist} (built {built}; pool {o.pool}, STRATA_JAVA_OPTS="
            f"{targets.java_opts_shown(os.environ.get('STRATA_JAVA_OPTS'))})")
        out(f"           rules: [], 127.0.0.1:{o.ports['strata']} and socket {self.sock}")
        out(f"Before:    CPUs {self.busy}% busy in the second before start; load average {self.load}")
        if self.installed:
            out(f"Installed: {' '.join(self.installed)} (apt-get, by this run)")
        out(f"Data set:  {o.tables} tables x {o.table_size} rows, MariaDB buffer pool {o.buffer_pool}; {o.time} s per "
            f"cell, {o.rounds} round(s), targets rotated; {o.warmup} s warm-up per target and workload")
        out("Logins:    " + "; ".join(f"{what} {'ok' if ok else 'FAILED'} ({detail})"
                                      for what, ok, detail in self.checks))

    def keep_lines(self):
        lines = []
        if self.db and self.db.proc and self.db.proc.alive():
            lines.append(f"    MariaDB  pid {self.db.proc.pid}  127.0.0.1:{self.db.port}  (socket {self.db.sock})")
        if self.strata and self.strata.alive():
            lines.append(f"    Strata   pid {self.strata.pid}  127.0.0.1:{self.o.ports['strata']}  and {self.sock}  "
                         f"(home {self.home})")
            lines.append(f"    connect: {self.db_tools.client} -S{self.sock} -usbtest -psbtest sbtest")
        return lines


def main(argv):
    bench = TransportsBench(Options(argv))
    with common.Session("strata-transports", bench.o.keep, bench.keep_lines,
                        keep_on_failure=("mariadb/data", "strata-dist/lib", "strata-dist/*/lib")) as s:
        bench.start(s)
        bench.prepare(s)
        bench.warm_up(s)
        try:
            bench.run(s)
        except (SystemExit, KeyboardInterrupt, Interrupted) as e:
            # Stopped part way (Ctrl-C, a TERM): the cells that finished all their rounds are still reported.
            if bench.results:
                bench.interrupted = f"{type(e).__name__} {getattr(e, 'code', '') or ''}".strip()
                bench.report(s)
            raise
        bench.report(s)


if __name__ == "__main__":
    common.main(main)
