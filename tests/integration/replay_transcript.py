#!/usr/bin/env python3
"""Replays a transcript of expected output, in the manner of SimGrid's tesh.

A transcript holds one or more commands, each followed by what it must print:

    $ ${MPIRUN} -np ${NP} ${GUPS} --log2-table 10
    > Running on ${NP} processors (PowerofTwo)
    > Found 0 errors in 1024 locations (passed).
    ! expect return 0

`$` starts a command (run through the shell after ${NAME} substitution),
`>` lines must appear in the combined stdout and stderr, whole and in this
order, other lines may come between them (timings vary); a `~` line is the
same but a regular expression that must match a whole line, `! expect return N`
sets the exit status required (default 0), `! timeout S` the seconds allowed
(default 120). Lines starting with `#` are comments.

`! output exact` makes the expected lines the whole output, as SimGrid's tesh
does: no line missing, none extra, none out of order (for deterministic runs,
simulated times included, and for error messages that must come once).
`! ignore REGEX` (with exact) leaves out of the comparison the output lines
it matches whole, such as wall times.

Open MPI 4.1's launcher sometimes loses a process that ended normally and
reports "process rank N with PID 0 ... exiting improperly" after the run
printed everything (open-mpi/ompi#7833, #9389, #12607; more likely with many
ranks on few cores). A command failing with exactly that message is run
again, at most twice, and the retry is said. Its event library also prints,
now and then, "[warn] Epoll MOD(1) on fd N failed ... Bad file descriptor"
as ranks end (open-mpi/ompi#2004, #5520: the library not shut down cleanly);
exact comparisons leave that line out, as they do `! ignore` lines.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def substitute(text, variables, quote=lambda value: value):
    def value(match):
        name = match.group(1)
        if name not in variables:
            sys.exit(f"replay: transcript uses ${{{name}}} but no --var {name}=... was given")
        return quote(variables[name])

    return re.sub(r"\$\{(\w+)\}", value, text)


def parse(path, variables):
    commands = []
    with open(path, encoding="utf-8") as transcript:
        for number, raw in enumerate(transcript, start=1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("$ "):
                commands.append({"command": substitute(line[2:], variables), "expected": [],
                                 "status": 0, "timeout": 120.0, "line": number, "exact": False, "ignored": []})
            elif not commands:
                sys.exit(f"replay: {path}:{number}: expectation before any '$' command")
            elif line.startswith("> ") or line == ">":
                commands[-1]["expected"].append(("text", substitute(line[2:], variables)))
            elif line.startswith("~ "):
                commands[-1]["expected"].append(
                    ("regex", re.compile(substitute(line[2:], variables, re.escape))))
            elif line.startswith("! expect return "):
                commands[-1]["status"] = int(line.split()[-1])
            elif line.startswith("! timeout "):
                commands[-1]["timeout"] = float(line.split()[-1])
            elif line == "! output exact":
                commands[-1]["exact"] = True
            elif line.startswith("! ignore "):
                commands[-1]["ignored"].append(re.compile(substitute(line[len("! ignore "):], variables, re.escape)))
            else:
                sys.exit(f"replay: {path}:{number}: cannot read line: {line!r}")
    return commands


LAUNCHER_LOST_PROCESS = re.compile(r"(mpiexec|mpirun) has exited due to process rank \d+ with PID 0 on")
LAUNCHER_RETRIES = 2
LAUNCHER_EVENT_WARNING = re.compile(r"\[warn\] Epoll [A-Z]+\(\d+\) on fd \d+ failed\..*")


def matches(kind, expected, line):
    return line == expected if kind == "text" else expected.fullmatch(line)


def exact_problems(command, lines):
    """Every output line (less the ignored ones) against every expected line, in order."""
    ignored = command["ignored"] + [LAUNCHER_EVENT_WARNING]
    kept = [line for line in lines if not any(pattern.fullmatch(line) for pattern in ignored)]
    for number, (got, (kind, expected)) in enumerate(zip(kept, command["expected"]), start=1):
        if not matches(kind, expected, got):
            shown = expected if kind == "text" else expected.pattern
            return [f"output line {number} is {got!r}, expected {shown!r}"]
    if len(kept) > len(command["expected"]):
        return [f"{len(kept) - len(command['expected'])} line(s) more than expected, from {kept[len(command['expected'])]!r}"]
    if len(kept) < len(command["expected"]):
        kind, expected = command["expected"][len(kept)]
        return [f"output ended before {expected if kind == 'text' else expected.pattern!r}"]
    return []


def check(command):
    for attempt in range(1 + LAUNCHER_RETRIES):
        problems, output, status = run_once(command)
        if not (status not in (None, command["status"]) and LAUNCHER_LOST_PROCESS.search(output)):
            break
        print(f"retry line {command['line']}: Open MPI's launcher lost a process that ended (PID 0), "
              f"attempt {attempt + 2} of {1 + LAUNCHER_RETRIES}")
    return problems, output


def run_once(command):
    try:
        completed = subprocess.run(command["command"], shell=True, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True,
                                   timeout=command["timeout"], start_new_session=True)
    except subprocess.TimeoutExpired as expired:
        partial = expired.stdout or ""
        return [f"timed out after {command['timeout']} s"], partial if isinstance(partial, str) else partial.decode(errors="replace"), None
    output = completed.stdout
    problems = []
    if completed.returncode != command["status"]:
        problems.append(f"exit status {completed.returncode}, expected {command['status']}")
    lines = output.splitlines()
    if command["exact"]:
        return problems + exact_problems(command, lines), output, completed.returncode
    position = 0
    for kind, expected in command["expected"]:
        while position < len(lines) and not matches(kind, expected, lines[position]):
            position += 1
        if position == len(lines):
            shown = expected if kind == "text" else expected.pattern
            problems.append(f"missing (in this order): {shown!r}")
            break
        position += 1
    return problems, output, completed.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript")
    parser.add_argument("--var", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    variables = dict(os.environ)
    for assignment in args.var:
        name, _, value = assignment.partition("=")
        variables[name] = value
    commands = parse(args.transcript, variables)
    if not commands:
        sys.exit(f"replay: {args.transcript} holds no command")
    # Open MPI's session folder: one of this replay's own (transcripts run side by side, and one mpiexec removing
    # the shared /tmp/ompi.<host>.<uid> made another's start fail), at a short path whatever the checkout's (Open
    # MPI names Unix sockets under it; with a build folder 50 characters deep LeakSanitizer's exit-time scan of 16
    # ranks crashed every time), removed at the end.
    session = tempfile.mkdtemp(prefix="tg-ompi-", dir="/tmp")
    os.environ["OMPI_MCA_orte_tmpdir_base"] = session
    try:
        failed = replay(commands)
    finally:
        shutil.rmtree(session, ignore_errors=True)
    return 1 if failed else 0


def replay(commands):
    failed = 0
    for command in commands:
        problems, output = check(command)
        if problems:
            failed += 1
            print(f"FAIL line {command['line']}: {command['command']}")
            for problem in problems:
                print(f"  {problem}")
            print("  output was:\n    " + "\n    ".join(output.splitlines()))
        else:
            print(f"ok   {command['command']}")
    print(f"{len(commands) - failed} passed, {failed} failed")
    return failed


if __name__ == "__main__":
    sys.exit(main())
