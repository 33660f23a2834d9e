#!/usr/bin/env sysbench
-- bench/rw-split/read_sleep.lua: the read workload of bench/rw-split.sh.
--
-- Each event is one point select that also holds its backend connection for a fixed
-- wall-clock time without using CPU:
--
--     SELECT c, SLEEP(<sleep-ms> / 1000) FROM sbtest1 WHERE id = ?
--
-- SLEEP() waits on a condition variable in the server, so a backend connection can serve
-- at most 1000 / sleep-ms of these per second whatever the CPU does. With a fixed-size
-- backend pool in front (Strata's maximumPoolSize) a backend serves at most
-- pool x 1000 / sleep-ms reads per second: a bottleneck that does not depend on how many
-- cores the machine has, so adding replicas can show whether reads scale with them.
--
-- The statement goes through sysbench's prepare API: --db-ps-mode=auto sends it as a
-- server-side prepared statement (COM_STMT_PREPARE / COM_STMT_EXECUTE, binary protocol),
-- --db-ps-mode=disable as plain text (COM_QUERY), as in sysbench's own OLTP scripts.
--
-- Usage (the table comes from `sysbench oltp_read_write --tables=1 prepare`):
--   sysbench bench/rw-split/read_sleep.lua --db-driver=mysql --mysql-host=... \
--       --table-size=10000 --sleep-ms=5 --threads=32 --time=10 run

sysbench.cmdline.options = {
   table_size = {"Rows in sbtest1 (ids are drawn uniformly from 1..table-size)", 10000},
   sleep_ms = {"Milliseconds each read holds its connection (SLEEP() in the server)", 5},
}

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   local sql = string.format("SELECT c, SLEEP(%.3f) FROM sbtest1 WHERE id = ?",
                             sysbench.opt.sleep_ms / 1000)
   stmt = con:prepare(sql)
   id_param = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(id_param)
end

function event()
   -- Uniform, not sysbench's default "special" distribution: every row alike, and no
   -- hot rows that one backend might cache better than another.
   id_param:set(sysbench.rand.uniform(1, sysbench.opt.table_size))
   stmt:execute()
end

function thread_done()
   stmt:close()
   con:disconnect()
end
