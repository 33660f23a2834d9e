"""The targets sysbench connects to, other than MariaDB itself: HAProxy in TCP mode, Strata from a distribution
(tarball or unpacked folder) with a configuration folder of the run's own, and ShardingSphere-Proxy from Maven
Central. Each is stopped by its pid (see common.Session)."""
import glob
import os
import shutil
import subprocess
import time

from . import common, report
from .common import die, say, echo


# ---- HAProxy ----------------------------------------------------------------------------------------------------

def haproxy_config(purpose, name, listen, server_port, threads):
    """One TCP listener in front of one server. maxconn far above the most sysbench threads used, so HAProxy never
    queues a connection."""
    return f"""# Written by {purpose}.
global
    nbthread {threads}
    # Far above the most sysbench threads used, so HAProxy never queues a connection.
    maxconn 4096

defaults
    mode tcp
    timeout connect 5s
    timeout client 1h
    timeout server 1h

listen {name}
    bind 127.0.0.1:{listen}
    balance roundrobin
    server {name} 127.0.0.1:{server_port}
"""


def start_haproxy(session, haproxy, folder, label, name, listen, server_port, threads, purpose):
    """HAProxy, mode tcp, nbthread `threads` (the number of CPUs gives it the same room as Strata, whose Netty uses
    every core; 1 is the cheapest HAProxy on a small machine), in the foreground (-db: no master process, so the pid
    is the process that does the work)."""
    os.makedirs(folder, exist_ok=True)
    cfg = os.path.join(folder, "haproxy.cfg")
    with open(cfg, "w") as f:
        f.write(haproxy_config(purpose, name, listen, server_port, threads))
    say(f"Starting HAProxy on 127.0.0.1:{listen} (mode tcp, nbthread {threads}) in front of {name}")
    check = subprocess.run([haproxy, "-c", "-q", "-f", cfg], capture_output=True, text=True)
    if check.returncode != 0:
        echo(check.stdout + check.stderr)
        die(f"HAProxy rejected {cfg}")
    p = common.spawn([haproxy, "-db", "-f", cfg], os.path.join(folder, "haproxy.log"))
    proc = session.add(common.Proc(label, p.pid, p, stop_timeout=10))
    if not common.wait_until(20, p.pid, lambda: common.port_in_use(listen)):
        echo(common.read_text(os.path.join(folder, "haproxy.log")))
        die(f"HAProxy did not start (log: {folder}/haproxy.log)")
    return proc


# ---- Strata -----------------------------------------------------------------------------------------------------

def unpack_strata(dist, dest, label="Strata"):
    """Copies an unpacked distribution, or unpacks a tarball, into dest; returns the Strata home (the folder with
    bin/start.sh)."""
    if os.path.isdir(dist):
        say(f"Copying the {label} distribution {dist}")
        shutil.copytree(dist, dest, symlinks=True)
        home = dest
        # A pid file copied along would make start.sh think this copy is already running.
        pid_file = os.path.join(home, "logs", "strata.pid")
        if os.path.exists(pid_file):
            os.remove(pid_file)
    else:
        say(f"Unpacking {dist}")
        os.makedirs(dest, exist_ok=True)
        if subprocess.run(["tar", "-xzf", dist, "-C", dest]).returncode != 0:
            die(f"cannot unpack {dist}")
        starts = sorted(glob.glob(f"{dest}/bin/start.sh") + glob.glob(f"{dest}/*/bin/start.sh")
                        + glob.glob(f"{dest}/*/*/bin/start.sh"))
        home = os.path.dirname(os.path.dirname(starts[0])) if starts else ""
    if not home or not os.access(os.path.join(home, "bin", "start.sh"), os.X_OK):
        die(f"{dist} holds no bin/start.sh")
    return home


def write_conf(home, conf, server_yaml, database_yaml):
    """A configuration folder: server.yaml, config-sbtest.yaml and the distribution's logback.xml."""
    os.makedirs(conf, exist_ok=True)
    logback = os.path.join(home, "conf", "logback.xml")
    if os.path.isfile(logback):
        shutil.copy(logback, conf)
    with open(os.path.join(conf, "server.yaml"), "w") as f:
        f.write(server_yaml)
    with open(os.path.join(conf, "config-sbtest.yaml"), "w") as f:
        f.write(database_yaml)
    return conf


def data_source(name, url, pool, indent="  "):
    return (f"{indent}{name}:\n{indent}  url: \"{url}\"\n{indent}  username: sbtest\n{indent}  password: sbtest\n"
            f"{indent}  maximumPoolSize: {pool}\n")


def strata_env(java_opts):
    """The environment of bin/start.sh: STRATA_JAVA_OPTS when given, else start.sh's default."""
    env = dict(os.environ)
    if java_opts:
        env["STRATA_JAVA_OPTS"] = java_opts
    else:
        env.pop("STRATA_JAVA_OPTS", None)
    return env


class StartFailed(Exception):
    def __init__(self, output):
        super().__init__(output)
        self.output = output


def start_strata_daemon(session, tools, label, home, conf, port, java_opts, start_log, check_sql="SELECT 1"):
    """bin/start.sh -c conf -p port in its background mode: it returns once the JVM runs, whose pid it writes to
    logs/strata.pid. Waits until Strata answers; raises StartFailed with start.sh's output and Strata's log when it
    does not start or answer, having stopped what did start."""
    with open(start_log, "w") as out:
        rc = subprocess.run([os.path.join(home, "bin", "start.sh"), "-c", conf, "-p", str(port)], stdout=out,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=strata_env(java_opts),
                            process_group=0, close_fds=True).returncode
    stdout_log = os.path.join(home, "logs", "stdout.log")
    if rc == 0:
        pid = int(common.read_text(os.path.join(home, "logs", "strata.pid")).strip() or 0)
        proc = session.add(common.Proc(label, pid, stop_timeout=30))
        if common.wait_until(60, pid, lambda: tools.answers(port, check_sql)):
            return proc
        proc.stop()
        session.forget(proc)
    raise StartFailed(common.read_text(start_log) + "\n" + common.read_text(stdout_log))


def start_strata_foreground(session, tools, label, home, conf, port, log, check_sql):
    """bin/start.sh -f as this run's child (start.sh execs java, so the child's pid is the JVM's). Waits until Strata
    answers check_sql; raises StartFailed with its output when it does not, having stopped it."""
    p = common.spawn([os.path.join(home, "bin", "start.sh"), "-f", "-c", conf, "-p", str(port)], log)
    proc = session.add(common.Proc(label, p.pid, p, stop_timeout=30))
    if common.wait_until(60, p.pid, lambda: tools.answers(port, check_sql)):
        return proc
    proc.stop()
    session.forget(proc)
    raise StartFailed(common.read_text(log))


def start_strata(session, tools, label, dist, prefix, port, pool, server_yaml, database_yaml, java_opts):
    """Unpacks (or copies) a distribution into <prefix>-dist of the run's folder, writes its configuration into
    <prefix>-conf and starts it with bin/start.sh in the background. Returns (Proc, home); raises StartFailed with
    home set as its `home` when it does not start or answer."""
    home = unpack_strata(dist, session.path(f"{prefix}-dist"), label)
    conf = write_conf(home, session.path(f"{prefix}-conf"), server_yaml, database_yaml)
    say(f"Starting {label} on 127.0.0.1:{port} (pool {pool}, "
        f"STRATA_JAVA_OPTS={java_opts_shown(java_opts)})")
    try:
        return start_strata_daemon(session, tools, label, home, conf, port, java_opts,
                                   session.path(f"{prefix}-start.log")), home
    except StartFailed as e:
        e.home = home
        raise


def stop(session, proc, port):
    """Stops one target and waits until its port is free again, for the next one on it."""
    proc.stop()
    session.forget(proc)
    for _ in range(40):
        if not common.port_in_use(port):
            return
        time.sleep(0.25)
    die(f"port {port} is still in use after {proc.label} stopped")


def java_opts_shown(opts):
    return opts or "<start.sh default>"


# ---- ShardingSphere-Proxy ---------------------------------------------------------------------------------------

def fetch_shardingsphere(version, lib_given, java):
    """ShardingSphere-Proxy's jars: lib_given, or ~/.cache/strata-bench/shardingsphere-<version>/lib, fetched once
    from Maven Central with the repo's ./mvnw and bench/sharding/shardingsphere-pom.xml. Returns (lib, version of
    the bootstrap jar)."""
    if lib_given:
        if not os.path.isdir(lib_given):
            die(f"--shardingsphere-lib: no folder {lib_given}")
        lib = os.path.abspath(lib_given)
    else:
        cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "strata-bench",
                             f"shardingsphere-{version}")
        lib = os.path.join(cache, "lib")
        if not glob.glob(f"{lib}/shardingsphere-proxy-bootstrap-*.jar"):
            say(f"Fetching ShardingSphere-Proxy {version} from Maven Central into {lib} (once; ./mvnw "
                f"dependency:copy-dependencies)")
            os.makedirs(cache, exist_ok=True)
            partial = os.path.join(cache, "lib.partial")
            shutil.rmtree(partial, ignore_errors=True)
            env = dict(os.environ, JAVA_HOME=java[: -len("/bin/java")])
            log = os.path.join(cache, "fetch.log")
            with open(log, "w") as out:
                rc = subprocess.run(["./mvnw", "-B", "-q", "-f", os.path.join(common.BENCH_DIR, "sharding",
                                                                             "shardingsphere-pom.xml"),
                                     f"-Dshardingsphere.version={version}", f"-Dlib.dir={partial}",
                                     "dependency:copy-dependencies"], cwd=common.REPO_DIR, env=env, stdout=out,
                                    stderr=subprocess.STDOUT).returncode
            if rc != 0:
                for line in [l for l in common.read_text(log).splitlines() if "ERROR" in l][:5]:
                    echo(line)
                die(f"could not fetch shardingsphere-proxy-bootstrap {version} and its dependencies from Maven "
                    f"Central (log: {log})")
            os.rename(partial, lib)
    jars = sorted(glob.glob(f"{lib}/shardingsphere-proxy-bootstrap-*.jar"))
    if not jars:
        die(f"{lib} holds no shardingsphere-proxy-bootstrap jar")
    return lib, os.path.basename(jars[0])[len("shardingsphere-proxy-bootstrap-"):-len(".jar")]


def shardingsphere_java_opts(major):
    """The JVM options of ShardingSphere-Proxy's own bin/start.sh (5.x): a 2 GB heap with a 1 GB young generation,
    and for Java 8, 11 and 17 the options it adds for that version. No tuning of ours."""
    opts = ("-Djava.awt.headless=true -server -Xmx2g -Xms2g -Xmn1g -Xss1m -XX:AutoBoxCacheMax=4096 -XX:+UseNUMA "
            "-XX:+DisableExplicitGC -XX:LargePageSizeInBytes=128m -Dio.netty.leakDetection.level=DISABLED")
    if major == 8:
        opts += (" -XX:+UseConcMarkSweepGC -XX:+UseCMSInitiatingOccupancyOnly "
                 "-XX:CMSInitiatingOccupancyFraction=70")
    elif major in (11, 17):
        opts += " -XX:+SegmentedCodeCache -XX:+AggressiveHeap"
    return opts


SHARDINGSPHERE_LOGBACK = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by bench/sharding/run.sh: INFO to the console (stdout.log), as the distribution's. -->
<configuration>
    <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
        <encoder>
            <pattern>[%-5level] %d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %logger{36} - %msg%n</pattern>
        </encoder>
    </appender>
    <root level="INFO">
        <appender-ref ref="console" />
    </root>
</configuration>
"""


def start_shardingsphere(session, tools, home, java, opts, lib, port, server_yaml, database_yaml):
    """ShardingSphere-Proxy as its bin/start.sh starts it (Bootstrap <port> <conf path on the class path>; the class
    path is the home, for "/conf/", the conf folder and lib/*), as this run's child so that its pid is the JVM's."""
    conf = os.path.join(home, "conf")
    os.makedirs(conf, exist_ok=True)
    os.makedirs(os.path.join(home, "logs"), exist_ok=True)
    for name, text in (("server.yaml", server_yaml), ("config-sbtest.yaml", database_yaml),
                       ("logback.xml", SHARDINGSPHERE_LOGBACK)):
        with open(os.path.join(conf, name), "w") as f:
            f.write(text)
    log = os.path.join(home, "logs", "stdout.log")
    p = common.spawn([java, *opts.split(), "-classpath", f"{conf}:{home}:{lib}/*",
                      "org.apache.shardingsphere.proxy.Bootstrap", str(port), "/conf/"], log, cwd=home)
    proc = session.add(common.Proc("ShardingSphere-Proxy", p.pid, p, stop_timeout=30))
    if not common.wait_until(180, p.pid, lambda: tools.answers(port)):
        echo("\n".join(common.read_text(log).splitlines()[-40:]))
        die(f"ShardingSphere-Proxy does not answer on port {port} (log: {log})")
    return proc


def version_line(cmd):
    return report.first_line(cmd)

