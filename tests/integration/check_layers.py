#!/usr/bin/env python3
"""The project's layers, checked by folder: each top folder is one layer, and a folder uses only itself and the
folders before it in LAYERS, both in the build (a CMake target depends only on targets defined in its own folder or
an earlier one, read from CMake's file API) and in the #include lines (includes name their folder from the root:
"kernel/core/torus_shape.hpp"). A source folder that LAYERS does not place is a problem too, so a new folder is
placed on purpose. docs/layout.md says the same order in words.

Usage: check_layers.py SOURCE_DIR WORK_DIR [--pretend-edge A B] [--pretend-include FOLDER HEADER]
(writes WORK_DIR/targets.dot; `dot -Tsvg` draws it). The --pretend options add a target edge, or an #include in a
folder, before checking, to show that the check sees one.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

# Lowest first. A folder may use its own files and those of every folder in an earlier row; folders in one row do
# not use each other. The top folders' order (kernel < topologies < models < sim < tests) is the build's too.
LAYERS = (
    ("kernel/core",),                      # MPI-free: stream, layout, routing, role plans, buckets, the variants' table
    ("kernel/mpi",),                       # the update algorithms over MPI, message slots, simulation.hpp's seam
    ("kernel/apex_map", "kernel/exchange"),  # the probes, each an application of its own
    ("kernel/programs", "kernel/bench"),   # the programs' mains: gups (every variant), gups-serial, gups-shared-table
    ("topologies",),                       # the physical networks
    ("models/src",),                       # machine files, bounds, gups-model
    ("models/calibrate",),                 # gups-calibrate
    ("sim/levels",),                       # the network levels
    ("sim/plan", "sim/smpi"),              # gups-topology's plan and platform; the SMPI build's side of the seam
    ("sim",),                              # gups-sim, gups-network, gups-route-check, gups-sleep-floor
    ("tests",),
)
TOP_ORDER = ("kernel", "topologies", "models", "sim", "tests")
SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".def")
GRAPHVIZ_OPTIONS = """set(GRAPHVIZ_CUSTOM_TARGETS TRUE)
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
"""


def layer_of(folder):
    """The row of LAYERS that holds a folder (its deepest listed ancestor), or None."""
    best = None
    for row, folders in enumerate(LAYERS):
        for listed in folders:
            if (folder == listed or folder.startswith(listed + "/")) and (best is None or len(listed) > len(best[1])):
                best = (row, listed)
    return best


def configure(source, work):
    """Configures the project in work with CMake's file API asked for its targets; returns {name: (folder, deps)}."""
    os.makedirs(os.path.join(work, ".cmake", "api", "v1", "query"), exist_ok=True)
    open(os.path.join(work, ".cmake", "api", "v1", "query", "codemodel-v2"), "w").close()
    with open(os.path.join(work, "CMakeGraphVizOptions.cmake"), "w", encoding="utf-8") as f:
        f.write(GRAPHVIZ_OPTIONS)
    dot = os.path.join(work, "targets.dot")
    done = subprocess.run(["cmake", "-S", source, "-B", work, f"--graphviz={dot}"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_layers: cmake failed:\n{done.stderr[-2000:]}")
    reply = os.path.join(work, ".cmake", "api", "v1", "reply")
    index = json.load(open(sorted(glob.glob(os.path.join(reply, "index-*.json")))[-1], encoding="utf-8"))
    model_file = next(r["jsonFile"] for r in index["reply"].values() if r.get("kind") == "codemodel")
    model = json.load(open(os.path.join(reply, model_file), encoding="utf-8"))
    targets, names = {}, {}
    for entry in model["configurations"][0]["targets"]:
        detail = json.load(open(os.path.join(reply, entry["jsonFile"]), encoding="utf-8"))
        names[detail["id"]] = detail["name"]
        targets[detail["name"]] = (detail["paths"]["source"], [d["id"] for d in detail.get("dependencies", [])])
    return {name: (folder, {names[d] for d in deps if d in names}) for name, (folder, deps) in targets.items()}


def top_rank(folder):
    top = folder.split("/")[0]
    return TOP_ORDER.index(top) if top in TOP_ORDER else None


def target_problems(targets, pretend_edge):
    if pretend_edge:
        a, b = pretend_edge
        if a not in targets or b not in targets:
            return [f"no target {t}" for t in (a, b) if t not in targets]
        targets[a][1].add(b)
    problems = []
    for name, (folder, deps) in sorted(targets.items()):
        mine = top_rank(folder)
        if mine is None:
            problems.append(f"target {name} is defined in {folder}, which is not a layer")
            continue
        for dep in sorted(deps):
            theirs = top_rank(targets[dep][0])
            if theirs is not None and theirs > mine:
                problems.append(f"target {name} ({folder}) depends on {dep} ({targets[dep][0]}), a layer above it")
    return problems


def source_folders(source):
    """Every folder under the top folders that holds a C++ source."""
    found = set()
    for top in TOP_ORDER:
        for root, _, files in os.walk(os.path.join(source, top)):
            if any(f.endswith(SOURCE_SUFFIXES) for f in files):
                found.add(os.path.relpath(root, source))
    return found


def include_problems(source, pretend_include):
    problems = []
    for folder in sorted(source_folders(source)):
        if layer_of(folder) is None:
            problems.append(f"{folder} holds sources and is in no layer of check_layers.LAYERS (place it there and "
                            f"in docs/layout.md)")
    includes = []
    for folder in sorted(source_folders(source)):
        for name in sorted(os.listdir(os.path.join(source, folder))):
            path = os.path.join(source, folder, name)
            if not name.endswith(SOURCE_SUFFIXES) or not os.path.isfile(path):
                continue
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if m:
                    includes.append((folder, f"{folder}/{name}:{number}", m.group(1)))
    if pretend_include:
        includes.append((pretend_include[0], f"{pretend_include[0]} (pretended)", pretend_include[1]))
    for folder, where, header in includes:
        header_folder = os.path.dirname(header)
        theirs, mine = layer_of(header_folder), layer_of(folder)
        if theirs is None or mine is None or theirs[1] == mine[1]:
            continue
        if theirs[0] >= mine[0]:
            problems.append(f"{where} includes \"{header}\": {theirs[1]} is not below {mine[1]}")
    return problems


def main(source, work, pretend_edge=None, pretend_include=None):
    targets = configure(source, work)
    problems = target_problems(targets, pretend_edge) + include_problems(source, pretend_include)
    for problem in problems:
        print(f"check_layers: {problem}")
    edges = sum(len(deps) for _, deps in targets.values())
    print(f"check_layers: {len(targets)} targets, {edges} edges, {len(problems)} problems; graph in "
          f"{os.path.join(work, 'targets.dot')}")
    return 1 if problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("work")
    parser.add_argument("--pretend-edge", nargs=2, metavar=("A", "B"))
    parser.add_argument("--pretend-include", nargs=2, metavar=("FOLDER", "HEADER"))
    args = parser.parse_args()
    sys.exit(main(args.source, args.work, args.pretend_edge, args.pretend_include))
