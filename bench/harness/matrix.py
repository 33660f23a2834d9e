"""The sysbench matrix of bench/run.sh and bench/sharding/run.sh: the data set loaded once, an unrecorded warm-up
through every target, then workload x ps mode x threads, each cell through every target in rotated rounds."""
import glob
import os

from . import common, interleave
from .common import die, echo, say
from .sysbench import IGNORE_ERRORS, Sysbench


def sysbench_for(binary, tables, table_size):
    """sysbench with the options every call shares: the data set, the account, the tolerated errors."""
    return Sysbench(binary, ["--db-driver=mysql", "--mysql-host=127.0.0.1", "--mysql-user=sbtest",
                             "--mysql-password=sbtest", "--mysql-db=sbtest", f"--tables={tables}",
                             f"--table-size={table_size}", f"--mysql-ignore-errors={IGNORE_ERRORS}"])


def check_workloads(workloads):
    for w in workloads:
        if os.path.isdir("/usr/share/sysbench") and not os.path.isfile(f"/usr/share/sysbench/{w}.lua") \
                and not os.path.isfile(w):
            die(f"unknown sysbench workload '{w}' (see /usr/share/sysbench/*.lua)")


def check_options(o, known_targets, known_ps_modes, max_base_port):
    """The checks of the options every matrix scenario takes: cells, rounds, data set, ports, threads, targets and
    ps modes (o: the scenario's options, with its targets final)."""
    if o.time < 1:
        die("--time must be at least 1")
    if o.rounds < 1:
        die("--rounds must be at least 1")
    if o.tables < 1 or o.table_size < 1:
        die("--tables and --table-size must be at least 1")
    if not 1024 <= o.base_port <= max_base_port:
        die(f"--base-port must be in 1024..{max_base_port}")
    if any(t < 1 for t in o.threads):
        die("thread counts must be at least 1")
    for t in o.targets:
        if t not in known_targets:
            die(f"unknown target '{t}' (known: {' '.join(known_targets)})")
    for m in o.ps_modes:
        if m not in known_ps_modes:
            die(f"unknown ps-mode '{m}' (known: {' '.join(known_ps_modes)})")
    if not (o.targets and o.workloads and o.ps_modes and o.threads):
        die("--targets, --workloads, --threads and --ps-modes may not be empty")


def prepare(sb, session, db_port, tables):
    """sysbench's own prepare, straight to the server."""
    log = session.path("prepare.log")
    if sb.run(["oltp_read_write", f"--mysql-port={db_port}", f"--threads={min(tables, 4)}", "prepare"], log, 0,
              timeout=False) != 0:
        with open(log, errors="replace") as f:
            echo("\n".join(f.read().splitlines()[-20:]))
        die(f"sysbench prepare failed (log: {log})")


def _f2(v):
    return "-" if v is None else f"{v:.2f}"


class Matrix:
    """ports and pids: by target (pids: the process whose CPU a cell reports); names: what the messages and the
    CSV's cpu_process call each target's process; target_width: of the target column in the progress lines;
    show_sys: the progress lines show the kernel part of the proxy's CPU."""

    def __init__(self, sb, session, ports, pids, names, db_pid, secs, rounds, target_width=8, show_sys=True,
                 begin_as_text_ok=False):
        self.sb, self.s, self.ports, self.pids, self.names = sb, session, ports, pids, names
        self.db_pid, self.secs, self.rounds = db_pid, secs, rounds
        self.target_width, self.show_sys, self.begin_as_text_ok = target_width, show_sys, begin_as_text_ok

    def warm_up(self, targets, workloads, ps_modes, top_threads, secs, show_log=False):
        """Each workload at 8 threads, and oltp_point_select at the largest thread count when it is above 8, through
        each target in each ps mode, secs seconds per ps mode. Unrecorded: a failure only says so (the matrix will
        show it), with the end of its log when show_log."""
        for target in targets:
            for w in workloads:
                say(f"Warm-up (not recorded): {w}, 8 threads, {secs} s per ps mode ({' '.join(ps_modes)}) through "
                    f"{target}")
                self._warm_up_with(target, w, 8, secs, ps_modes, show_log)
            if top_threads > 8:
                say(f"Warm-up (not recorded): oltp_point_select, {top_threads} threads, {secs} s per ps mode through "
                    f"{target}")
                self._warm_up_with(target, "oltp_point_select", top_threads, secs, ps_modes, show_log)

    def _warm_up_with(self, target, workload, threads, secs, ps_modes, show_log):
        for ps in ps_modes:
            log = self.s.path(f"warmup-{target}-{workload}-{ps}.log")
            rc = self.sb.run([workload, f"--mysql-port={self.ports[target]}", f"--db-ps-mode={ps}",
                              f"--threads={threads}", f"--time={secs}", "run"], log, secs)
            if rc == 0:
                continue
            if not show_log:
                echo(f"    warm-up through {target} ({workload}, {ps}) failed (exit code {rc}); the matrix will show it")
                continue
            echo(f"    warm-up through {target} ({workload}, {ps}) failed (exit code {rc}); the matrix will show it; "
                 f"its log ends:")
            with open(log, errors="replace") as f:
                for line in [l for l in f.read().splitlines() if l][-5:]:
                    echo("      " + line)

    def log_of(self, w, ps, t, target, r):
        return self.s.path("cells", f"{w}-{ps}-{t}-{target}" + (f"-r{r}" if self.rounds > 1 else "") + ".log")

    def run(self, cells, targets, workload_args=lambda w: [w]):
        """cells: (workload, ps mode, threads). Returns {(workload, ps, threads, target): interleave.Summary} in the
        order of the cells, then of the targets."""
        total = len(cells) * len(targets) * self.rounds
        progress = interleave.Progress(total)
        results = {}
        for w, ps, t in cells:
            def run_one(target, r, w=w, ps=ps, t=t):
                return self.sb.cell([*workload_args(w), f"--mysql-port={self.ports[target]}", f"--db-ps-mode={ps}",
                                     f"--threads={t}"], self.log_of(w, ps, t, target, r), self.secs, ps,
                                    self.pids[target], self.names[target], db_pid=self.db_pid,
                                    begin_as_text_ok=self.begin_as_text_ok)

            def show(target, r, x, w=w, ps=ps, t=t):
                rr = f" r{r}" if self.rounds > 1 else ""
                cpu = f"(sys {_f2(x.sys):>5}, jit {_f2(x.jit):>5})" if self.show_sys else f"(jit {_f2(x.jit):>5})"
                echo(f"  {progress.next()} {w:<18} {ps:<7} {t:>3} thr {target:<{self.target_width}}{rr} qps "
                     f"{x.qps:>10}  p95 {x.p95 or '-':>7} ms  errors {x.errors:>4}  cpu {_f2(x.cpu):>6} s {cpu}  "
                     f"{x.status}{': ' + x.note if x.note else ''}")

            for target, summary in interleave.run_rounds(targets, self.rounds, run_one, show).items():
                results[(w, ps, t, target)] = summary
        return results

    def save_failed_logs(self, results, dest):
        """The temp folder goes away at the end: the sysbench output of every failed cell goes next to the results.
        Returns the targets that failed a cell."""
        failed = set()
        for (w, ps, t, target), x in results.items():
            if x.status != "ok":
                failed.add(target)
                base = self.s.path("cells", f"{w}-{ps}-{t}-{target}")
                common.copy_logs(dest, [base + ".log", *sorted(glob.glob(base + "-r*.log"))])
        return failed


def spread(out, results, rounds, width):
    """With rounds, the spread of each row's QPS over them (the table shows the means)."""
    if rounds < 2:
        return
    out()
    out(f"QPS over the {rounds} rounds (min-max):")
    for (w, ps, t, target), x in results.items():
        if x.status == "ok":
            out(f"  {w:<18} {ps:<7} {t:>4} {target:<{width}} {x.qps_min}-{x.qps_max}")
