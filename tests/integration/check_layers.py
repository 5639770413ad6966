#!/usr/bin/env python3
"""The project's layers, checked from its own build description: the CMake target graph (cmake --graphviz) and
the #include lines of every C++ folder (includes name their folder from the root: "kernel/core/torus_shape.hpp").

The flow is machine file -> models (gups_models: read it, Eq. 1/6/7) -> topologies/plan (gups_topologies: the
run plan, platform, charges) -> the runs (gups on MPI, gups-smpi under SimGrid, which read only the kernel's
arguments and the charges file) -> analysis (Python, calling the programs). Below the model sit the physical
networks (topologies/network: gups_networks) and the network levels' table (sim/levels: gups_levels). Nothing
points back: the kernel (gups_core and the programs built on it alone) links and includes nothing of models/,
topologies/ or sim/; the networks nothing but the kernel; the levels nothing of models/ or the plan; models/
nothing of the plan or of sim/.

Usage: check_layers.py SOURCE_DIR WORK_DIR [--pretend-edge A B] [--pretend-include HEADER]
(writes WORK_DIR/targets.dot; `dot -Tsvg` draws it). The --pretend options add an edge or a kernel #include
before checking, to show that the check sees one.
"""
import argparse
import os
import re
import subprocess
import sys

# target -> the project targets it must not reach (directly or through others)
ABOVE_KERNEL = {"gups_networks", "gups_levels", "gups_models", "gups_topologies"}
FORBIDDEN = {
    "gups_core": ABOVE_KERNEL,
    "gups": ABOVE_KERNEL,
    "gups-serial": ABOVE_KERNEL,
    "gups_networks": {"gups_levels", "gups_models", "gups_topologies"},
    "gups_levels": {"gups_models", "gups_topologies"},
    "gups_models": {"gups_levels", "gups_topologies"},
}
# folder -> the folders its files may include from
MAY_INCLUDE = {
    "kernel": ("kernel/",),
    "topologies/network": ("kernel/", "topologies/network/"),
    "sim/levels": ("kernel/", "topologies/network/", "sim/levels/"),
    "models": ("kernel/", "topologies/network/", "models/"),
}
PROJECT_FOLDERS = ("kernel/", "models/", "topologies/", "sim/", "tests/")
OPTIONS = """set(GRAPHVIZ_CUSTOM_TARGETS TRUE)
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
"""


def target_graph(source, work):
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "CMakeGraphVizOptions.cmake"), "w", encoding="utf-8") as f:
        f.write(OPTIONS)
    dot = os.path.join(work, "targets.dot")
    done = subprocess.run(["cmake", "-S", source, "-B", work, f"--graphviz={dot}"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_layers: cmake failed:\n{done.stderr[-2000:]}")
    text = open(dot, encoding="utf-8").read()
    names = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text))
    edges = {}
    for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
        edges.setdefault(names[a], set()).add(names[b])
    return set(names.values()), edges


def reachable(edges, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def foreign_includes(source, pretend=None):
    """#include lines of a folder of MAY_INCLUDE that name a project header outside the folders it may use."""
    found = []
    if pretend and not pretend.startswith(MAY_INCLUDE["kernel"]):
        found.append(f"kernel includes another layer: (pretended): #include \"{pretend}\"")
    for folder, allowed in MAY_INCLUDE.items():
        for root, _, files in os.walk(os.path.join(source, folder)):
            for name in sorted(files):
                path = os.path.join(root, name)
                if not name.endswith((".hpp", ".cpp", ".h")):
                    continue
                for number, line in enumerate(open(path, encoding="utf-8"), 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if m and m.group(1).startswith(PROJECT_FOLDERS) and not m.group(1).startswith(allowed):
                        found.append(f"{folder} includes another layer: {os.path.relpath(path, source)}:{number}: "
                                     f"{line.strip()}")
    return found


def main(source, work, pretend_edge=None, pretend_include=None):
    targets, edges = target_graph(source, work)
    if pretend_edge:
        edges.setdefault(pretend_edge[0], set()).add(pretend_edge[1])
    problems = [f"target {t} is not in the graph" for t in FORBIDDEN if t not in targets]
    for target, banned in FORBIDDEN.items():
        for reached in sorted(reachable(edges, target) & banned):
            problems.append(f"{target} depends on {reached}: an arrow back against machine file -> model -> plan -> run")
    problems += foreign_includes(source, pretend_include)
    for problem in problems:
        print(f"check_layers: {problem}")
    print(f"check_layers: {len(targets)} targets, {sum(len(v) for v in edges.values())} edges, "
          f"{len(problems)} problems; graph in {os.path.join(work, 'targets.dot')}")
    return 1 if problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("work")
    parser.add_argument("--pretend-edge", nargs=2, metavar=("A", "B"))
    parser.add_argument("--pretend-include", metavar="HEADER")
    args = parser.parse_args()
    sys.exit(main(args.source, args.work, args.pretend_edge, args.pretend_include))
