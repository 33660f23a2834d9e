import os
import tempfile
import unittest

from harness import cpu

# /proc/PID/stat of a JVM (fields cut after stime's neighbours); the command name holds a space and a ")".
JVM_STAT = "4242 (java) x) S 1 4242 4242 0 -1 4194560 81000 0 0 0 1500 320 0 0 20 0 61 0 9000 0 0\n"
PROC_STAT = """cpu  100 5 50 1000 20 3 2 7 0 0
cpu0 50 2 25 500 10 1 1 3 0 0
intr 12345
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def stat_line(pid, comm, state, ppid, utime, stime):
    return f"{pid} ({comm}) {state} {ppid} 0 0 0 -1 0 0 0 0 0 {utime} {stime} 0 0 20 0 1 0 100 0 0\n"


class ParseTest(unittest.TestCase):
    def test_fields_are_counted_after_the_last_parenthesis(self):
        st = cpu.parse_stat(JVM_STAT)
        self.assertEqual((st.state, st.ppid, st.utime, st.stime), ("S", 1, 1500, 320))

    def test_not_a_stat_line(self):
        self.assertIsNone(cpu.parse_stat("garbage"))
        self.assertIsNone(cpu.parse_stat("1 (x) S 1 2"))

    def test_machine_busy_and_idle(self):
        # busy = user + nice + system + irq + softirq + steal, idle = idle + iowait
        self.assertEqual(cpu.parse_machine(PROC_STAT), (100 + 5 + 50 + 3 + 2 + 7, 1000 + 20))

    def test_busy_percent(self):
        self.assertEqual(cpu.busy_percent((100, 900), (175, 925)), 75)
        self.assertEqual(cpu.busy_percent((100, 900), (100, 900)), 0)

    def test_seconds_are_hundredths(self):
        self.assertEqual(cpu.seconds(cpu.CLK_TCK * 3 + 1), round(3 + 1 / cpu.CLK_TCK, 2))


class TreeTest(unittest.TestCase):
    """A fake /proc: a JVM (pid 10) with two JIT threads and a child (11), a grandchild (12), and a stranger (20)."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        p = self.dir.name
        write(f"{p}/10/stat", stat_line(10, "java", "S", 1, 1000, 200))
        for tid, comm, u, s in ((10, "java", 100, 10), (13, "C2 CompilerThre", 300, 5), (14, "C1 CompilerThre", 40, 2),
                                (15, "VM Thread", 7, 1)):
            write(f"{p}/10/task/{tid}/stat", stat_line(tid, comm, "S", 1, u, s))
            write(f"{p}/10/task/{tid}/comm", comm + "\n")
        write(f"{p}/11/stat", stat_line(11, "sh", "S", 10, 30, 3))
        write(f"{p}/12/stat", stat_line(12, "sleep", "Z", 11, 5, 1))
        write(f"{p}/20/stat", stat_line(20, "other", "R", 1, 9999, 9999))
        write(f"{p}/stat", PROC_STAT)
        self.proc = p

    def tearDown(self):
        self.dir.cleanup()

    def test_tree(self):
        kids = cpu.children_map(self.proc)
        self.assertEqual(sorted(cpu.tree_pids(10, kids)), [10, 11, 12])

    def test_tree_ticks_add_up_the_descendants_and_the_jit_threads(self):
        t = cpu.tree_ticks(10, self.proc)
        self.assertEqual((t.user, t.system, t.total, t.jit), (1035, 204, 1239, 347))

    def test_a_pid_that_is_gone(self):
        self.assertEqual(cpu.tree_ticks(99, self.proc), cpu.Ticks())
        self.assertEqual(cpu.tree_ticks(None, self.proc), cpu.Ticks())

    def test_alive_but_not_a_zombie(self):
        self.assertTrue(cpu.is_alive(10, self.proc))
        self.assertFalse(cpu.is_alive(12, self.proc))
        self.assertFalse(cpu.is_alive(99, self.proc))

    def test_meter_delta(self):
        before = ({"proxy": cpu.Ticks(100, 20, 5)}, (1000, 3000))
        after = ({"proxy": cpu.Ticks(160, 50, 9)}, (1300, 3100))
        used, busy = cpu.Meter.delta(before, after)
        self.assertEqual(used["proxy"], cpu.Ticks(60, 30, 4))
        self.assertEqual(busy, 75)


if __name__ == "__main__":
    unittest.main()
