#!/usr/bin/env python3
"""docs/layout.md cannot go stale: every path it names exists, and every folder holding sources is described.

A path is a code span that starts with a project folder (kernel/, topologies/, models/, sim/, tests/, analysis/,
docs/), wildcards allowed (run_plan.*); spans holding a placeholder in capitals (NAME) or ${...} are recipes, not
paths. In the folder table, a bare file name (probe.hpp, run/) must exist under the row's folder. A folder holding
sources (C++, Python, shell, CMake, transcripts) is described when the table has a row for it, or a row for a folder
above it that names it (run/ in analysis/'s row). The folders' READMEs (topologies/, sim/, models/) are held to the
first rule too.

Usage: check_layout.py SOURCE_DIR [--pretend-path PATH] (the guide names PATH too, to show that a stale path fails)
"""
import argparse
import glob
import os
import re
import sys

TOPS = ("kernel", "topologies", "models", "sim", "tests", "analysis", "docs")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".def", ".py", ".sh", ".cmake", ".tesh")
SPAN = re.compile(r"`([^`]+)`")
PLACEHOLDER = re.compile(r"[A-Z]{2,}|\$\{")
READMES = ("topologies/README.md", "sim/README.md", "models/README.md")


def exists(source, pattern):
    return bool(glob.glob(os.path.join(source, pattern.rstrip("/")), recursive=True))


def path_spans(text):
    for span in SPAN.findall(text):
        token = span.split()[0] if span.split() else ""
        if token.startswith(tuple(t + "/" for t in TOPS)) and not PLACEHOLDER.search(token) and "/" in token:
            yield token


def table_rows(text):
    """(folder, row text) of the folder table: rows whose first cell is one code span ending in /."""
    for line in text.splitlines():
        m = re.match(r"^\| `([^`]+/)` \|(.*)\|\s*$", line)
        if m:
            yield m.group(1).rstrip("/"), m.group(2)


def bare_names(row):
    for span in SPAN.findall(row):
        token = span.split()[0] if span.split() else ""
        if "/" in token.rstrip("/") or PLACEHOLDER.search(token) or not re.match(r"^[\w.*-]+/?$", token):
            continue
        if token.endswith("/") or re.search(r"\.(\*|cpp|hpp|h|def|py|sh|cmake|tesh|json|md|txt|supp)$", token):
            yield token


def source_folders(source):
    found = set()
    for top in TOPS:
        for root, dirs, files in os.walk(os.path.join(source, top)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            if any(f.endswith(SOURCE_SUFFIXES) for f in files):
                found.add(os.path.relpath(root, source))
    return found


def problems_of(source, extra=""):
    guide = os.path.join(source, "docs", "layout.md")
    text = open(guide, encoding="utf-8").read() + extra
    problems = []
    for name, body in [("docs/layout.md", text)] + [(r, open(os.path.join(source, r), encoding="utf-8").read())
                                                     for r in READMES if os.path.exists(os.path.join(source, r))]:
        for path in path_spans(body):
            if not exists(source, path):
                problems.append(f"{name} names {path}, which does not exist")
    rows = dict(table_rows(text))
    for folder, row in rows.items():
        if not os.path.isdir(os.path.join(source, folder)):
            problems.append(f"docs/layout.md describes folder {folder}/, which does not exist")
            continue
        for bare in bare_names(row):
            if not exists(source, os.path.join(folder, "**", bare)):
                problems.append(f"docs/layout.md's row {folder}/ names {bare}, which is not in that folder")
    for folder in sorted(source_folders(source)):
        if folder in rows:
            continue
        parents = [p for p in rows if folder.startswith(p + "/")]
        named = any(f"`{os.path.relpath(folder, p)}/`" in rows[p] for p in parents)
        if not named:
            problems.append(f"{folder}/ holds sources and docs/layout.md does not describe it")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("--pretend-path")
    args = parser.parse_args()
    problems = problems_of(args.source, f"\n`{args.pretend_path}`\n" if args.pretend_path else "")
    for problem in problems:
        print(f"check_layout: {problem}")
    print(f"check_layout: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
