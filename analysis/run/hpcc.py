"""HPCC's MPIRandomAccess (Debian's hpcc 1.5.0, the reference every site submits) on this host's ranks, for a table
of 2^k words: HPCC sizes its table from HPL's matrix, the largest power of two <= N^2 words, so N = 2^ceil(k/2).
Every other HPCC test runs too, at that small N, and is ignored. Updates: 4 per word, as gups's default."""
import math
import os
import re
import shutil
import subprocess

EXAMPLE_INPUT = "/usr/share/doc/hpcc/examples/_hpccinf.txt"
INSTALL_HINT = "apt install hpcc (Debian's HPC Challenge)"
PASS_MARK = 0.01  # HPCC's own: at most 1% of the table wrong


def installed():
    return shutil.which("hpcc") is not None and os.path.exists(EXAMPLE_INPUT)


def hpl_n(log2_table):
    return 2 ** math.ceil(log2_table / 2)


def command(ranks):
    """Debian's hpcc is linked with Open MPI: its own launcher starts it whichever MPI `mpirun` names."""
    return [shutil.which("mpirun.openmpi") or "mpirun", "--oversubscribe", "-np", str(ranks), "hpcc"]


def write_input(folder, log2_table, ranks):
    """Debian's example input with HPL's N for the table and a 1 x ranks grid, as folder/hpccinf.txt."""
    lines = open(EXAMPLE_INPUT, encoding="utf-8").read().splitlines()
    for index, value in {5: hpl_n(log2_table), 10: 1, 11: ranks}.items():  # the lines of Ns, Ps, Qs
        lines[index] = f"{value:<13}{lines[index][13:]}"
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hpccinf.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def run(folder, ranks, env):
    """One HPCC run in `folder` (its hpccinf.txt written): MPIRandomAccess's table words, GUP/s, errors' share and
    updates. Raises RuntimeError."""
    output = os.path.join(folder, "hpccoutf.txt")
    if os.path.exists(output):
        os.remove(output)  # HPCC appends
    done = subprocess.run(command(ranks), cwd=folder, capture_output=True, text=True, env={**os.environ, **env},
                          timeout=600)
    if done.returncode != 0 or not os.path.exists(output):
        raise RuntimeError(f"hpcc failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    text = open(output, encoding="utf-8").read()
    summary = dict(re.findall(r"^(\w+)=(\S+)$", text.split("Begin of Summary section.", 1)[-1], re.M))
    try:
        return {key: float(summary[f"MPIRandomAccess_{key}"]) for key in ("N", "GUPs", "ErrorsFraction", "ExeUpdates")}
    except (KeyError, ValueError) as error:
        raise RuntimeError(f"hpcc wrote no MPIRandomAccess summary in {output}") from error


def verified(result):
    return result["ErrorsFraction"] <= PASS_MARK
