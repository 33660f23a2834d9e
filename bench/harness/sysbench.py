"""sysbench: running one cell and reading its output.

A cell fails (QPS 0, no p95) when sysbench exits non-zero, prints a FATAL or ALERT line, prints no result, does not
finish within its time plus 60 s, or, in ps mode "auto", fell back to the text protocol because the server refused to
prepare a statement (it says "using emulation" with --verbosity=4): comparing that with the other targets'
binary-protocol cells would be wrong.
"""
import re
import signal
import subprocess
from dataclasses import dataclass, field

from . import cpu

# The errors sysbench's OLTP scripts tolerate (deadlock, lock wait timeout, record changed): "ignored errors".
IGNORE_ERRORS = "1213,1205,1020"
TIMEOUT_RC = 124

_QUERIES = re.compile(r"^\s+queries:\s+(\d+)\s+\(([0-9.]+) per sec", re.M)
_P95 = re.compile(r"95th percentile:\s+(\S+)")
_IGNORED = re.compile(r"ignored errors:\s+(\d+)")
_RECONNECTS = re.compile(r"reconnects:\s+(\d+)")
_FATAL = re.compile(r"^.*(?:FATAL|ALERT).*$", re.M)
_FALLBACK = re.compile(r"^.*using emulation.*$", re.M)
_REFUSED = re.compile(r'Failed to prepare query "([^"]*)"')
_ERROR_CODE = re.compile(r"\((\d+): ")


class Interrupted(Exception):
    """sysbench catches Ctrl-C and exits 130 itself: the run must stop rather than go on with the next cell."""

    def __init__(self, rc):
        super().__init__(f"interrupted (exit code {rc})")
        self.rc = rc


@dataclass(frozen=True)
class Output:
    queries: int = 0
    qps: str = ""          # as sysbench prints it, "12345.67"; "" when it printed no result
    p95: str = ""
    ignored_errors: int = 0
    reconnects: int = 0
    fatal: str = ""        # the first FATAL or ALERT line
    fallback: str = ""     # the first "using emulation" line
    refused: frozenset = frozenset()   # statements the server refused to prepare
    last_line: str = ""

    @property
    def has_result(self):
        return self.qps != ""

    @property
    def errors(self):
        return self.ignored_errors + self.reconnects


def parse(text):
    q = _QUERIES.search(text)
    p = _P95.search(text)
    ign = _IGNORED.search(text)
    rec = _RECONNECTS.search(text)
    fatal = _FATAL.search(text)
    fallback = _FALLBACK.search(text)
    lines = text.rstrip("\n").split("\n")
    return Output(
        queries=int(q.group(1)) if q else 0,
        qps=q.group(2) if q else "",
        p95=p.group(1) if p else "",
        ignored_errors=int(ign.group(1)) if ign else 0,
        reconnects=int(rec.group(1)) if rec else 0,
        fatal=fatal.group(0) if fatal else "",
        fallback=fallback.group(0) if fallback else "",
        refused=frozenset(m.group(1) for line in _FALLBACK.findall(text) for m in _REFUSED.finditer(line)),
        last_line=lines[-1] if lines else "",
    )


@dataclass
class Verdict:
    status: str = "ok"     # ok or FAILED
    note: str = ""
    qps: str = "0"
    p95: str = ""
    queries: int = 0
    errors: int = 0


def judge(out, rc, ps_mode, secs, begin_as_text_ok=False):
    """The verdict on one sysbench run. begin_as_text_ok: a prepared-statement cell in which the server refused to
    prepare only BEGIN (ShardingSphere-Proxy 5.1: error 1295) counts, with a note; sysbench's fallback is per
    statement, so every other statement still ran prepared."""
    v = Verdict(queries=out.queries, errors=out.errors, qps=out.qps or "0", p95=out.p95)
    if rc != 0 or out.fatal or not out.has_result:
        v.status = "FAILED"
        if rc in (TIMEOUT_RC, 137):
            v.note = f"sysbench did not finish within {secs + 60} s"
        elif out.fatal:
            v.note = out.fatal.lstrip()[:160]
        else:
            v.note = f"sysbench exit code {rc}: {out.last_line[:120]}"
        if out.fallback:
            v.note += "; also: prepared statements refused"
        v.qps, v.p95 = "0", ""
        return v
    if out.fallback and ps_mode == "auto":
        if begin_as_text_ok and out.refused == {"BEGIN"}:
            v.note = "BEGIN sent as text (the proxy refused to prepare it: error 1295); all other statements prepared"
            return v
        code = _ERROR_CODE.search(out.fallback)
        v.status = "FAILED"
        v.note = (f"server refused COM_STMT_PREPARE (error {code.group(1) if code else '?'}); sysbench fell back to the "
                  f"text protocol: {out.qps} qps, p95 {out.p95} ms (not counted)")
        v.qps, v.p95 = "0", ""
    return v


@dataclass
class CellResult:
    """One sysbench run through one target, with the CPU it cost."""
    status: str = "ok"
    note: str = ""
    qps: str = "0"
    p95: str = ""
    queries: int = 0
    errors: int = 0
    cpu: float = None          # CPU seconds of the measured process tree (the proxy; for direct, the server)
    sys: float = None          # of it, kernel time
    jit: float = None          # of it, the JIT compiler threads'
    db_cpu: float = None       # the database server's CPU seconds
    busy: int = None           # how busy the machine's CPUs were, percent
    extra: dict = field(default_factory=dict)

    @property
    def ok(self):
        return self.status == "ok"


class Sysbench:
    def __init__(self, binary, common_args):
        self.binary = binary
        self.common = list(common_args)

    def run(self, args, log, secs, timeout=True):
        """Runs sysbench with the common arguments and args, output to the file log; returns its exit code (124 when
        it did not finish within secs + 60 s). Raises Interrupted when sysbench was interrupted."""
        with open(log, "w") as out:
            p = subprocess.Popen([self.binary, *args[:1], *self.common, *args[1:]], stdout=out,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            try:
                rc = p.wait(timeout=secs + 60 if timeout else None)
            except subprocess.TimeoutExpired:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                rc = TIMEOUT_RC
            except BaseException:
                p.kill()
                p.wait()
                raise
        if rc in (130, 143, -signal.SIGINT, -signal.SIGTERM):
            raise Interrupted(130 if rc in (130, -signal.SIGINT) else 143)
        return rc

    def cell(self, args, log, secs, ps_mode, pid, name, db_pid=None, begin_as_text_ok=False):
        """One measured cell: sysbench with args ("--verbosity=4" and the percentile are added) through a target whose
        process tree pid is measured (name: what the messages call it; no pid: none), and db_pid's CPU beside it."""
        if pid is not None and not cpu.is_alive(pid):
            return CellResult(status="FAILED", note=f"{name} process (pid {pid}) is gone")
        meter = cpu.Meter({"proxy": pid, "db": db_pid})
        before = meter.sample()
        rc = self.run([*args, f"--time={secs}", "--report-interval=0", "--percentile=95", "--verbosity=4", "run"],
                      log, secs)
        used, busy = cpu.Meter.delta(before, meter.sample())
        with open(log, errors="replace") as f:
            v = judge(parse(f.read()), rc, ps_mode, secs, begin_as_text_ok)
        proxy = used.get("proxy")
        return CellResult(status=v.status, note=v.note, qps=v.qps, p95=v.p95, queries=v.queries, errors=v.errors,
                          cpu=cpu.seconds(proxy.total) if proxy else None,
                          sys=cpu.seconds(proxy.system) if proxy else None,
                          jit=cpu.seconds(proxy.jit) if proxy else None,
                          db_cpu=cpu.seconds(used["db"].total) if "db" in used else None, busy=busy)
