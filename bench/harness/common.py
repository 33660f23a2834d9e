"""What every scenario needs around its cells: messages, option checks, the tools (installed with apt-get when
missing), the JDK, the run's temp folder, and stopping by pid what the run started (or leaving it up with --keep)."""
import glob
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from . import cpu, report
from .sysbench import Interrupted

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_DIR = os.path.dirname(BENCH_DIR)
RESULTS_DIR = os.path.join(BENCH_DIR, "results")
MIN_JAVA = 21
JVM_DIR = "/usr/lib/jvm"


class Fatal(Exception):
    """A run that cannot go on: printed as "ERROR: ...", exit code 1."""


def read_text(path):
    """A file's text ("" when it cannot be read): logs and /proc files a run reads as it goes."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def read_from(path, offset):
    """What a file holds past {offset} bytes ("" when it cannot be read): a log's lines since a cell began."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def file_size(path):
    """A file's size in bytes, 0 when it does not exist (yet)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def die(msg):
    raise Fatal(msg)


def say(msg):
    print(f"==> {msg}", flush=True)


def echo(msg=""):
    print(msg, flush=True)


def split_list(v):
    """"a,b c" -> ["a", "b", "c"]."""
    return v.replace(",", " ").split()


def whole(v, what="a whole number"):
    if not str(v).isdigit():
        die(f"expected {what}, got '{v}'")
    return int(v)


class Args:
    """The options of a scenario, read as the bash scripts read them: "--name value" pairs and flags, an unknown
    option fails, lists are comma- or space-separated. spec: option -> (kind, key), kind "flag", "value" or "list"."""

    def __init__(self, argv, spec, usage):
        self.given = {}
        i = 0
        while i < len(argv):
            a = argv[i]
            if a in ("-h", "--help"):
                print(usage())
                sys.exit(0)
            if a not in spec:
                die(f"unknown option: {a} (see --help)")
            kind, key = spec[a]
            if kind == "flag":
                self.given[key] = True
            else:
                if i + 1 >= len(argv) or argv[i + 1] == "":
                    die(f"option {a} needs a value (see --help)")
                i += 1
                self.given[key] = split_list(argv[i]) if kind == "list" else argv[i]
            i += 1

    def get(self, key, default=None):
        return self.given.get(key, default)

    def has(self, key):
        return key in self.given


def command_line(argv):
    """The command as given: the wrapper's name (bench/run.sh...) when it passed it on, else the script's."""
    argv0 = os.environ.pop("STRATA_BENCH_ARGV0", None) or sys.argv[0]
    return " ".join(shlex.quote(a) for a in [argv0, *argv])


def find_bin(*names):
    """The first of the programs found on the PATH or in the sbin folders (mariadbd and haproxy live in /usr/sbin)."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
        for d in ("/usr/sbin", "/usr/local/sbin", "/sbin", "/usr/libexec"):
            p = os.path.join(d, name)
            if os.access(p, os.X_OK):
                return p
    return None


def need_bin(name, package):
    return find_bin(name) or die(f"{name} not found (package {package})")


def install_missing(haproxy=False):
    """Installs the missing packages with apt-get and returns their names. It never starts, stops or reconfigures a
    service; the Debian packages may start their own (mariadb on 3306, haproxy), which the benchmarks leave alone."""
    missing = []
    if not find_bin("sysbench"):
        missing.append("sysbench")
    if haproxy and not find_bin("haproxy"):
        missing.append("haproxy")
    if not (find_bin("mariadbd") and find_bin("mariadb-install-db")):
        missing.append("mariadb-server")
    if not (find_bin("mariadb") and find_bin("mariadb-admin")):
        missing.append("mariadb-client")
    if not missing:
        return []
    names = " ".join(missing)
    if not shutil.which("apt-get"):
        die(f"missing: {names}, and there is no apt-get here. Install them and run again.")
    sudo = []
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            die(f"missing: {names}. Run as root, or install them: apt-get install {names}")
        sudo = ["sudo"]
    say(f"Installing missing packages with apt-get: {names}")
    subprocess.run([*sudo, "apt-get", "update", "-q"], check=False)
    if subprocess.run([*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q",
                       *missing]).returncode != 0:
        die(f"apt-get install {names} failed")
    if "mariadb-server" in missing or "haproxy" in missing:
        echo("    Note: the packages may have started their own system services (mariadb on port 3306,")
        echo("    haproxy). This benchmark does not use them and leaves them as they are.")
    return missing


def java_major(java):
    """17 for "17.0.15", 25 for "25-ea", 8 for "1.8.0"; 0 when it does not run."""
    line = next((l for l in report.output_lines([java, "-version"]) if "version" in l), "")
    v = line.split('"')[1] if line.count('"') >= 2 else ""
    if v.startswith("1."):
        v = v[2:]
    digits = ""
    for ch in v:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits or 0)


def select_java():
    """Strata's bin/start.sh rule: JAVA_HOME (or the java on the PATH) when it is Java 21+, else the newest JDK >= 21
    under /usr/lib/jvm, exported as JAVA_HOME. Returns the java binary."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if java and os.access(java, os.X_OK) and java_major(java) >= MIN_JAVA:
        return java
    best, best_major = None, 0
    for candidate in sorted(glob.glob(f"{JVM_DIR}/*/bin/java")):
        major = java_major(candidate)
        if major >= MIN_JAVA and major > best_major:
            best, best_major = candidate, major
    if not best:
        die(f"Strata needs Java {MIN_JAVA}+; none found (JAVA_HOME, PATH, {JVM_DIR}/*). Install a JDK >= {MIN_JAVA}.")
    os.environ["JAVA_HOME"] = best[: -len("/bin/java")]
    say(f"{java or 'java'} is older than Java {MIN_JAVA}; using JAVA_HOME={os.environ['JAVA_HOME']}")
    return best


def locate_dist(given, hint=""):
    """--strata-dist, or the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo, as an absolute path."""
    if not given:
        found = sorted(glob.glob(f"{REPO_DIR}/distribution/target/strata-proxy-*-bin.tar.gz"), key=os.path.getmtime)
        if not found:
            die(f"no Strata distribution in {REPO_DIR}/distribution/target; build it with\n"
                f"       ./mvnw -DskipTests install    or pass --strata-dist PATH{hint}")
        given = found[-1]
    if not os.path.exists(given):
        die(f"--strata-dist: {given} does not exist")
    return os.path.abspath(given)


def port_in_use(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", int(port))) == 0


def wait_until(timeout, pid, check):
    """Calls check() every 0.25 s until it returns true, for up to timeout seconds, while pid lives."""
    for _ in range(int(timeout * 4)):
        if check():
            return True
        if not cpu.is_alive(pid):
            return False
        time.sleep(0.25)
    return False


def quiet_ok(cmd):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          stdin=subprocess.DEVNULL).returncode == 0


class Proc:
    """A process the run started, stopped by its pid: TERM, then KILL after `stop_timeout` seconds."""

    def __init__(self, label, pid, popen=None, stop_timeout=30):
        self.label, self.pid, self.popen, self.stop_timeout = label, int(pid), popen, stop_timeout

    def alive(self):
        return cpu.is_alive(self.pid)

    def stop(self):
        if self.alive():
            echo(f"    stopping {self.label} (pid {self.pid})")
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            deadline = time.time() + self.stop_timeout
            while self.alive() and time.time() < deadline:
                time.sleep(0.1)
            if self.alive():
                echo(f"    {self.label} (pid {self.pid}) did not stop in {self.stop_timeout} s; sending KILL")
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if self.popen is not None:
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


def spawn(cmd, log, cwd=None, env=None):
    """Starts a server as this run's child, output to the file log, stdin from /dev/null, in its own process group
    (Ctrl-C in the terminal reaches sysbench and the run, and the run stops its servers by pid) and without this
    run's open files (such as the lock of `flock LOCK bench/run.sh`, which a server left up by --keep would keep)."""
    with open(log, "ab") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                                env=env, process_group=0, close_fds=True)


def load_and_busy():
    """The load average and how busy the CPUs were over one second, before a run."""
    try:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
    except OSError:
        load = "?"
    a = cpu.machine()
    time.sleep(1)
    return load, cpu.busy_percent(a, cpu.machine())


def warn_busy(busy, message):
    """On a small machine any other busy process skews the numbers: say so up front."""
    if busy < 25:
        return
    for line in message.format(busy=busy).split("\n"):
        echo(line)
    r = subprocess.run(["ps", "-eo", "pid=,pcpu=,comm=", "--sort=-pcpu"], capture_output=True, text=True)
    for line in r.stdout.splitlines()[:5]:
        echo("           " + line)


class Session:
    """The run's temp folder and the processes it started. On leaving: with --keep, everything stays up and
    keep_lines() says what and how to stop it; else each process is stopped by pid (the last started first) and the
    folder removed, except after a failure, when its logs (not the MariaDB data) stay for the messages above."""

    def __init__(self, prefix, keep, keep_lines, keep_on_failure=("mariadb/data",)):
        self.prefix, self.keep, self.keep_lines, self.keep_on_failure = prefix, keep, keep_lines, keep_on_failure
        self.work = None
        self.procs = []

    def __enter__(self):
        signal.signal(signal.SIGTERM, _sigterm)
        self.work = tempfile.mkdtemp(prefix=f"{self.prefix}.", dir=os.environ.get("TMPDIR", "/tmp"))
        os.makedirs(os.path.join(self.work, "cells"))
        say(f"Temp folder: {self.work}")
        return self

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def add(self, proc):
        self.procs.append(proc)
        return proc

    def forget(self, proc):
        if proc in self.procs:
            self.procs.remove(proc)

    def __exit__(self, kind, exc, tb):
        rc = exit_code(exc)
        if isinstance(exc, Fatal):
            print(f"ERROR: {exc}", file=sys.stderr, flush=True)
        elif isinstance(exc, (Interrupted, KeyboardInterrupt)):
            echo()
            say("Interrupted")
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # a second Ctrl-C must not stop the cleanup half way
        if self.keep:
            echo()
            say(f"--keep: left running (temp folder {self.work}):")
            for line in self.keep_lines():
                echo(line)
            pids = " ".join(str(p.pid) for p in reversed(self.procs) if p.alive())
            echo(f"    stop:    kill {pids}; sleep 10; rm -rf {self.work}")
        else:
            if self.procs:
                say("Stopping what this run started")
            for p in reversed(self.procs):
                p.stop()
            if rc not in (0, 130, 143):
                for sub in self.keep_on_failure:
                    for d in glob.glob(os.path.join(self.work, sub)):
                        shutil.rmtree(d, ignore_errors=True)
                echo(f"    logs kept in {self.work} (remove it when done)")
            else:
                shutil.rmtree(self.work, ignore_errors=True)
        if exc is not None and not isinstance(exc, (Fatal, Interrupted, KeyboardInterrupt, SystemExit)):
            return False   # a bug: let Python print the traceback (exit code 1)
        raise SystemExit(rc)


def _sigterm(signum, frame):
    raise SystemExit(143)


def exit_code(exc):
    if exc is None:
        return 0
    if isinstance(exc, Fatal):
        return 1
    if isinstance(exc, Interrupted):
        return exc.rc
    if isinstance(exc, KeyboardInterrupt):
        return 130
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else 1
    return 1


def main(run):
    """Runs a scenario's main(argv): a Fatal before the session prints "ERROR: ..." and exits 1."""
    try:
        run(sys.argv[1:])
    except Fatal as e:
        print(f"ERROR: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def results_paths(name):
    """bench/results/<name>.csv, .txt and the folder for the logs of failed cells."""
    os.makedirs(RESULTS_DIR, exist_ok=True)
    base = os.path.join(RESULTS_DIR, name)
    return base + ".csv", base + ".txt", base + "-failed"


def stamp():
    return time.strftime("%Y%m%d-%H%M%S")


def copy_logs(dest, files, prefix=""):
    """Copies the files that exist into dest (made when needed), each as prefix + its name."""
    for f in files:
        if os.path.isfile(f):
            os.makedirs(dest, exist_ok=True)
            shutil.copy(f, os.path.join(dest, prefix + os.path.basename(f)))
