import unittest

from harness import sysbench

# sysbench 1.0.20's summary, as run with --percentile=95 --verbosity=4 (abridged where nothing is read).
OK_RUN = """sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 4

Threads started!

SQL statistics:
    queries performed:
        read:                            63556
        write:                           0
        other:                           0
        total:                           63556
    transactions:                        63556  (21183.87 per sec.)
    queries:                             63556  (21183.87 per sec.)
    ignored errors:                      2      (0.67 per sec.)
    reconnects:                          1      (0.33 per sec.)

General statistics:
    total time:                          3.0001s
    total number of events:              63556

Latency (ms):
         min:                                    0.09
         avg:                                    0.19
         max:                                   10.43
         95th percentile:                        0.38
         sum:                                11951.14
"""

BEGIN_REFUSED = ('DEBUG: Failed to prepare query "BEGIN" (1295: This command is not supported in the prepared '
                 'statement protocol yet), using emulation\n')
SELECT_REFUSED = ('DEBUG: Failed to prepare query "SELECT c FROM sbtest1 WHERE id=?" (1105: unknown error), using '
                  'emulation\n')
FATAL_RUN = """Threads started!

FATAL: mysql_drv_query() returned error 2013 (Lost connection to server during query) for query 'SELECT c FROM sbtest1'
FATAL: `thread_run' function failed: /usr/share/sysbench/oltp_common.lua:432: SQL error, errno = 2013, state = 'HY000'
"""


class ParseTest(unittest.TestCase):
    def test_a_full_summary(self):
        out = sysbench.parse(OK_RUN)
        self.assertEqual((out.queries, out.qps, out.p95), (63556, "21183.87", "0.38"))
        self.assertEqual((out.ignored_errors, out.reconnects, out.errors), (2, 1, 3))
        self.assertEqual((out.fatal, out.fallback, out.refused), ("", "", frozenset()))

    def test_queries_performed_is_not_the_queries_line(self):
        out = sysbench.parse("SQL statistics:\n    queries performed:\n        read:   5\n")
        self.assertFalse(out.has_result)

    def test_refused_statements_are_read_from_the_fallback_lines(self):
        out = sysbench.parse(BEGIN_REFUSED + SELECT_REFUSED + OK_RUN)
        self.assertEqual(out.refused, {"BEGIN", "SELECT c FROM sbtest1 WHERE id=?"})
        self.assertIn("1295", out.fallback)

    def test_the_first_fatal_line(self):
        out = sysbench.parse(FATAL_RUN)
        self.assertTrue(out.fatal.startswith("FATAL: mysql_drv_query() returned error 2013"))
        self.assertFalse(out.has_result)


class JudgeTest(unittest.TestCase):
    def test_ok(self):
        v = sysbench.judge(sysbench.parse(OK_RUN), 0, "auto", 3)
        self.assertEqual((v.status, v.qps, v.p95, v.errors, v.note), ("ok", "21183.87", "0.38", 3, ""))

    def test_a_non_zero_exit_fails_with_the_last_line(self):
        v = sysbench.judge(sysbench.parse(OK_RUN + "something broke\n"), 1, "auto", 3)
        self.assertEqual((v.status, v.qps, v.p95), ("FAILED", "0", ""))
        self.assertEqual(v.note, "sysbench exit code 1: something broke")
        self.assertEqual(v.queries, 63556)   # read even when the cell failed, as the bash did

    def test_a_timeout_says_how_long_it_was_given(self):
        v = sysbench.judge(sysbench.parse(""), sysbench.TIMEOUT_RC, "auto", 10)
        self.assertEqual(v.note, "sysbench did not finish within 70 s")

    def test_fatal_is_the_note_without_indentation_and_cut_at_160(self):
        v = sysbench.judge(sysbench.parse("   FATAL: " + "x" * 300 + "\n"), 0, "disable", 3)
        self.assertEqual(v.status, "FAILED")
        self.assertEqual(v.note, ("FATAL: " + "x" * 300)[:160])

    def test_no_result_fails(self):
        v = sysbench.judge(sysbench.parse("Threads started!\n"), 0, "auto", 3)
        self.assertEqual(v.status, "FAILED")

    def test_a_refused_prepare_fails_an_auto_cell(self):
        v = sysbench.judge(sysbench.parse(SELECT_REFUSED + OK_RUN), 0, "auto", 3)
        self.assertEqual((v.status, v.qps, v.p95), ("FAILED", "0", ""))
        self.assertEqual(v.note, "server refused COM_STMT_PREPARE (error 1105); sysbench fell back to the text "
                                 "protocol: 21183.87 qps, p95 0.38 ms (not counted)")

    def test_a_refused_prepare_does_not_matter_to_a_text_cell(self):
        v = sysbench.judge(sysbench.parse(SELECT_REFUSED + OK_RUN), 0, "disable", 3)
        self.assertEqual(v.status, "ok")

    def test_begin_as_text_counts_with_a_note_where_allowed(self):
        out = sysbench.parse(BEGIN_REFUSED + OK_RUN)
        self.assertEqual(sysbench.judge(out, 0, "auto", 3).status, "FAILED")
        v = sysbench.judge(out, 0, "auto", 3, begin_as_text_ok=True)
        self.assertEqual((v.status, v.qps), ("ok", "21183.87"))
        self.assertIn("BEGIN sent as text", v.note)

    def test_begin_and_another_statement_refused_still_fails(self):
        v = sysbench.judge(sysbench.parse(BEGIN_REFUSED + SELECT_REFUSED + OK_RUN), 0, "auto", 3,
                           begin_as_text_ok=True)
        self.assertEqual(v.status, "FAILED")

    def test_a_failed_run_that_also_fell_back_says_so(self):
        v = sysbench.judge(sysbench.parse(SELECT_REFUSED + FATAL_RUN), 0, "auto", 3)
        self.assertTrue(v.note.endswith("; also: prepared statements refused"))


if __name__ == "__main__":
    unittest.main()
