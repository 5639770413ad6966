#!/usr/bin/env python3
"""No hand-written list of variants: a CMake list (foreach, set) that names a variant of kernel/core/variants.def,
or a Python dict or set whose keys name one, fails, but for the ones ALLOWED names, each with why. Lists of
variants come from the table (kernel/variants.cmake in CMake; gups-topology --variants, its traits and its model,
in Python), so that a variant added to the table needs no other list edited.

    check_variant_keys.py SOURCE [--pretend-cmake TEXT] [--pretend-python TEXT]

Prints one line per problem and a summary; exit status 1 when there is one. The --pretend options check TEXT as if
it were in tests/pretend.cmake or analysis/pretend.py (a demonstration that the check can fail).
"""
import argparse
import ast
import os
import re
import sys

FOLDERS = ("kernel", "topologies", "models", "sim", "tests", "analysis")
# path:name -> why it may name variants. A key here that is no longer found is a problem too.
ALLOWED = {
    "analysis/paper/study.py:TABLE4_SERIES": "the paper's Table 4 series, as the paper prints them",
    "analysis/paper/headline.py:TITLES": "the paper's three series' titles (Table 4), as the paper names them",
    "analysis/paper/headline.py:EQUATION": "each model's equation in the paper, keyed by the model (AlgorithmModel's "
                                           "names, which are its algorithm's)",
    "analysis/report/plot.py:COLOURS": "one colour per model's series across every figure; another algorithm is "
                                       "drawn black",
    "analysis/report/plot.py:colours": "the paper's three series (Table 4), as the paper names them",
    "analysis/tests/test_main_job.py:keys": "test data: the paper's three series",
    "analysis/explain/verdict.py:OTHER_ALGORITHM": "the two models that share explain's cost mechanisms (Eq. 1 and "
                                                   "Eq. 6/7), keyed by the model a variant takes, not by the variant",
    "tests/benchmarks/hpcc_peer.py:labels": "the peer table's row labels for the algorithms it runs beside HPCC; "
                                            "an algorithm not labelled there is not run",
}
ROW = re.compile(r'GUPS_(?:UPDATE_ALGORITHM|APEX_MAP|EXCHANGE_PROBE)\(\s*\w+,\s*"([^"]+)"')
CMAKE_LIST = re.compile(r"\b(foreach|set)\s*\(([^)]*)\)", re.IGNORECASE | re.DOTALL)


def variant_names(source):
    with open(os.path.join(source, "kernel/core/variants.def")) as f:
        return set(ROW.findall(f.read()))


def cmake_problems(path, text, names):
    """Each foreach/set list with an item that is a variant's name, or a NAME:... case of one."""
    for match in CMAKE_LIST.finditer(text):
        items = [i.strip('"') for i in re.sub(r"#[^\n]*", "", match.group(2)).split()]
        named = sorted({i.split(":")[0] for i in items[1:]} & names)
        if named:
            line = text.count("\n", 0, match.start()) + 1
            yield f"{path}:{line}", f"{match.group(1)}() names {', '.join(named)}"


def keys_of(node):
    """The constant string keys of a dict or set display (a tuple key counts by its strings)."""
    keys = node.keys if isinstance(node, ast.Dict) else node.elts
    for key in keys:
        parts = key.elts if isinstance(key, ast.Tuple) else [key]
        for part in parts:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                yield part.value


def python_problems(path, text, names):
    tree = ast.parse(text)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        value = getattr(node, "value", None)
        if not isinstance(node, ast.Assign) or not isinstance(value, (ast.Dict, ast.Set, ast.List)):
            continue
        if isinstance(value, ast.List):  # a list of tuples keyed by a name, as TABLE4_SERIES
            elements = [e for e in value.elts if isinstance(e, ast.Tuple)]
            named = sorted(set(s for e in elements for s in keys_of(ast.Set(elts=e.elts))) & names)
        else:
            named = sorted(set(keys_of(value)) & names)
        if named:
            yield f"{path}:{'/'.join(targets) or node.lineno}", f"keyed by {', '.join(named)} (line {node.lineno})"


def sources(source):
    for folder in FOLDERS:
        for root, dirs, files in os.walk(os.path.join(source, folder)):
            dirs[:] = [d for d in dirs if d not in ("studies", "__pycache__", "transcripts")]
            for name in sorted(files):
                if name == "CMakeLists.txt" or name.endswith((".cmake", ".py")):
                    yield os.path.relpath(os.path.join(root, name), source)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("--pretend-cmake")
    parser.add_argument("--pretend-python")
    args = parser.parse_args()
    names = variant_names(args.source)
    found = {}
    checked = 0
    files = [(p, open(os.path.join(args.source, p)).read()) for p in sources(args.source)]
    if args.pretend_cmake:
        files.append(("tests/pretend.cmake", args.pretend_cmake))
    if args.pretend_python:
        files.append(("analysis/pretend.py", args.pretend_python))
    for path, text in files:
        checked += 1
        check = python_problems if path.endswith(".py") else cmake_problems
        for where, what in check(path, text, names):
            found[where] = what
    problems = []
    for where, what in sorted(found.items()):
        if where.split(":")[0] + ":" + where.split(":")[1] not in ALLOWED:
            problems.append(f"{where}: {what} (build the list from variants.def, or say why in ALLOWED)")
    for key in sorted(set(ALLOWED) - set(found)):
        problems.append(f"{key}: allowed but no longer names a variant (take it out of ALLOWED)")
    for line in problems:
        print(f"check_variant_keys: {line}")
    print(f"check_variant_keys: {checked} files, {len(names)} variants, {len(ALLOWED)} allowed, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
