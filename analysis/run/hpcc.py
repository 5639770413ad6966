"""HPCC's MPIRandomAccess (Debian's hpcc 1.5.0, the reference every site submits) on this host's ranks, for a table
of 2^k words: HPCC sizes its table from HPL's matrix, the largest power of two <= N^2 words, so N = 2^ceil(k/2).
Every other HPCC test runs too, at that small N, and is ignored. Updates: 4 per word, as gups's default."""
import math
import os
import re
import shutil
import resource
import subprocess
import time

EXAMPLE_INPUT = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
INSTALL_HINT = "apt install hpcc (Debian's HPC Challenge)"
PASS_MARK = 0.01  # HPCC's own: at most 1% of the table wrong


def installed():
    return shutil.which("hpcc") is not None and os.path.exists(EXAMPLE_INPUT)


def hpl_n(log2_table):
    return 2 ** math.ceil(log2_table / 2)


def command(ranks, binary="hpcc"):
    """Debian's hpcc is linked with Open MPI (and hpcc_sandia's build too): its own launcher starts it whichever MPI
    `mpirun` names."""
    return [shutil.which("mpirun.openmpi") or "mpirun", "--oversubscribe", "-np", str(ranks), binary]


def write_input(folder, log2_table, ranks):
    """Debian's example input with HPL's N for the table and a 1 x ranks grid, as folder/hpccinf.txt."""
    lines = open(EXAMPLE_INPUT, encoding="utf-8").read().splitlines()
    for index, value in {5: hpl_n(log2_table), 10: 1, 11: ranks}.items():  # the lines of Ns, Ps, Qs
        lines[index] = f"{value:<13}{lines[index][13:]}"
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hpccinf.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def run(folder, ranks, env, binary="hpcc"):
    """One HPCC run in `folder` (its hpccinf.txt written): MPIRandomAccess's table words, GUP/s, errors' share and
    updates, and whether it ran Sandia's hypercube algorithm (RA_SANDIA_OPT2: HPCC prints which it was built
    with). Raises RuntimeError."""
    output = os.path.join(folder, "hpccoutf.txt")
    if os.path.exists(output):
        os.remove(output)  # HPCC appends
    host_before, own_before, start = host_busy_seconds(), children_cpu_seconds(), time.monotonic()
    done = subprocess.run(command(ranks, binary), cwd=folder, capture_output=True, text=True, env={**os.environ, **env},
                          timeout=600)
    load = others_share(host_before, host_busy_seconds(), children_cpu_seconds() - own_before,
                        time.monotonic() - start)
    if done.returncode != 0 or not os.path.exists(output):
        raise RuntimeError(f"hpcc failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    text = open(output, encoding="utf-8").read()
    summary = dict(re.findall(r"^(\w+)=(\S+)$", text.split("Begin of Summary section.", 1)[-1], re.M))
    try:
        result = {key: float(summary[f"MPIRandomAccess_{key}"])
                  for key in ("N", "GUPs", "ErrorsFraction", "ExeUpdates")}
    except (KeyError, ValueError) as error:
        raise RuntimeError(f"hpcc wrote no MPIRandomAccess summary in {output}") from error
    result["others_cpu_share"] = load
    result["sandia_opt2"] = summary.get("CPS_RA_SANDIA_OPT2") == "1"
    return result


def host_busy_seconds():
    """CPU seconds this host's processes have spent since boot (/proc/stat, as gups's host_load.cpp reads it);
    None where it cannot be read."""
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [float(v) for v in fields[1:9]] + [0.0] * (8 - len(fields[1:9]))
    busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]  # all but idle and iowait
    return busy / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def others_share(host_before, host_after, own_seconds, wall):
    """The share of this host's cores that other processes used while HPCC ran (its whole run: HPCC times its
    RandomAccess phase only, which no counter outside it can isolate); None where /proc/stat is unreadable."""
    if host_before is None or host_after is None or wall <= 0:
        return None
    cores = len(os.sched_getaffinity(0))
    return min(1.0, max(0.0, (host_after - host_before - own_seconds) / (wall * cores)))


def verified(result):
    return result["ErrorsFraction"] <= PASS_MARK
