#!/usr/bin/env python3
"""The Slurm launcher against a real one-node Slurm (tests/slurm/one-node-slurm.sh, Debian's packages):

1. a study of tiny simulations run here and through --launcher slurm gives the same table, field for field (wall
   time and peak memory aside: they measure the host, not the machine);
2. a task killed with scancel is reported failed, with its state and log, and --resume submits it alone;
3. a measured sweep under Slurm (srun, PMIx) ends with verified runs and records where they ran, names on its last
   line the run the partition cannot hold and exits 3 (0 with --allow-skips);
4. docs/cluster.md's job script runs gups across the allocation with HPCC's table size, and the guide's calibration
   through srun works;
5. bad input ends with one error line and exit 2: an unknown partition, sbatch missing, a task larger than the node.

Prints what it checks as it goes (the README quotes it). Exits 1 with the reason when Slurm cannot start.
Usage: slurm_launcher.py --build BUILD --out DIR"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
# A node of 6 GiB: a 16,384-node simulation (about 5.6 GiB by its plan, 7 GiB with the margin) does not fit.
NODE_MEMORY_MB = 6144
OUT = [""]  # the test's folder, shown as OUT in the transcript
MEASUREMENTS = ("wall_seconds", "peak_mib")  # of the host that ran it, not of the simulated machine
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


TRANSCRIPT = []


class Failed(Exception):
    pass


def say(text):
    """A line of the test's transcript (written to OUT/slurm-one-node.md at the end; the README shows it)."""
    TRANSCRIPT.append(text)
    print(text, flush=True)


def check(condition, what):
    say(f"{'ok' if condition else 'FAILED'}: {what}")
    if not condition:
        raise Failed(what)


def analysis(*arguments, env=None, check_status=0, shown_prefix=""):
    command = [PYTHON, "-m", "analysis", *arguments]
    start = time.monotonic()
    done = subprocess.run(command, cwd=SOURCE, capture_output=True, text=True, env=env)
    shown = " ".join(a.replace(OUT[0] + "/", "OUT/").replace(SOURCE + "/", "") for a in arguments)
    say(f"$ {shown_prefix}python3 -m analysis {shown}   # {time.monotonic() - start:.1f} s, exit {done.returncode}")
    if check_status is not None and done.returncode != check_status:
        print(done.stderr[-3000:], file=sys.stderr)
        raise Failed(f"exit {done.returncode}, expected {check_status}")
    return done


def table(out):
    with open(os.path.join(out, "table4.json"), encoding="utf-8") as f:
        return [{k: v for k, v in row.items() if k not in MEASUREMENTS} for row in json.load(f)["rows"]]


def squeue_index_running(env, index):
    done = subprocess.run(["squeue", "--noheader", "--array", "--format", "%i %T"], capture_output=True, text=True,
                          env=env)
    for line in done.stdout.splitlines():
        ident, _, state = line.strip().partition(" ")
        if ident.endswith(f"_{index}") and state == "RUNNING":
            return ident
    return None


def study_equals_local(args, env):
    common = ["study", "table4", "--nodes", "64,128", "--algorithms", "multicore,routed", "--updates-per-node",
              "1024", "--build", args.build]
    analysis(*common, "--out", os.path.join(args.out, "local"), env=env)
    slurm = analysis(*common, "--out", os.path.join(args.out, "slurm"), "--launcher", "slurm", "--poll-seconds",
                     "1", env=env)
    for line in slurm.stderr.splitlines():
        if line.startswith("slurm: submitted"):
            say("  " + line.replace(OUT[0] + "/", "OUT/"))
    local_rows, slurm_rows = table(os.path.join(args.out, "local")), table(os.path.join(args.out, "slurm"))
    check(len(local_rows) == 6 and all(r.get("sim_steady_gups") for r in slurm_rows),
          f"the study ran {len(slurm_rows)} simulations as Slurm tasks, each with a result")
    differing = [(a["machine"], a["algorithm"], a["nodes"], k) for a, b in zip(local_rows, slurm_rows)
                 for k in set(a) | set(b) if a.get(k) != b.get(k)]
    check(local_rows == slurm_rows, "local and Slurm tables equal field for field "
          f"({len(local_rows[0])} fields x {len(local_rows)} rows){': ' + str(differing[:4]) if differing else ''}")


def cancelled_task_is_redone(args, env):
    out = os.path.join(args.out, "cancel")
    # Task 1 (512 nodes, multi-core) runs for seconds: long enough to be killed while running.
    command = [PYTHON, "-m", "analysis", "study", "table4", "--nodes", "64,512", "--algorithms", "multicore",
               "--updates-per-node", "4096", "--build", args.build, "--out", out, "--launcher", "slurm",
               "--poll-seconds", "1"]
    study = subprocess.Popen(command, cwd=SOURCE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env)
    killed = None
    for _ in range(600):
        killed = squeue_index_running(env, 1)
        if killed or study.poll() is not None:
            break
        time.sleep(0.1)
    check(killed is not None, f"task {killed} of the study's array seen running")
    subprocess.run(["scancel", killed], env=env, check=True)
    _, err = study.communicate(timeout=300)
    reported = [line for line in err.splitlines() if "failed: task" in line]
    for line in reported:
        say("  " + line.replace(OUT[0] + "/", "OUT/"))
    check(study.returncode == 1 and len(reported) == 1 and f"task {killed} ended CANCELLED" in reported[0]
          and "--resume submits it again alone" in reported[0] and "/slurm/logs/" in reported[0],
          "the cancelled task is named failed, with its state and log; the study exits 1")
    again = analysis("study", "table4", "--nodes", "64,512", "--algorithms", "multicore", "--updates-per-node",
                     "4096", "--build", args.build, "--out", out, "--launcher", "slurm", "--poll-seconds", "1",
                     "--resume", env=env)
    submitted = [line for line in again.stderr.splitlines() if line.startswith("slurm: submitted")]
    for line in submitted:
        say("  " + line.replace(OUT[0] + "/", "OUT/"))
    rows = table(out)
    check(len(submitted) == 1 and ": 1 task(s)" in submitted[0] and all(r.get("sim_steady_gups") for r in rows),
          "--resume kept the finished task and submitted the cancelled one alone; both rows have results")


def gups_job(args, env):
    """docs/cluster.md's job script: gups across the allocation, its table sized by HPCC's rule from --mem."""
    out = os.path.join(args.out, "job.json")
    command = ["sbatch", "--wait", "--nodes", "1", "--ntasks", "2", "--mem", "128M", "--output",
               os.path.join(args.out, "job.out"), os.path.join(SOURCE, "kernel", "launch", "gups-job.sh"), "--algo",
               "direct"]
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=args.out,
                          env={**env, "TORUS_GUPS_BUILD": args.build, "GUPS_JSON": out})
    say(f"$ sbatch --wait --nodes 1 --ntasks 2 --mem 128M kernel/launch/gups-job.sh --algo direct   "
        f"# {time.monotonic() - start:.1f} s, exit {done.returncode}")
    with open(os.path.join(args.out, "job.out"), encoding="utf-8", errors="replace") as f:
        log = f.read()
    sized = [line for line in log.splitlines() if line.startswith("gups-job:")]
    for line in sized:
        say("  " + line)
    result = json.load(open(out, encoding="utf-8")) if os.path.exists(out) else {}
    # 128 MiB a node, half of it: 64 MiB, 2^23 words of 8 bytes.
    check(done.returncode == 0 and result.get("passed") and result.get("ranks") == 2
          and result.get("log2_table") == 23 and len(sized) == 1 and "2^23 words" in sized[0],
          "the job script ran gups on the allocation's 2 ranks with HPCC's table (2^23 words: half of 128 MiB), "
          f"verified ({result.get('gups', 0):.4f} GUP/s)")
    done = subprocess.run(["bash", os.path.join(SOURCE, "kernel", "launch", "gups-job.sh")], capture_output=True,
                          text=True, env={k: v for k, v in env.items() if not k.startswith("SLURM_JOB")})
    check(done.returncode == 2 and done.stderr.startswith("gups-job: error: not inside a Slurm job"),
          "the job script run outside a job: one error line, exit 2")


def measured_sweep(args, env):
    host = os.path.join(args.out, "host.json")
    # As docs/cluster.md calibrates: on a node of the cluster, through srun (which root may run, unlike mpirun).
    done = subprocess.run(["srun", "--mpi=pmix", "--nodes", "1", "--ntasks", "2",
                           os.path.join(args.build, "models", "gups-calibrate"), "--repeats", "1", "--log2-table",
                           "16", "--output", host], capture_output=True, text=True, env=env)
    check(done.returncode == 0, "a node calibrated through srun (gups-calibrate) for the measured sweep's machine "
          f"file{'' if done.returncode == 0 else ': ' + done.stderr.strip()[-300:]}")
    out = os.path.join(args.out, "measured")
    done = analysis("sweep", "--machine", host, "--algorithms", "direct,routed,multicore", "--nodes", "1,2",
                    "--sources", "model,measured", "--log2-table", "18", "--build", args.build, "--out", out,
                    "--launcher", "slurm", "--poll-seconds", "1", env=env, check_status=3)
    skipped = [line.split("] ", 1)[1].split(" (measured runs")[0] for line in done.stderr.splitlines()
               if "not run" in line]
    last = done.stderr.strip().splitlines()[-1]
    say("  " + last)
    check(last.startswith("sweep: 1 of 9 runs NOT RUN") and "measured multicore 2 nodes" in last
          and "--allow-skips" in last, "the sweep's last line names the run it skipped and it exits 3")
    again = analysis("sweep", "--machine", host, "--algorithms", "direct,routed,multicore", "--nodes", "1,2",
                     "--sources", "model,measured", "--log2-table", "18", "--build", args.build, "--out", out,
                     "--launcher", "slurm", "--poll-seconds", "1", "--resume", "--allow-skips", env=env)
    check("--allow-skips: exit 0" in again.stderr.strip().splitlines()[-1],
          "with --allow-skips (and --resume: nothing run again) the same sweep exits 0")
    for line in skipped:
        say("  " + line)
    # This host's machine file has 2 cores a node: multicore runs 2 ranks a torus node, one torus node a host.
    check(len(skipped) == 1 and skipped[0].startswith("measured multicore 2 nodes")
          and "needs 4 ranks on 2 node(s) and the partition has 1 node(s)" in skipped[0],
          "a run needing more nodes than the partition has is not run, and the sweep says why")
    runs = []
    for name in sorted(os.listdir(os.path.join(out, "raw"))):
        if name.startswith("measured-"):
            with open(os.path.join(out, "raw", name), encoding="utf-8") as f:
                runs.append(json.load(f))
    for run in runs:
        say(f"  {run['sweep']['algorithm']} {run['sweep']['nodes']} node(s): {run['ranks']} rank(s) on "
              f"{run['sweep']['node_list']}, {run['gups']:.4f} GUP/s, {run['errors']} errors: "
              f"{run['sweep']['command'].split(' /')[0]}")
    check(len(runs) == 5 and all(r["errors"] == 0 and not r["sweep"]["failed"] and r["sweep"]["node_list"]
                                 and r["sweep"]["command"].startswith("srun --mpi=pmix") for r in runs),
          "5 measured runs under Slurm (direct, routed, multicore), started by srun, verified, each with its node "
          "list")


def bad_input(args, env):
    def error_line(*arguments, env=env, shown_prefix=""):
        done = analysis(*arguments, env=env, check_status=None, shown_prefix=shown_prefix)
        lines = done.stderr.strip().splitlines()
        say("  " + (lines[-1] if lines else "(nothing)").replace(OUT[0] + "/", "OUT/"))
        return done.returncode, lines

    tiny = ["study", "table4", "--nodes", "64", "--algorithms", "routed", "--updates-per-node", "1024", "--build",
            args.build, "--out", os.path.join(args.out, "bad"), "--launcher", "slurm"]
    status, lines = error_line(*tiny, "--partition", "nosuch")
    check(status == 2 and len(lines) == 1 and "sbatch refused the array: " in lines[0]
          and "Invalid partition" in lines[0], "an unknown partition: sbatch's refusal, one line, exit 2")
    empty = os.path.join(args.out, "no-programs")  # a PATH without Slurm's commands (or any others)
    os.makedirs(empty, exist_ok=True)
    status, lines = error_line(*tiny, env={**env, "PATH": empty}, shown_prefix="PATH=OUT/no-programs ")
    check(status == 2 and len(lines) == 1 and "sbatch is missing" in lines[0], "sbatch missing: one line, exit 2")
    big = ["study", "table4", "--nodes", "16384", "--algorithms", "multicore", "--build", args.build, "--out",
           os.path.join(args.out, "big"), "--launcher", "slurm"]
    status, lines = error_line(*big)
    check(status == 2 and len(lines) == 1 and "MiB" in lines[0] and f"offers {NODE_MEMORY_MB:,} MiB" in lines[0],
          "a task needing more memory than the node has: one line, exit 2, nothing submitted")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    args.build, args.out = os.path.abspath(args.build), os.path.abspath(args.out)
    OUT[0] = args.out
    shutil.rmtree(args.out, ignore_errors=True)
    cluster = os.path.join(args.out, "cluster")
    script = os.path.join(SOURCE, "tests", "slurm", "one-node-slurm.sh")
    start = time.monotonic()
    up = subprocess.run(["bash", script, "start", cluster, str(NODE_MEMORY_MB)], capture_output=True, text=True)
    if up.returncode != 0:
        print(f"FAILED: Slurm did not start: {up.stderr.strip()}", file=sys.stderr)
        subprocess.run(["bash", script, "stop", cluster])
        return 1
    say(f"ok: a one-node Slurm up in {time.monotonic() - start:.1f} s (tests/slurm/one-node-slurm.sh start OUT/cluster "
        f"{NODE_MEMORY_MB}: munged, slurmctld, slurmd, {os.cpu_count()} CPUs)")
    env = {**os.environ, "SLURM_CONF": os.path.join(cluster, "slurm.conf")}
    version = subprocess.run(["sbatch", "--version"], capture_output=True, text=True, env=env).stdout.split()
    try:
        study_equals_local(args, env)
        cancelled_task_is_redone(args, env)
        gups_job(args, env)
        measured_sweep(args, env)
        bad_input(args, env)
    except Failed as failure:
        print(f"slurm launcher test failed: {failure}; the daemons' logs are in {cluster}/logs", file=sys.stderr)
        return 1
    finally:
        subprocess.run(["bash", script, "stop", cluster])
    say(f"all checks passed in {time.monotonic() - start:.0f} s")
    write_transcript(args, version[-1] if version else "?")
    return 0


def write_transcript(args, version):
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    command = f"python3 tests/integration/slurm_launcher.py --build build --out {os.path.relpath(args.out, SOURCE)}"
    with open(os.path.join(args.out, "slurm-one-node.md"), "w", encoding="utf-8") as f:
        f.write(f"Measured {stamp} on {os.uname().nodename} ({os.cpu_count()} cores, Slurm "
                f"{version}); command: `{command}`.\n\n")
        f.write("\n".join("    " + line for line in TRANSCRIPT) + "\n")



if __name__ == "__main__":
    sys.exit(main())
