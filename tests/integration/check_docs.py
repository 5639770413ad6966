#!/usr/bin/env python3
"""Checks that every command README.md and docs/*.md show is still accepted by its program, and that their
measured tables are the copies the scripts wrote (docs/update.py --check).

A command is a line of a code block (indented or fenced), or an inline code span, that runs one of the
project's programs: build/..., mpirun (or build/kernel/gups-mpirun) ... build/..., python3 -m analysis SUBCOMMAND, bash SCRIPT.sh, python3
SCRIPT.py. Each program's --help must parse, and every --option the command gives must be in that help; a
script must exist. A renamed or removed option fails the check.

Usage: check_docs.py SOURCE_DIR BUILD_DIR [--extra-command "..."]  (--extra-command: check one more, to show
that a wrong one fails)
"""
import argparse
import functools
import json
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r"^```")
SPAN = re.compile(r"`([^`]+)`")
OPTION = re.compile(r"^--[A-Za-z0-9][\w-]*")
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def code_lines(text):
    """Lines of indented and fenced code blocks (continuations joined), and inline code spans."""
    lines, fenced, previous_blank = [], False, True
    for raw in text.splitlines():
        if FENCE.match(raw.strip()):
            fenced = not fenced
            continue
        if fenced or (raw.startswith("    ") and (previous_blank or lines)):
            lines.append(raw.strip())
        else:
            lines.extend(m.group(1) for m in SPAN.finditer(raw))
        previous_blank = not raw.strip()
    joined = []
    for line in lines:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + line
        else:
            joined.append(line)
    return joined


def parse(line):
    """(program words, its arguments) of a project command, or None."""
    line = line.split(" # ", 1)[0].strip()
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if not words:
        return None
    if words[0] in ("mpirun", "mpiexec") or words[0].endswith("/gups-mpirun"):
        found = next((i for i, w in enumerate(words[1:], 1) if re.match(r"^build/\w[\w/.-]*/[\w.-]+$", w)), None)
        return (words[found:found + 1], words[found + 1:]) if found is not None else None
    if re.match(r"^build/\w[\w/.-]*/[\w.-]+$", words[0]):
        return words[:1], words[1:]
    if words[0] in ("python3", "/usr/bin/python3") and words[1:3] == ["-m", "analysis"] and len(words) > 3:
        return ["/usr/bin/python3", "-m", "analysis", words[3]], words[4:]
    if words[0] in ("bash", "python3", "/usr/bin/python3") and len(words) > 1 and \
            re.match(r"^(tests|analysis|docs|\.ci)/.*\.(sh|py)$", words[1]):
        return words[:2], words[2:]
    return None


@functools.lru_cache(maxsize=None)
def help_text(program, source, build):
    words = list(program)
    if words[0].startswith("build/"):
        words[0] = os.path.join(build, words[0][len("build/"):])
        if not os.path.exists(words[0]):
            return None, f"{program[0]} is not built ({words[0]})"
    elif words[0] == "bash" or (len(words) > 1 and words[1].endswith(".py") and words[1] != "-m"):
        if not os.path.exists(os.path.join(source, words[1])):
            return None, f"{words[1]} does not exist"
        if words[1] != "tests/benchmarks/sim-levels.sh":
            return "", None  # positional arguments: that it exists is what can be checked
    done = subprocess.run(words + ["--help"], capture_output=True, text=True, cwd=source,
                          env={**os.environ, **MPI_ENV}, timeout=60)
    if done.returncode != 0:
        return None, f"{' '.join(program)} --help failed (status {done.returncode}): {done.stderr.strip()[-200:]}"
    return done.stdout + done.stderr, None


def check(line, source, build):
    parsed = parse(line)
    if parsed is None:
        return None
    program, arguments = parsed
    text, problem = help_text(tuple(program), source, build)
    if problem:
        return problem
    if text == "":
        return None
    for argument in arguments:
        option = OPTION.match(argument)
        if option and not re.search(re.escape(option.group(0)) + r"(?![\w-])", text):
            return f"{' '.join(program)} has no option {option.group(0)}"
    return None


# docs/machine-files.md's check of a new file, run on each example file of docs/examples/ in place of my.json.
MACHINE_FILE_GUIDE, CHECK_SECTION, PLACEHOLDER = "docs/machine-files.md", "## Checking a new file", "my.json"
# A plan's core counts stated in words ("5 routing cores, 11 updating"): they must be what the planner gives.
PLAN_CLAIM = re.compile(r"(\d+) routing(?: cores?)?, (\d+) updating")
PLANNED = re.compile(r"(\d+) routing, (\d+) updating")


def machine_file_checks(source, build):
    """Runs the guide's check commands on every example machine file; a problem per command that fails."""
    with open(os.path.join(source, MACHINE_FILE_GUIDE), encoding="utf-8") as f:
        text = f.read()
    section = text.split(CHECK_SECTION, 1)[1].split("\n## ", 1)[0]
    commands = [line for line in code_lines(section) if PLACEHOLDER in line and parse(line)]
    examples = sorted(f for f in os.listdir(os.path.join(source, "docs", "examples")) if f.endswith(".json"))
    problems = []
    for example in examples:
        for line in commands:
            words = shlex.split(line.replace(PLACEHOLDER, os.path.join("docs", "examples", example)))
            words[0] = os.path.join(build, words[0][len("build/"):])
            done = subprocess.run(words + (["--quiet"] if words[0].endswith("gups-sim") else []),
                                  capture_output=True, text=True, cwd=source, env={**os.environ, **MPI_ENV},
                                  timeout=600)
            if done.returncode != 0:
                problems.append(f"{MACHINE_FILE_GUIDE}'s check on docs/examples/{example}: {line}\n    exit "
                                f"{done.returncode}: {done.stderr.strip()[-300:]}")
    return problems, len(commands) * len(examples)


def planned_counts(build, machine):
    done = subprocess.run([os.path.join(build, "models", "gups-model"), "--machine", machine, "--algorithm",
                           "multicore", "--nodes", "512", "--explain"], capture_output=True, text=True, timeout=60)
    found = PLANNED.search(done.stdout)
    return found.groups() if found else None


def plan_claims(source, build):
    """Each machine file's notes and sources that state a plan's core counts, against the planner's."""
    problems = []
    folders = [os.path.join("models", "machines"), os.path.join("docs", "examples")]
    for folder in folders:
        for name in sorted(f for f in os.listdir(os.path.join(source, folder)) if f.endswith(".json")):
            path = os.path.join(source, folder, name)
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
            said = json.dumps(document.get("notes", "")) + json.dumps(document.get("sources", {}))
            for claim in PLAN_CLAIM.finditer(said):
                planned = planned_counts(build, path)
                if planned != claim.groups():
                    problems.append(f"{folder}/{name} says '{claim.group(0)}' where the planner gives "
                                    f"{'%s routing, %s updating' % planned if planned else 'no plan'} at 512 nodes "
                                    "(say gups-model --explain instead)")
    return problems


def schema_fields_documented(source, build):
    """Every input gups-model --schema lists is in docs/machine-files.md's fields (by its dotted name or, in a row
    of its section, by its last part), so that the guide cannot fall behind the one table the loader reads."""
    with open(os.path.join(source, MACHINE_FILE_GUIDE), encoding="utf-8") as f:
        guide = f.read()
    done = subprocess.run([os.path.join(build, "models", "gups-model"), "--schema"], capture_output=True, text=True,
                          timeout=60, check=True)
    missing = []
    for row in json.loads(done.stdout):
        field = row["field"]
        if f"`{field}`" in guide:
            continue
        section, _, last = field.rpartition(".")
        rows = [line for line in guide.splitlines() if line.startswith("|") and f"`{section}." in line]
        if not section or not any(f"`{last}`" in line or f"`{section}.{last}`" in line for line in rows):
            missing.append(field)
    return [f"{MACHINE_FILE_GUIDE} does not describe {field} (gups-model --schema lists it)" for field in missing]


README_MOST_LINES = 150  # the project's rule for the README: short, the guides hold the rest


def readme_claims(source):
    """The README fits its length, and every `-np N` it shows fits the machine it describes (a 2-core machine: more
    ranks than cores time-share them, and gups itself calls that rate meaningless)."""
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        text = f.read()
    problems = []
    lines = text.count("\n")
    if lines > README_MOST_LINES:
        problems.append(f"README.md has {lines} lines, more than {README_MOST_LINES}")
    described = re.search(r"(\d+)-core machine", text)
    cores = int(described.group(1)) if described else None
    for ranks in re.findall(r"-np (\d+)", text):
        if cores is not None and int(ranks) > cores:
            problems.append(f"README.md runs -np {ranks} on the {cores}-core machine it describes")
    return problems


def host_table_claims(source):
    """What the guides say of the main job's host table is the table `analysis main` uses by default."""
    sys.path.insert(0, source)
    from analysis import cli  # noqa: E402 (the source's own analysis package)
    main_parser = cli.parser()._subparsers._group_actions[0].choices["main"]
    default = main_parser.get_default("host_log2_table")
    problems = []
    for guide in ["README.md"] + [os.path.join("docs", f) for f in os.listdir(os.path.join(source, "docs"))
                                  if f.endswith(".md")]:
        with open(os.path.join(source, guide), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        for claimed in re.findall(r"main job's host runs use (?:2\^|\d[\d,]* words \(2\^)(\d+)", text):
            if int(claimed) != default:
                problems.append(f"{guide} says the main job's host runs use 2^{claimed} words; they use "
                                f"2^{default} (analysis main --host-log2-table)")
    return problems


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source")
    p.add_argument("build")
    p.add_argument("--extra-command", action="append", default=[])
    args = p.parse_args(argv)
    source, build = os.path.abspath(args.source), os.path.abspath(args.build)
    guides = ["README.md"] + [os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(source, "docs")))
                              if f.endswith(".md")]
    commands = [("--extra-command", c) for c in args.extra_command]
    for guide in guides:
        with open(os.path.join(source, guide), encoding="utf-8") as f:
            commands += [(guide, line) for line in code_lines(f.read())]
    checked, failures = 0, []
    for where, line in commands:
        problem = check(line, source, build)
        if parse(line) is not None:
            checked += 1
        if problem:
            failures.append(f"{where}: {line}\n    {problem}")
    ran, ran_count = machine_file_checks(source, build)
    failures += ran + plan_claims(source, build) + schema_fields_documented(source, build) + readme_claims(source) + \
        host_table_claims(source)
    tables = subprocess.run([sys.executable, os.path.join(source, "docs", "update.py"), "--check"],
                            capture_output=True, text=True)
    if tables.returncode != 0:
        failures.append("measured tables: " + tables.stderr.strip())
    for failure in failures:
        print(f"check_docs: {failure}")
    print(f"check_docs: {checked} commands in {len(guides)} documents checked, {ran_count} machine-file checks run, "
          f"{len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
