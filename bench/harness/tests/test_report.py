import os
import tempfile
import unittest

from harness import interleave, report
from harness.sysbench import CellResult


class RatioTest(unittest.TestCase):
    def test_ratio(self):
        self.assertEqual(report.ratio("8263.73", "12586.52"), "0.657")
        self.assertEqual(report.ratio(1335.25, "643.64", 2), "2.07")

    def test_blank_when_either_is_missing_or_not_above_zero(self):
        for a, b in (("", "1"), ("1", ""), ("0", "5"), ("5", "0"), (None, "1"), ("x", "1")):
            self.assertEqual(report.ratio(a, b), "", (a, b))

    def test_per(self):
        self.assertEqual(report.per(4.05, 21191.94 * 3, 1e6, 1), "63.7")
        self.assertEqual(report.per(63556, 4.05), "15693")
        self.assertEqual(report.per(1, 0), "")

    def test_median_odd_keeps_the_value_as_written(self):
        self.assertEqual(report.median(["0.50", "0.38", "10.1"]), "0.50")

    def test_median_even_is_the_mean_with_two_decimals(self):
        self.assertEqual(report.median(["0.38", "0.51"]), "0.45")   # rounded as awk's printf rounds the same double

    def test_median_skips_blanks(self):
        self.assertEqual(report.median(["", "2.0", None]), "2.0")
        self.assertEqual(report.median(["", None]), "")

    def test_min_max(self):
        self.assertEqual(report.min_max(["9819.66", "", "4939.49", "10000.1"]), ("4939.49", "10000.1"))
        self.assertEqual(report.min_max([]), ("", ""))

    def test_geometric_summary(self):
        ok, n, low, gmean = report.geometric_summary(["1.2", "", "0.8", "-"], 1.0)
        self.assertEqual((ok, n, low), (1, 2, 0.8))
        self.assertAlmostEqual(gmean, (1.2 * 0.8) ** 0.5)
        self.assertEqual(report.geometric_summary([], 1.0), (0, 0, None, None))

    def test_shares(self):
        self.assertEqual(report.shares_text([1200, 1190, 1210], ["primary", "replica_0", "replica_1"]),
                         "primary 33% replica_0 33% replica_1 34%")
        self.assertEqual(report.shares_text([0, 0], ["primary", "replica_0"]), "-")

    def test_csv_fields_are_quoted_only_when_needed(self):
        self.assertEqual(report.csv_field("round 1: a, b"), '"round 1: a, b"')
        self.assertEqual(report.csv_field('say "x"'), '"say ""x"""')
        self.assertEqual(report.csv_field("plain"), "plain")
        self.assertEqual(report.csv_field(None), "")

    def test_write_csv(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.csv")
            report.write_csv(path, "a,b,c", [[1, "x, y", None]])
            with open(path) as f:
                self.assertEqual(f.read(), 'a,b,c\n1,"x, y",\n')


def cell(qps, p95="1.00", queries=0, cpu=1.0, sys=0.5, jit=0.0, db=2.0, status="ok", note="", errors=0):
    return CellResult(status=status, note=note, qps=qps, p95=p95, queries=queries, errors=errors, cpu=cpu, sys=sys,
                      jit=jit, db_cpu=db)


class RoundsTest(unittest.TestCase):
    def test_rotated(self):
        t = ["direct", "haproxy", "haproxy1", "strata"]
        self.assertEqual(interleave.rotated(t, 0), t)
        self.assertEqual(interleave.rotated(t, 1), ["haproxy", "haproxy1", "strata", "direct"])
        self.assertEqual(interleave.rotated(t, 5), interleave.rotated(t, 1))

    def test_each_target_goes_first_once_in_as_many_rounds(self):
        order = []
        interleave.run_rounds(["a", "b", "c"], 3, lambda t, r: cell("1"), lambda t, r, x: order.append((r, t)))
        self.assertEqual([t for r, t in order if r == 1], ["a", "b", "c"])
        self.assertEqual([t for r, t in order if r == 2], ["b", "c", "a"])
        self.assertEqual([t for r, t in order if r == 3], ["c", "a", "b"])

    def test_summary_of_rounds(self):
        s = interleave.summarize([cell("1000.00", "0.40", 3000, 1.00, 0.40, 0.10, 2.0, errors=1),
                                  cell("2000.00", "0.60", 6000, 2.00, 0.60, 0.00, 3.0, errors=2),
                                  cell("1500.00", "0.50", 4500, 1.50, 0.50, 0.20, 4.0)])
        self.assertEqual((s.status, s.qps, s.p95, s.errors), ("ok", "1500.00", "0.50", 3))
        self.assertEqual((s.cpu, s.db_cpu, s.jit), ("1.50", "3.00", "0.10"))
        self.assertEqual(s.qpc, "3000")                         # 13,500 queries over 4.5 CPU-seconds
        self.assertEqual((s.usr_us_q, s.sys_us_q), ("222.2", "111.1"))
        self.assertEqual((s.qps_min, s.qps_max), ("1000.00", "2000.00"))

    def test_a_failed_round_fails_the_cell_and_names_the_round(self):
        s = interleave.summarize([cell("1000.00"), cell("0", "", status="FAILED", note="gone"),
                                  cell("0", "", status="FAILED", note="later")])
        self.assertEqual((s.status, s.note, s.qps, s.p95, s.qpc), ("FAILED", "round 2: gone", "0", "", ""))

    def test_one_round_keeps_the_note_as_it_is(self):
        s = interleave.summarize([cell("0", "", status="FAILED", note="gone")])
        self.assertEqual(s.note, "gone")

    def test_a_note_of_a_cell_that_counts_is_kept(self):
        s = interleave.summarize([cell("10.00"), cell("12.00", note="BEGIN sent as text")])
        self.assertEqual((s.status, s.note, s.qps), ("ok", "BEGIN sent as text", "11.00"))

    def test_no_cpu_no_queries_per_cpu_second(self):
        s = interleave.summarize([cell("10.00", cpu=None, sys=None, jit=None, db=None, queries=30)])
        self.assertEqual((s.cpu, s.qpc, s.db_cpu), ("0.00", "", ""))

    def test_progress(self):
        p = interleave.Progress(48)
        self.assertEqual(p.next(), "[ 1/48]")


if __name__ == "__main__":
    unittest.main()
