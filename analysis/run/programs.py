"""The project's programs as the analysis runs them: the one place that finds a built binary, one builder per
program's command line, and what gups-topology says of machines, plans and network levels."""
import functools
import json
import os
import shutil

from . import launcher

# program -> its path in the build
PATHS = {
    "gups": "kernel/gups",
    "gups-shared-table": "kernel/gups-shared-table",
    "gups-model": "models/gups-model",
    "gups-calibrate": "models/gups-calibrate",
    "apex-map-model": "models/apex-map-model",
    "gups-topology": "sim/gups-topology",
    "gups-sim": "sim/gups-sim",
}
MADE_BY = {"gups-sim": "cmake --build build (needs SimGrid: libsimgrid-dev)"}


class MissingBinary(Exception):
    pass


def binary(build, program):
    """The path of a program in the build, else installed on PATH (cmake --install); MissingBinary says how to
    make it."""
    path = os.path.join(build, PATHS[program])
    if os.path.exists(path):
        return path
    if not os.path.isdir(build) and (installed := shutil.which(program)):
        return installed
    left_out = os.path.join(build, "sim", "simulator-left-out.txt")
    if program == "gups-sim" and os.path.exists(left_out):
        with open(left_out, encoding="utf-8") as f:
            why = f.read().strip()
        raise MissingBinary(f"this build has no simulator (gups-sim): it was left out when {build} was configured "
                            f"({why}); the model and measured runs need none")
    if program == "gups-sim" and not os.path.isdir(build):
        raise MissingBinary(f"no gups-sim in {build} or on PATH: an installation built without SimGrid has no "
                            "simulator; the model and measured runs need none")
    raise MissingBinary(f"{path} is missing: it is made by '{MADE_BY.get(program, 'cmake --build build')}'")


def sim_command(sim, machine, algorithm, nodes, *options):
    """gups-sim of `algorithm` on `nodes` nodes of `machine` (`sim`: its path, from binary())."""
    return [sim, "--quiet", "--machine", machine, "--algo", algorithm, "--nodes", str(nodes), *options]


def model_command(model, machine, algorithm, nodes, *options):
    """gups-model of `algorithm` on `machine` at `nodes` (a count or a comma list)."""
    return [model, "--machine", machine, "--algorithm", algorithm, "--nodes", str(nodes), *options]


def topology_command(build, *options):
    return [binary(build, "gups-topology"), *options]


def network_levels(build):
    """The simulator's network levels as the build's gups-topology lists them (one list, in C++:
    sim/levels/levels.def): [{"name", "help", "simgrid_links"}, ...]."""
    status, out, err = launcher.run(topology_command(build, "--network-levels"))
    if status != 0:
        raise ValueError(f"gups-topology --network-levels: {err.strip()}")
    return json.loads(out)


def routing_levels(build):
    """The network levels that route messages themselves (not SimGrid's own links), as gups-topology lists them."""
    return tuple(level["name"] for level in network_levels(build) if not level["simgrid_links"])


@functools.lru_cache(maxsize=None)
def variants(build):
    """What gups --algo takes, as the build's gups-topology lists it (one table, in C++: kernel/core/variants.def):
    [{"name", "family", "help", and what each needs}, ...]."""
    status, out, err = launcher.run(topology_command(build, "--variants"))
    if status != 0:
        raise ValueError(f"gups-topology --variants: {err.strip()}")
    return json.loads(out)


def variant(build, name):
    """One variant's row of gups-topology --variants (an update algorithm's "model": the algorithm whose equations
    and charges it takes); ValueError when there is none of that name."""
    for row in variants(build):
        if row["name"] == name:
            return row
    raise ValueError(f"no program variant '{name}' (gups-topology --variants lists them)")


def variant_names(build, family=None, **needs):
    """The names of the variants of a family ("update algorithm", "Apex-Map implementation", "global-exchange
    probe") that have what `needs` names (routes_over_torus=True, say), in the table's order."""
    return [v["name"] for v in variants(build)
            if (family is None or v["family"] == family) and all(v.get(k) == want for k, want in needs.items())]


def check_network_level(build, name):
    """Raises ValueError naming the levels when `name` is none of them (without a build, the run that needs one
    says so)."""
    try:
        names = [level["name"] for level in network_levels(build)]
    except MissingBinary:
        return
    if name not in names:
        raise ValueError(f"--network: unknown network level '{name}' (give {', '.join(names)} or auto)")


def plan(build, machine, nodes, algorithm="multicore", options=()):
    """gups-topology's plan of a run: the machine's shape for the node count, ranks, the kernel's arguments
    and the machine file as the C++ reads it. Raises ValueError with its error."""
    command = topology_command(build, "--machine", machine, "--algo", algorithm, "--nodes", str(nodes), *options)
    status, out, err = launcher.run(command)
    if status != 0:
        raise ValueError(err.strip().replace("gups-topology: error: ", ""))
    return json.loads(out)


def load_machine(machine, build):
    """The machine file as gups reads it (a name looked up as gups does, $TORUS_GUPS_MACHINES first); its
    "path" says which file that was."""
    return plan(build, machine, 1)["machine"]


def write_machine(machine, path):
    """A machine file (as load_machine read it, perhaps changed) written where gups can read it: without the
    "path" that load_machine added."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump({key: value for key, value in machine.items() if key != "path"}, f, indent=1)
    return path
