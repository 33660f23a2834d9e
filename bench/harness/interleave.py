"""Rounds of a cell through every target, the targets in a rotated order each round, and what the rounds add up to.

Round r of a cell starts with the r-th target, so that over as many rounds as there are targets none always runs
right after the same other one (a write-heavy cell leaves InnoDB purging for the next seconds). Per target: the
rounds' mean QPS and CPU seconds, the median p95, all errors, queries per CPU-second over all rounds, and the spread
(min-max) of the rounds' QPS; a round that fails fails the target's cell.
"""
from dataclasses import dataclass, field

from . import report


def rotated(items, by):
    """items turned left by `by` places."""
    n = len(items)
    return [items[(j + by) % n] for j in range(n)]


@dataclass
class Summary:
    status: str = "ok"
    note: str = ""
    qps: str = "0"         # mean over the rounds, "%.2f"; "0" when the cell failed
    p95: str = ""          # median over the rounds
    errors: int = 0
    cpu: str = ""          # mean CPU seconds of the measured process, "%.2f"
    db_cpu: str = ""
    jit: str = ""
    qpc: str = ""          # queries per CPU-second over all rounds, "%.0f"
    usr_us_q: str = ""     # user / kernel CPU microseconds per query, "%.1f"
    sys_us_q: str = ""
    qps_min: str = ""      # the spread of the rounds' QPS, as sysbench wrote them
    qps_max: str = ""
    queries: int = 0
    rounds: list = field(default_factory=list)


def summarize(results):
    """Summary of one target's CellResults of one cell, in round order."""
    s = Summary()
    n = len(results)
    qps = cpu = sys = jit = db = 0.0
    has_db = False
    for r_no, r in enumerate(results, 1):
        if not r.ok and s.status == "ok":
            s.status = r.status
            s.note = f"round {r_no}: {r.note}" if n > 1 else r.note
        elif r.note and not s.note:
            s.note = r.note
        qps += float(r.qps or 0)
        s.queries += r.queries or 0
        cpu += r.cpu or 0
        sys += r.sys or 0
        jit += r.jit or 0
        if r.db_cpu is not None:
            has_db = True
            db += r.db_cpu
        s.errors += r.errors
    s.rounds = list(results)
    s.cpu = f"{cpu / n:.2f}"
    s.db_cpu = f"{db / n:.2f}" if has_db else ""
    s.jit = f"{jit / n:.2f}"
    s.usr_us_q = report.per(cpu - sys, s.queries, 1e6, 1)
    s.sys_us_q = report.per(sys, s.queries, 1e6, 1)
    if s.status == "ok":
        s.qps = f"{qps / n:.2f}"
        s.p95 = report.median([r.p95 for r in results])
        s.qpc = report.per(s.queries, round(cpu, 2), 1, 0) if cpu > 0 else ""
        s.qps_min, s.qps_max = report.min_max([r.qps for r in results])
    return s


class Progress:
    """The running count of cells, "[ 3/48]"."""

    def __init__(self, total):
        self.total = total
        self.done = 0

    def next(self):
        self.done += 1
        return f"[{self.done:2d}/{self.total}]"


def run_rounds(targets, rounds, run_one, show):
    """Runs one cell through every target, `rounds` times, rotated. run_one(target, round) -> CellResult;
    show(target, round, result) prints its line. Returns {target: Summary} in the order of targets."""
    results = {t: [] for t in targets}
    for r in range(1, rounds + 1):
        for target in rotated(targets, r - 1):
            result = run_one(target, r)
            show(target, r, result)
            results[target].append(result)
    return {t: summarize(results[t]) for t in targets}
