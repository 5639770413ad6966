"""Where a study's or a sweep's runs are done: here (--launcher local, side by side up to --jobs) or as the tasks of
a Slurm job array (--launcher slurm). Each run is a Task: a command that writes one JSON result. Whichever launcher
runs it, the same function (execute) runs the command and stamps its result, so a result does not say, and a report
cannot tell, which launcher made it."""
import concurrent.futures
import dataclasses
import functools
import json
import os
import platform
import shlex
import subprocess
import sys
import time

import threading

from .. import results

from .process_tree import stop_with_parent  # gups-sim's children stop the same way (the build copies it beside)


MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def host_cores():
    """The cores this process may run on (its CPU affinity), which a measured run must not exceed."""
    return len(os.sched_getaffinity(0))


class Progress:
    def __init__(self, total, prefix="sweep", quiet=False):
        self.total, self.done, self.start, self.prefix, self.quiet = total, 0, time.monotonic(), prefix, quiet
        self.lock = threading.Lock()  # steps may come from simulations run side by side

    def left(self):
        """Seconds left at the pace so far (0 before the first step)."""
        return (time.monotonic() - self.start) / self.done * max(0, self.total - self.done) if self.done else 0.0

    def step(self, what):
        with self.lock:
            self.done += 1
            elapsed, left = time.monotonic() - self.start, self.left()
            if not self.quiet:
                print(f"{self.prefix}: [{self.done}/{self.total}] {what} ({elapsed:.0f} s, about {left:.0f} s left)",
                      file=sys.stderr, flush=True)


@dataclasses.dataclass
class Task:
    name: str  # unique among a study's tasks
    what: str  # for progress lines
    command: list  # the program and its arguments; an MPI run's launcher goes in front (mpi_prefix)
    path: str  # the JSON the command writes; the stamped result stays there
    section: str  # "study" or "sweep": the key the result's provenance is stamped under
    meta: dict = dataclasses.field(default_factory=dict)  # more provenance stamped beside the command
    memory_bytes: int = 0  # the plan's estimate (0: unknown)
    seconds: float = 0.0  # the expected wall time (0: unknown)
    ranks: int = 0  # an MPI run's ranks (0: not an MPI program)
    hosts: int = 1  # the machine nodes an MPI run spreads over
    env: dict = dataclasses.field(default_factory=dict)

    def full_command(self, mpi_prefix):
        return (mpi_prefix(self) if self.ranks else []) + list(self.command)


def run(command, env=None):
    """(status, stdout, stderr) of a command run to its end; it stops if this process dies."""
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **(env or {})},
                          preexec_fn=functools.partial(stop_with_parent, os.getpid()))
    return done.returncode, done.stdout, done.stderr


def quoted(command):
    return " ".join(shlex.quote(c) for c in command)


def mpirun_prefix(task):
    """The MPI launcher of the program's own build: its gups-mpirun (kernel/launch/mpi_flavour.cmake), beside it
    once installed, in the build's kernel/ folder for a program built elsewhere in the tree; else mpirun. A program
    built with MPICH and started by Open MPI's mpirun would run as that many single-rank jobs."""
    return [mpi_launcher(task.command[0] if task.command else ""), "-np", str(task.ranks)]


def mpi_launcher(program):
    folder = os.path.dirname(program)
    for candidate in (os.path.join(folder, "gups-mpirun"), os.path.join(folder, os.pardir, "kernel", "gups-mpirun")):
        if folder and os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    return "mpirun"


SRUN_MPI = "pmix"  # Debian's Slurm has the pmix plugin and its Open MPI is built against PMIx


def srun_prefix(task, mpi_plugin=SRUN_MPI):
    """srun starts the ranks itself, through the site's MPI plugin (--srun-mpi; `srun --mpi=list` names them).
    Block distribution puts consecutive ranks (a torus node's cores, then the next node) on one machine node, as
    the plan's --nodes-per-host places them."""
    return ["srun", f"--mpi={mpi_plugin}", "--ntasks", str(task.ranks), "--nodes", str(task.hosts),
            "--distribution=block"]


def execute(task, mpi_prefix=mpirun_prefix):
    """Runs the task here. Afterwards the JSON at task.path holds the command's result (or only the provenance,
    when it wrote none) with task.section = {command, failed, wall_seconds, node_list, **meta}. Returns
    (document, wall seconds, failed, the end of its error output)."""
    command = task.full_command(mpi_prefix)
    if os.path.exists(task.path):
        os.remove(task.path)  # a result left by an earlier run is not this one's
    start = time.monotonic()
    status, _, err = run(command, task.env)
    wall = time.monotonic() - start
    try:
        with open(task.path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError):
        document = None
    failed = status != 0 or not isinstance(document, dict)
    stamped = document if isinstance(document, dict) else {}
    stamped[task.section] = {**task.meta, "command": quoted(command), "failed": failed,
                             "wall_seconds": round(wall, 3),
                             "node_list": os.environ.get("SLURM_JOB_NODELIST", platform.node())}
    os.makedirs(os.path.dirname(os.path.abspath(task.path)), exist_ok=True)
    results.write_whole(task.path, stamped)
    why = f"status {status}: {err.strip()[-300:]}" if failed else ""
    return stamped, wall, failed, why


def resumed(task, mpi_prefix, progress):
    """With --resume: (document, wall seconds) of this task's finished result, with a progress step, or None."""
    document = kept(task, mpi_prefix)
    if document is None:
        return None
    progress.step(f"{task.what}: kept from an earlier {task.section}")
    return document, document[task.section].get("wall_seconds", 0.0)


def kept(task, mpi_prefix, quiet=False):
    """The finished result of exactly this task at its path, or None (unless quiet, with a line saying why when
    there is a file that is not one)."""
    done, why = results.kept_result(task.path, quoted(task.full_command(mpi_prefix)), task.section)
    if done:
        with open(task.path, encoding="utf-8") as f:
            return json.load(f)
    if why and not quiet:
        print(f"{task.section}: {why}: running it again", file=sys.stderr, flush=True)
    return None


class Local:
    """Runs tasks on this host, --jobs side by side."""
    name = "local"
    mpi_prefix = staticmethod(mpirun_prefix)

    def __init__(self, jobs=1):
        self.jobs = max(1, jobs)

    def run(self, tasks, progress, resume=False):
        """(document or None when it failed, wall seconds) per task, in the tasks' order."""
        def one(task):
            earlier = resumed(task, self.mpi_prefix, progress) if resume else None
            if earlier:
                return earlier
            document, wall, failed, why = execute(task, self.mpi_prefix)
            if failed:
                print(f"{task.section}: {task.what} failed ({why})", file=sys.stderr, flush=True)
            progress.step(task.what)
            return (None if failed else document), wall
        if self.jobs <= 1 or len(tasks) <= 1:
            return [one(task) for task in tasks]
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(one, tasks))


def task_main(argv):
    """python3 -m analysis task TASKS.json INDEX: one task of a Slurm array (SLURM_ARRAY_TASK_ID)."""
    path, index = argv
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    task = Task(**document["tasks"][int(index)])
    plugin = document.get("srun_mpi", SRUN_MPI)
    _, wall, failed, why = execute(task, lambda t: srun_prefix(t, plugin))
    print(f"{task.what}: {'failed, ' + why if failed else 'done'} in {wall:.1f} s", flush=True)
    return 1 if failed else 0
