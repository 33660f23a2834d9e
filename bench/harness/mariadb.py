"""Private MariaDB servers: each in its own data folder of the run's temp folder, started with --no-defaults (the
system's /etc/mysql settings must not leak in) and stopped by pid; a system MariaDB service is neither used nor
touched. Root logs in over the server's socket without a password."""
import os
import subprocess
import time

from . import common
from .common import die, say, echo


class Tools:
    def __init__(self):
        self.mariadbd = common.need_bin("mariadbd", "mariadb-server")
        self.install_db = common.need_bin("mariadb-install-db", "mariadb-server")
        self.client = common.need_bin("mariadb", "mariadb-client")
        self.admin = common.need_bin("mariadb-admin", "mariadb-client")

    def version(self):
        from .report import first_line
        return first_line([self.mariadbd, "--version"])

    def tcp(self, port, sql, user="sbtest", password="sbtest", db="sbtest", args=("-N",)):
        """(exit code, output) of the client over TCP."""
        r = subprocess.run([self.client, "--no-defaults", "--protocol=TCP", "-h127.0.0.1", f"-P{port}", f"-u{user}",
                            f"-p{password}", db, *args, "-e", sql], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        return r.returncode, (r.stdout + r.stderr).strip()

    def answers(self, port, sql="SELECT 1", user="sbtest", password="sbtest", db="sbtest"):
        return self.tcp(port, sql, user, password, db)[0] == 0


class Server:
    """One private server: name (for messages), folder, port."""

    def __init__(self, tools, name, folder, port):
        self.tools, self.name, self.dir, self.port = tools, name, folder, port
        self.label = name if name.startswith("MariaDB") else f"MariaDB {name}"
        self.sock = os.path.join(folder, "mariadb.sock")
        self.proc = None

    def install(self):
        os.makedirs(os.path.join(self.dir, "data"), exist_ok=True)
        as_root = ["--user=root"] if os.geteuid() == 0 else []
        helptext = subprocess.run([self.tools.install_db, "--help"], capture_output=True, text=True).stdout
        skip_test_db = ["--skip-test-db"] if "--skip-test-db" in helptext else []
        log = os.path.join(self.dir, "install-db.log")
        # --auth-root-authentication-method=normal: root@localhost without a password, so the socket login works
        # whoever runs the script (not only the OS user root).
        with open(log, "w") as out:
            rc = subprocess.run([self.tools.install_db, "--no-defaults", f"--datadir={self.dir}/data", *as_root,
                                 *skip_test_db, "--auth-root-authentication-method=normal"],
                                stdout=out, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            echo(_tail(log, 20))
            die(f"mariadb-install-db failed for {self.label} (log: {log})")

    def start(self, session, options):
        """Starts mariadbd with the common options and the given ones, and waits until it answers."""
        as_root = ["--user=root"] if os.geteuid() == 0 else []
        cmd = [self.tools.mariadbd, "--no-defaults", *as_root, f"--datadir={self.dir}/data", f"--socket={self.sock}",
               f"--pid-file={self.dir}/mariadb.pid", f"--port={self.port}", "--bind-address=127.0.0.1",
               f"--log-error={self.dir}/error.log", "--skip-name-resolve", "--performance-schema=OFF", *options]
        p = common.spawn(cmd, os.path.join(self.dir, "stdout.log"))
        self.proc = session.add(common.Proc(self.label, p.pid, p, stop_timeout=60))
        admin = [self.tools.admin, "--no-defaults", f"--socket={self.sock}", "-uroot", "ping"]
        if not common.wait_until(60, p.pid, lambda: common.quiet_ok(admin)):
            echo(_tail(os.path.join(self.dir, "error.log"), 30))
            die(f"{self.label} did not start (log: {self.dir}/error.log)")

    def root(self, sql, args=()):
        """(exit code, output) of SQL as root over the socket."""
        r = subprocess.run([self.tools.client, "--no-defaults", f"--socket={self.sock}", "-uroot", *args, "-e", sql],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        return r.returncode, (r.stdout + r.stderr).strip()

    def sql(self, sql, what):
        rc, out = self.root(sql)
        if rc != 0:
            die(f"{what} ({self.name}: {out})")
        return out

    def value(self, sql):
        rc, out = self.root(sql, ("-N", "-B"))
        return out if rc == 0 else ""

    def drop_anonymous_users(self, if_exists=False):
        """The statements that drop the anonymous users ''@'localhost' / ''@'<host>', which would shadow the '%'
        accounts for local logins."""
        word = "DROP USER IF EXISTS" if if_exists else "DROP USER"
        return self.value(f"SELECT CONCAT('{word} ''''@''', host, ''';') FROM mysql.user WHERE user = ''")

    def pid(self):
        return self.proc.pid if self.proc else None


def bench_options(buffer_pool, max_connections=2000):
    """The single server of bench/run.sh and bench/sharding/run.sh: sized to serve the data set from memory, the log
    not synced at commit, no binary log: the subject is the proxy, not the disk."""
    return ["--skip-log-bin", f"--max-connections={max_connections}", f"--innodb-buffer-pool-size={buffer_pool}",
            "--innodb-log-file-size=256M", "--innodb-flush-log-at-trx-commit=2"]


def start_replica(replica, primary_port):
    """GTID replication from the primary's first binlog event (slave_pos); MASTER_CONNECT_RETRY=1: an I/O thread that
    loses the primary retries within a second instead of the default minute."""
    say(f"Replicating {replica.name} from the primary (GTID, slave_pos)")
    replica.sql(f"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={primary_port}, MASTER_USER='repl', "
                f"MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1; START SLAVE;",
                "CHANGE MASTER / START SLAVE failed")


def slave_status(server):
    """SHOW SLAVE STATUS as {field: value}."""
    rc, out = server.root("SHOW SLAVE STATUS\\G")
    fields = {}
    for line in out.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            fields[k.strip()] = v.strip()
    return fields


def wait_caught_up(primary, replicas, what):
    """Waits until every replica's threads run and it has applied all the primary has written (@@gtid_slave_pos equal
    to the primary's @@gtid_binlog_pos)."""
    target = primary.value("SELECT @@gtid_binlog_pos")
    for r in replicas:
        for i in range(241):
            st = slave_status(r)
            state = f"{st.get('Slave_IO_Running', '')} {st.get('Slave_SQL_Running', '')}"
            pos = r.value("SELECT @@gtid_slave_pos")
            if state == "Yes Yes" and pos == target:
                break
            if i == 240:
                for k in ("Slave_IO_Running", "Slave_SQL_Running", "Last_IO_Error", "Last_SQL_Error", "Gtid_IO_Pos"):
                    echo(f"    {k}: {st.get(k, '')}")
                die(f"{r.name} did not catch up with the primary ({what}): threads '{state}', at '{pos}', "
                    f"primary at '{target}'")
            time.sleep(0.25)
    if replicas:
        echo(f"    replicas at the primary's GTID position {target} ({what})")


def _tail(path, n):
    try:
        with open(path, errors="replace") as f:
            return "\n".join(f.read().splitlines()[-n:])
    except OSError:
        return ""
