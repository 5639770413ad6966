"""--launcher slurm: a study's or a sweep's pending runs as the tasks of a Slurm job array.

The array is submitted held, with the largest memory and time any task needs; each task's own memory (the plan's
estimate) and time (the expected wall time, times --time-factor) are then set on it with scontrol, and the array
released. Runs needing different CPUs or nodes (measured runs of different rank counts) cannot share an array,
Slurm giving every task of one the same shape: they go in one array per shape. The launcher waits, printing
progress from squeue, and reads each task's result from the shared folder; a task that ends without a finished
result is named with its Slurm state and log, and --resume submits it again alone."""
import argparse
import dataclasses
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from . import launcher

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout
MIB = 2**20
# A simulation's memory estimate leaves out the Python driver and SimGrid's own start-up.
MEMORY_MARGIN, MEMORY_FLOOR_MIB = 1.25, 256
MIN_MINUTES = 5
UNANSWERED_SECONDS = 600  # squeue failing this long (the controller down) ends the wait
ACTIVE = ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING")


class SlurmError(ValueError):
    pass


@dataclasses.dataclass
class Options:
    partition: str = ""
    account: str = ""
    qos: str = ""
    time_factor: float = 3.0
    sbatch_arguments: str = ""
    poll_seconds: float = 10.0
    srun_mpi: str = launcher.SRUN_MPI


def plugin_name(text):
    """--srun-mpi's value: a plugin's name, as `srun --mpi=list` prints them."""
    if not re.fullmatch(r"[\w.-]+", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a plugin name (srun --mpi=list names them)")
    return text


def add_arguments(parser):
    """The launcher's options, on every command that takes --launcher."""
    parser.add_argument("--launcher", default="local", choices=["local", "slurm"],
                        help="local: run here (default); slurm: submit every pending run as a task of a Slurm "
                             "job array and wait for them")
    parser.add_argument("--partition", default="", help="slurm: partition (sbatch --partition)")
    parser.add_argument("--account", default="", help="slurm: account to charge (sbatch --account)")
    parser.add_argument("--qos", default="", help="slurm: quality of service (sbatch --qos)")
    parser.add_argument("--time-factor", type=float, default=3.0,
                        help="slurm: a task's time limit is its expected wall time times this (default 3; at "
                             f"least {MIN_MINUTES} minutes)")
    parser.add_argument("--sbatch-arguments", default="", help="slurm: more sbatch arguments, as one string")
    parser.add_argument("--srun-mpi", default=launcher.SRUN_MPI, type=plugin_name,
                        help=f"slurm: the MPI plugin srun starts measured runs' ranks with (srun --mpi=; default "
                             f"{launcher.SRUN_MPI}; `srun --mpi=list` names a site's)")
    parser.add_argument("--poll-seconds", type=float, default=10.0, help=argparse.SUPPRESS)


def from_args(args, folder, jobs=1):
    """The launcher the command line asks for."""
    if getattr(args, "launcher", "local") == "local":
        return launcher.Local(jobs)
    if args.time_factor <= 0 or args.poll_seconds <= 0:
        raise SlurmError("--time-factor and --poll-seconds must be more than 0")
    return Slurm(folder, Options(args.partition, args.account, args.qos, args.time_factor, args.sbatch_arguments,
                                 args.poll_seconds, getattr(args, "srun_mpi", launcher.SRUN_MPI)))


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError as error:
        raise SlurmError(f"{command[0]} is missing: --launcher slurm needs Slurm's commands on PATH "
                         "(Debian's slurm-client)") from error
    return done.returncode, done.stdout, done.stderr.strip()


def minutes(seconds, factor):
    return max(MIN_MINUTES, math.ceil(factor * seconds / 60)) if seconds else 0


# Wall seconds per simulated update of a node, from Table 4's study's wall times on this machine (its table gives
# each run's), growing with the network's size: a job's time limit, not a promise.
SECONDS_PER_NODE_UPDATE = 6e-6


def expected_simulation_seconds(plan):
    nodes, updates = plan["nodes"], plan["table"]["updates_per_node"]
    return SECONDS_PER_NODE_UPDATE * nodes * updates * (1 + math.log2(max(nodes, 1)) / 10)


def size_simulation(task):
    """A gups-sim task's memory (the plan's estimate) and expected wall time, from gups-sim --plan-only."""
    status, out, err = run(list(task.command) + ["--plan-only"])
    if status != 0:
        raise SlurmError(f"{task.what}: {err.splitlines()[-1] if err else 'gups-sim --plan-only failed'}")
    plan = json.loads(out)
    task.memory_bytes = int(plan["simulation_memory_bytes"])
    task.seconds = expected_simulation_seconds(plan)
    return task


def memory_mib(task):
    return max(MEMORY_FLOOR_MIB, math.ceil(MEMORY_MARGIN * task.memory_bytes / MIB))


class Slurm:
    name = "slurm"

    def mpi_prefix(self, task):
        return launcher.srun_prefix(task, self.options.srun_mpi)

    def __init__(self, folder, options):
        self.folder = os.path.abspath(os.path.join(folder, "slurm"))
        self.options = options
        self.arrays = 0
        self.limits, self.limits_asked = None, False  # the partition's (largest memory MiB, most CPUs, nodes)
        if shutil.which("sbatch") is None:
            raise SlurmError("sbatch is missing: --launcher slurm needs Slurm's commands on PATH (Debian's "
                             "slurm-client), and a cluster to submit to")

    # What the partition's nodes offer: refuse a task no node can take before submitting anything.
    def node_limits(self):
        command = ["sinfo", "--noheader", "--Node", "--format", "%m %c"]
        if self.options.partition:
            command += ["--partition", self.options.partition]
        status, out, err = run(command)
        if status != 0:
            raise SlurmError(f"sinfo failed: {err}")
        sizes = [tuple(int(float(x.rstrip("+"))) for x in line.split()[:2]) for line in out.splitlines() if line.strip()]
        if not sizes:
            return None  # a partition sinfo does not know: sbatch's refusal says so
        return max(s[0] for s in sizes), max(s[1] for s in sizes), len(sizes)

    def partition_limits(self):
        """node_limits(), asked of sinfo once."""
        if not self.limits_asked:
            self.limits, self.limits_asked = self.node_limits(), True
        return self.limits

    def fits(self, task, progress):
        """Whether the partition has the nodes and CPUs of a measured run; if not, the progress line says why it is
        not run (as a local sweep skips what this host's cores cannot hold: never oversubscribed)."""
        limits = self.partition_limits()
        if limits is None or self.shape_fits(task, limits):
            return True
        _, cpus, nodes = limits
        progress.step(f"{task.what}: not run, it needs {task.ranks} ranks on {task.hosts} node(s) and the partition "
                      f"has {nodes} node(s) of at most {cpus} CPUs (measured runs never oversubscribe)")
        return False

    @staticmethod
    def shape_fits(task, limits):
        _, cpus, nodes = limits
        return task.hosts <= nodes and (not task.ranks or math.ceil(task.ranks / task.hosts) <= cpus)

    def check(self, tasks):
        limits = self.partition_limits()
        if limits is None:
            return
        memory, cpus, nodes = limits
        for task in tasks:
            if memory_mib(task) > memory:
                raise SlurmError(f"{task.what} needs {memory_mib(task):,} MiB (the plan's estimate with a margin) "
                                 f"and the largest node offers {memory:,} MiB")
            if not self.shape_fits(task, limits):
                raise SlurmError(f"{task.what} needs {task.ranks} ranks on {task.hosts} node(s); the partition has "
                                 f"{nodes} node(s) of at most {cpus} CPUs")

    def run(self, tasks, progress, resume=False):
        """(document or None when it failed, wall seconds) per task, in the tasks' order."""
        outcome = {}
        pending = []
        for task in tasks:
            earlier = launcher.resumed(task, self.mpi_prefix, progress) if resume else None
            if earlier:
                outcome[task.name] = earlier
            else:
                pending.append(task)
        if pending:
            self.check(pending)
            arrays = [self.submit(group) for group in by_shape(pending)]
            try:
                self.wait(arrays, progress, outcome)
            except KeyboardInterrupt:
                run(["scancel", *[job for job, _ in arrays]])
                print("slurm: interrupted: cancelled " + ", ".join(job for job, _ in arrays), file=sys.stderr)
                raise
        return [outcome[task.name] for task in tasks]

    def submit(self, tasks):
        """One held array of these tasks (same shape), each task's memory and time set, released: (job id, tasks)."""
        os.makedirs(os.path.join(self.folder, "logs"), exist_ok=True)
        self.arrays += 1
        stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}-{self.arrays}"
        task_file = os.path.join(self.folder, f"tasks-{stamp}.json")
        with open(task_file, "w", encoding="utf-8") as f:
            json.dump({"srun_mpi": self.options.srun_mpi, "tasks": [dataclasses.asdict(t) for t in tasks]}, f,
                      indent=1)
        script = os.path.join(self.folder, f"task-{stamp}.sh")
        with open(script, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n# One task of a torus-gups Slurm array: runs task $SLURM_ARRAY_TASK_ID of the file.\n"
                    f"cd {shlex.quote(ROOT)} && exec {shlex.quote(sys.executable)} -m analysis task "
                    f"{shlex.quote(task_file)} \"$SLURM_ARRAY_TASK_ID\"\n")
        first = tasks[0]
        memories = [memory_mib(t) for t in tasks]
        time_limits = [minutes(t.seconds, self.options.time_factor) for t in tasks]
        command = ["sbatch", "--parsable", "--hold", f"--array=0-{len(tasks) - 1}",
                   f"--job-name=torus-gups-{first.section}",
                   f"--output={os.path.join(self.folder, 'logs', '%A_%a.out')}",
                   f"--mem={max(memories)}M"]
        if all(time_limits):
            command.append(f"--time={max(time_limits)}")
        if first.ranks:
            command += [f"--ntasks={first.ranks}", f"--nodes={first.hosts}"]
        else:
            command += ["--ntasks=1", "--cpus-per-task=1"]
        for option in ("partition", "account", "qos"):
            if getattr(self.options, option):
                command.append(f"--{option}={getattr(self.options, option)}")
        command += self.options.sbatch_arguments.split() + [script]
        status, out, err = run(command)
        if status != 0:
            said = "; ".join(line.removeprefix("sbatch: error: ") for line in err.splitlines() if line.strip())
            raise SlurmError(f"sbatch refused the array: {said}")
        job = out.strip().split(";")[0]
        top_memory, top_minutes = max(memories), max(time_limits)
        for index, (task, memory, limit) in enumerate(zip(tasks, memories, time_limits)):
            changes = []
            if memory < top_memory:
                changes.append(f"MinMemoryNode={memory}")
            if limit and limit < top_minutes:
                changes.append(f"TimeLimit={limit}")
            if changes:
                status, _, err = run(["scontrol", "update", f"JobId={job}_{index}", *changes])
                if status != 0:
                    print(f"slurm: {task.what} keeps the array's memory and time ({err})", file=sys.stderr)
        status, _, err = run(["scontrol", "release", job])
        if status != 0:
            run(["scancel", job])
            raise SlurmError(f"scontrol could not release array {job}: {err}")
        print(f"slurm: submitted array {job}: {len(tasks)} task(s) from {task_file}; logs in "
              f"{os.path.join(self.folder, 'logs')}", file=sys.stderr, flush=True)
        return job, tasks

    def states(self, job):
        """{array index: Slurm state} of the tasks squeue still lists."""
        status, out, err = run(["squeue", "--noheader", "--array", "--jobs", job, "--format", "%i %T"])
        if status != 0:
            if "Invalid job id" in err:
                return {}  # gone from the controller (past its MinJobAge): every task has ended
            return None  # the controller did not answer: ask again later
        states = {}
        for line in out.splitlines():
            ident, _, state = line.strip().partition(" ")
            if "_" in ident and ident.split("_")[1].isdigit():
                states[int(ident.split("_")[1])] = state
        return states

    def end_state(self, job, index):
        """How a task that left the queue ended, from sacct, or scontrol while the controller remembers it."""
        status, out, _ = run(["sacct", "--noheader", "--parsable2", "--jobs", f"{job}_{index}", "--format",
                              "State,ExitCode"])
        if status == 0 and out.strip():
            return out.splitlines()[0].replace("|", ", exit ")
        status, out, _ = run(["scontrol", "show", "job", f"{job}_{index}"])
        fields = dict(part.split("=", 1) for part in out.split() if "=" in part) if status == 0 else {}
        if "JobState" in fields:
            return f"{fields['JobState']}, exit {fields.get('ExitCode', '?')}"
        return "state unknown"

    def wait(self, arrays, progress, outcome):
        finished = set()
        last = None
        poll = min(1.0, self.options.poll_seconds)
        unanswered_since = None
        while True:
            counts = {"pending": 0, "running": 0}
            for job, tasks in arrays:
                states = self.states(job)
                if states is None:
                    unanswered_since = unanswered_since or time.monotonic()
                    if time.monotonic() - unanswered_since > UNANSWERED_SECONDS:
                        raise SlurmError(f"squeue has not answered for {UNANSWERED_SECONDS} s; array {job} may still "
                                         "be running (squeue, scancel); once it ends, --resume keeps its results")
                    counts["pending"] += sum(1 for t in tasks if t.name not in finished)  # unknown: still waiting
                    continue
                unanswered_since = None
                for index, task in enumerate(tasks):
                    if task.name in finished:
                        continue
                    state = states.get(index)
                    if state in ACTIVE:
                        counts["pending" if state == "PENDING" else "running"] += 1
                        continue
                    finished.add(task.name)
                    outcome[task.name] = self.collect(job, index, task, progress)
            failed = sum(1 for name in finished if outcome[name][0] is None)
            summary = (f"slurm: {counts['pending']} pending, {counts['running']} running, "
                       f"{len(finished) - failed} done, {failed} failed")
            if summary != last:
                left = f" (about {progress.left():.0f} s left)" if progress.done else ""
                print(summary + left, file=sys.stderr, flush=True)
                last = summary
            if not counts["pending"] and not counts["running"]:
                return
            time.sleep(poll)
            poll = min(self.options.poll_seconds, poll * 1.5)

    def collect(self, job, index, task, progress):
        document = launcher.kept(task, self.mpi_prefix, quiet=True)
        if document is not None:
            progress.step(task.what)
            return document, document[task.section].get("wall_seconds", 0.0)
        log = os.path.join(self.folder, "logs", f"{job}_{index}.out")
        print(f"slurm: {task.what} failed: task {job}_{index} ended {self.end_state(job, index)} without a "
              f"finished result; its log: {log}; --resume submits it again alone", file=sys.stderr, flush=True)
        progress.step(f"{task.what}: failed")
        return None, 0.0


def by_shape(tasks):
    """Tasks grouped by what Slurm must give each (ranks, nodes), in first-seen order."""
    groups = {}
    for task in tasks:
        groups.setdefault((task.ranks, task.hosts), []).append(task)
    return list(groups.values())
