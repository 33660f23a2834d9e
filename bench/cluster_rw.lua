-- bench/cluster.sh's faults phase: sysbench's oltp_read_write, with one change: a thread whose connection is lost
-- (its member was killed) opens a new one, through HAProxy, and goes on. sysbench 1.0.20's own way, lost-connection
-- errors in --mysql-ignore-errors, crashes it (SIGSEGV in its reconnect), so the error is caught here instead: the
-- thread prints "cluster_rw: lost <errno> <message>" and connects again with a new connection object, on which it
-- prepares its statements again.
-- Deadlocks and the other errors of --mysql-ignore-errors still restart the event as sysbench does.
require("oltp_read_write")

local ffi = require("ffi")
pcall(ffi.cdef, "int usleep(unsigned int usec);")

local rw_event = event

local function reconnect()
   while true do
      local ok, c = pcall(drv.connect, drv)
      if ok and c ~= nil then
         con = c
         prepare_statements()
         return
      end
      ffi.C.usleep(10000)
   end
end

function event(thread_id)
   local ok, err = pcall(rw_event, thread_id)
   if ok then
      return
   end
   if type(err) == "table" and err.errcode == sysbench.error.RESTART_EVENT then
      error(err, 0)
   end
   -- A fatal SQL error comes as "SQL error, errno = 2013, state = 'HY000': Lost connection ..."
   local msg = tostring(err)
   local errno = msg:match("errno = (%d+)") or "?"
   print(string.format("cluster_rw: lost %s %s", errno, msg))
   reconnect()
end
