#!/usr/bin/env python3
"""The project's layers, checked from its own build description: the CMake target graph (cmake --graphviz) and
the #include lines of kernel/.

The flow is machine file -> models (gups_models: read it, Eq. 1/6/7) -> topologies (gups_topologies: the run
plan, platform, charges) -> the runs (gups on MPI, gups-smpi under SimGrid, which read only the kernel's
arguments and the charges file) -> analysis (Python, calling the programs). Nothing points back: the kernel
(gups_core and the programs built on it alone) links and includes nothing of models/, topologies/ or sim/, and
models/ nothing of topologies/.

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
FORBIDDEN = {
    "gups_core": {"gups_models", "gups_topologies"},
    "gups": {"gups_models", "gups_topologies"},
    "gups-serial": {"gups_models", "gups_topologies"},
    "gups_models": {"gups_topologies"},
}
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
    """#include lines under kernel/ that name a header of models/, topologies/ or sim/."""
    foreign = set()
    for layer in ("models", "topologies", "sim"):
        for root, _, files in os.walk(os.path.join(source, layer)):
            foreign.update(f for f in files if f.endswith((".hpp", ".h")))
    found = [f"(pretended): #include \"{pretend}\""] if pretend in foreign else []
    for root, _, files in os.walk(os.path.join(source, "kernel")):
        for name in files:
            path = os.path.join(root, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+[<"]([^>"]+)[>"]', line)
                if m and os.path.basename(m.group(1)) in foreign:
                    found.append(f"{os.path.relpath(path, source)}:{number}: {line.strip()}")
    return found


def main(source, work, pretend_edge=None, pretend_include=None):
    targets, edges = target_graph(source, work)
    if pretend_edge:
        edges.setdefault(pretend_edge[0], set()).add(pretend_edge[1])
    problems = [f"target {t} is not in the graph" for t in FORBIDDEN if t not in targets]
    for target, banned in FORBIDDEN.items():
        for reached in sorted(reachable(edges, target) & banned):
            problems.append(f"{target} depends on {reached}: an arrow back against machine file -> model -> plan -> run")
    problems += [f"kernel includes another layer: {line}" for line in foreign_includes(source, pretend_include)]
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
