"""The benchmark harness shared by bench/empty_rules.py, bench/rw_split.py and bench/sharding/sharding.py.

Pure parts (parsing, arithmetic, formatting): cpu, sysbench (parse, judge), interleave, report. Parts that start
and stop processes: common (messages, tools, the run's temp folder and cleanup), mariadb, targets; matrix runs the
sysbench matrix of bench/run.sh and bench/sharding/run.sh on them.
"""
