#!/usr/bin/env sysbench
-- bench/autocommit/transactions.lua: many clients running short transactions with pauses
-- between them, with autocommit on or off. bench/run.sh runs it as its many-clients cells
-- (workloads autocommit_on and autocommit_off).
--
-- autocommit=off does what PyMySQL, mysqlclient and pools configured with autoCommit:
-- false do: SET AUTOCOMMIT = 0 once, right after connecting, and from then on every
-- statement runs in a transaction that COMMIT ends. autocommit=on opens each transaction
-- with BEGIN instead. Either way a transaction is
--
--     [BEGIN;] SELECT c FROM sbtestN WHERE id = ?; UPDATE sbtestN SET k = k + 1 WHERE id = ?; COMMIT
--
-- followed by --think-ms of the client doing something else (its application at work), so
-- that many clients share few backend connections when a proxy multiplexes them. The
-- SELECT and UPDATE go through sysbench's prepare API (--db-ps-mode=auto: server-side
-- prepared statements; disable: text).
--
-- Usage (tables from `sysbench oltp_read_write --tables=N prepare`):
--   sysbench bench/autocommit/transactions.lua --db-driver=mysql --mysql-host=... \
--       --tables=4 --table-size=10000 --autocommit=off --think-ms=10 --threads=500 --time=10 run

ffi = require("ffi")
ffi.cdef[[int usleep(unsigned int usec);]]

sysbench.cmdline.options = {
   tables = {"Number of sbtest tables", 1},
   table_size = {"Rows per table (ids are drawn uniformly from 1..table-size)", 10000},
   autocommit = {"off: SET AUTOCOMMIT = 0 at connect, transactions end with COMMIT; on: BEGIN ... COMMIT", "off"},
   think_ms = {"Milliseconds a client pauses between its transactions", 10},
}

function thread_init()
   if sysbench.opt.autocommit ~= "on" and sysbench.opt.autocommit ~= "off" then
      error("--autocommit must be on or off, not " .. sysbench.opt.autocommit)
   end
   drv = sysbench.sql.driver()
   con = drv:connect()
   if sysbench.opt.autocommit == "off" then
      con:query("SET AUTOCOMMIT = 0")
   end
   selects, updates, ids = {}, {}, {}
   for t = 1, sysbench.opt.tables do
      ids[t] = {}
      selects[t] = con:prepare(string.format("SELECT c FROM sbtest%d WHERE id = ?", t))
      ids[t].select = selects[t]:bind_create(sysbench.sql.type.INT)
      selects[t]:bind_param(ids[t].select)
      updates[t] = con:prepare(string.format("UPDATE sbtest%d SET k = k + 1 WHERE id = ?", t))
      ids[t].update = updates[t]:bind_create(sysbench.sql.type.INT)
      updates[t]:bind_param(ids[t].update)
   end
end

function event()
   local t = sysbench.rand.uniform(1, sysbench.opt.tables)
   local id = sysbench.rand.uniform(1, sysbench.opt.table_size)
   if sysbench.opt.autocommit == "on" then
      con:query("BEGIN")
   end
   ids[t].select:set(id)
   selects[t]:execute()
   ids[t].update:set(id)
   updates[t]:execute()
   con:query("COMMIT")
   if sysbench.opt.think_ms > 0 then
      ffi.C.usleep(sysbench.opt.think_ms * 1000)
   end
end

function thread_done()
   for t = 1, sysbench.opt.tables do
      selects[t]:close()
      updates[t]:close()
   end
   con:disconnect()
end
