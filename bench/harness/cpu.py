"""CPU accounting from /proc: the CPU seconds a process tree used during a cell, and how busy the machine was.

/proc/PID/stat is "pid (comm) state ppid ... utime stime ...": the command name may hold spaces and parentheses,
so the fields are counted after the last ")" (state is field 3, ppid 4, utime 14, stime 15, in clock ticks).
"""
import os
from dataclasses import dataclass

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
JIT_THREAD_PREFIXES = ("C1 Compiler", "C2 Compiler")


@dataclass(frozen=True)
class Stat:
    state: str
    ppid: int
    utime: int
    stime: int


def parse_stat(text):
    """The fields of one /proc/PID/stat (or /proc/PID/task/TID/stat) line; None when it is not one."""
    end = text.rfind(")")
    if end < 0:
        return None
    fields = text[end + 1:].split()
    if len(fields) < 13:
        return None
    return Stat(fields[0], int(fields[1]), int(fields[11]), int(fields[12]))


def parse_machine(text):
    """(busy, idle) clock ticks of the "cpu " line of /proc/stat: busy is user, nice, system, irq, softirq and
    steal; idle is idle and iowait."""
    for line in text.splitlines():
        if line.startswith("cpu "):
            v = [int(x) for x in line.split()[1:9]]
            return v[0] + v[1] + v[2] + v[5] + v[6] + v[7], v[3] + v[4]
    return 0, 0


def busy_percent(before, after):
    """Whole percent of the CPU time between two parse_machine() readings that was busy (0 when none passed)."""
    busy, idle = after[0] - before[0], after[1] - before[1]
    return int(100 * busy / (busy + idle)) if busy + idle > 0 else 0


def seconds(ticks):
    """Clock ticks as CPU seconds, rounded to hundredths as the reports print them."""
    return round(ticks / CLK_TCK, 2)


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def stat_of(pid, proc="/proc"):
    text = _read(f"{proc}/{pid}/stat")
    return parse_stat(text) if text else None


def is_alive(pid, proc="/proc"):
    """True while the pid runs; a zombie (exited, not yet reaped) does not count."""
    if not pid:
        return False
    st = stat_of(pid, proc)
    return st is not None and st.state != "Z"


def children_map(proc="/proc"):
    """ppid -> [pid] of every process visible now."""
    kids = {}
    for name in os.listdir(proc):
        if name.isdigit():
            st = stat_of(name, proc)
            if st:
                kids.setdefault(st.ppid, []).append(int(name))
    return kids


def tree_pids(pid, kids):
    """The pid and its descendants, given a children_map()."""
    out, todo = [], [int(pid)]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def jit_ticks(pid, proc="/proc"):
    """utime + stime of a JVM's JIT compiler threads (C1, C2): a cell in which they are busy measures compilation."""
    total = 0
    try:
        tids = os.listdir(f"{proc}/{pid}/task")
    except OSError:
        return 0
    for tid in tids:
        comm = (_read(f"{proc}/{pid}/task/{tid}/comm") or "").strip()
        if comm.startswith(JIT_THREAD_PREFIXES):
            st = stat_of(f"{pid}/task/{tid}", proc)
            if st:
                total += st.utime + st.stime
    return total


@dataclass(frozen=True)
class Ticks:
    user: int = 0
    system: int = 0
    jit: int = 0

    @property
    def total(self):
        return self.user + self.system


def tree_ticks(pid, proc="/proc", kids=None):
    """CPU ticks of a process and all its live descendants (all their threads), with the JIT threads' part.
    Zero for a pid that is gone."""
    if not pid:
        return Ticks()
    kids = children_map(proc) if kids is None else kids
    user = system = jit = 0
    for p in tree_pids(pid, kids):
        st = stat_of(p, proc)
        if st:
            user += st.utime
            system += st.stime
            jit += jit_ticks(p, proc)
    return Ticks(user, system, jit)


def machine(proc="/proc"):
    return parse_machine(_read(f"{proc}/stat") or "")


class Meter:
    """Samples the CPU of named process trees and of the machine, before and after a cell."""

    def __init__(self, pids):
        self.pids = {k: v for k, v in pids.items() if v}

    def sample(self):
        kids = children_map()
        return {k: tree_ticks(p, kids=kids) for k, p in self.pids.items()}, machine()

    @staticmethod
    def delta(before, after):
        """{name: Ticks used between the samples}, machine busy percent."""
        (b, mb), (a, ma) = before, after
        used = {k: Ticks(a[k].user - b[k].user, a[k].system - b[k].system, a[k].jit - b[k].jit) for k in b if k in a}
        return used, busy_percent(mb, ma)
