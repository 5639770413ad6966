#!/usr/bin/env python3
"""Bad inputs, generated: every program of the project given command lines and
machine files that are wrong (missing, mistyped, negative, huge, non-numeric,
truncated JSON) must end with exit status 2 and exactly one error line
("<program>: error: ..."), within a few seconds, leave no temporary files, and
never crash (exit 3 or a signal).

    fuzz_inputs.py --build build --source . [--json summary.json]

Each case is built from a valid command line or machine file with one thing
made wrong, so that the one error is the one the case names. Prints one line
per failing case and a summary; exit status 1 when any case fails.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SECONDS_ALLOWED = 10.0

# Values that no option of the project accepts where a count is expected.
NOT_A_COUNT = {"negative": "-1", "non-numeric": "abc", "fraction": "1.5", "beyond 64 bits": "99999999999999999999",
               "empty": "", "not a number": "nan"}
NOT_A_RATE = {"negative": "-1", "zero": "0", "non-numeric": "abc", "not a number": "nan", "infinite": "inf",
              "empty": ""}
NOT_A_SHAPE = {"two sides": "4x4", "zero side": "0x4x4", "negative side": "-4x4x4", "non-numeric": "axbxc",
               "empty side": "4xx4", "beyond 64 bits": "99999999999999999999x1x1", "seven dimensions": "2x2x2x2x2x2x2",
               "empty": ""}
NOWHERE = "/nonexistent-folder/out.json"
A_FOLDER = "/tmp"  # an output file named as a folder: refused before the run, not after it
# gups-topology and gups-sim take tori of 1 to 6 dimensions: two sides are a shape there.
NOT_A_SHAPE_OF_ANY_SIZE = {k: v for k, v in NOT_A_SHAPE.items() if k != "two sides"}


class Case:
    """One bad input; cut_short: the command is good, and its output is cut short instead (its reader gone)."""

    def __init__(self, program, category, argv, what, cut_short=False, leaks_checked=True):
        self.program, self.category, self.argv, self.what = program, category, argv, what
        self.cut_short = cut_short
        self.leaks_checked = leaks_checked


def option_cases(program, binary, base, option, values, category_prefix=""):
    """One case per bad value of one option, on an otherwise valid command line."""
    return [Case(program, category_prefix + category, [binary] + base + [option, value], f"{option} {value!r}")
            for category, value in values.items()]


def gups_cases(gups):
    cases = []
    for option, limit in (("--log2-table", "63"), ("--updates-per-word", "1025"), ("--lookahead", "16777217"),
                          ("--cores-per-node", "257"), ("--bucket-size", "16777217")):
        algo = ["--algo", "multicore"] if option in ("--cores-per-node", "--bucket-size") else []
        cases += option_cases("gups", gups, algo, option, {**NOT_A_COUNT, "zero": "0", "above the range": limit})
    for option in ("--stream-offset", "--inject-errors"):
        cases += option_cases("gups", gups, [], option, {k: v for k, v in NOT_A_COUNT.items()})
    cases += option_cases("gups", gups, ["--algo", "routed"], "--shape", {**NOT_A_SHAPE, "other node count": "2x1x1"})
    cases += option_cases("gups", gups, [], "--algo", {"unknown": "magic", "empty": "", "case": "Direct"})
    cases += option_cases("gups", gups, [], "--owner", {"unknown": "guess", "empty": ""})
    cases += option_cases("gups", gups, [], "--json", {"no such folder": NOWHERE, "a folder": A_FOLDER})
    cases += [
        Case("gups", "combined sizes", [gups, "--log2-table", "62", "--updates-per-word", "1024"], "2^72 updates"),
        Case("gups", "combined sizes", [gups, "--log2-table", "61", "--updates-per-word", "5"], "beyond 2^63 updates"),
        Case("gups", "combined sizes", [gups, "--log2-table", "10", "--inject-errors", "1025"], "errors > words"),
        Case("gups", "combined sizes", [gups, "--stream-offset", "1317624576693539401"], "offset = period"),
        Case("gups", "memory", [gups, "--log2-table", "62", "--updates-per-word", "1"], "32 EiB table"),
        Case("gups", "memory", [gups, "--log2-table", "50"], "8 PiB table"),
        Case("gups", "mistyped option", [gups, "--log2-tabel", "10"], "--log2-tabel"),
        Case("gups", "mistyped option", [gups, "-x"], "-x"),
        Case("gups", "stray argument", [gups, "--log2-table", "10", "10"], "stray 10"),
        Case("gups", "missing value", [gups, "--log2-table"], "--log2-table at the end"),
        Case("gups", "missing value", [gups, "--algo"], "--algo at the end"),
        Case("gups", "option of another algorithm", [gups, "--shape", "1x1x1"], "--shape with direct"),
        Case("gups", "option of the simulator", [gups, "--machine", "bgp"], "--machine on real MPI"),
    ]
    return cases


def model_cases(model):
    cases = []
    for option in ("--nodes", "--lookahead", "--cores-per-node", "--processes-per-node"):
        cases += option_cases("gups-model", model, [], option, {**NOT_A_COUNT, "zero": "0"})
    cases += option_cases("gups-model", model, [], "--shape", NOT_A_SHAPE)
    cases += option_cases("gups-model", model, [], "--sweep",
                          {"backwards": "64:32", "one end": "64", "non-numeric": "a:b", "zero": "0:64",
                           "three ends": "64:128:256", "empty": ""})
    cases += option_cases("gups-model", model, [], "--algorithm", {"unknown": "magic", "empty": ""})
    cases += option_cases("gups-model", model, [], "--buckets", {"unknown": "guess"})
    cases += option_cases("gups-model", model, [], "--owner", {"unknown": "guess"})
    cases += option_cases("gups-model", model, [], "--machine", {"unknown name": "nosuch", "no such file": "/x/y.json",
                                                                 "a folder": "/tmp"})
    cases += option_cases("gups-model", model, [], "--json", {"no such folder": NOWHERE, "a folder": A_FOLDER})
    cases += [Case("gups-model", "too many nodes", [model, "--nodes", "99999999999999"], "10^14 nodes"),
              Case("gups-model", "mistyped option", [model, "--node", "64"], "--node")]
    return cases


def topology_cases(topology, out):
    files = ["--platform", os.path.join(out, "p.xml"), "--hostfile", os.path.join(out, "h.txt")]
    cases = []
    cases += option_cases("gups-topology", topology, files, "--nodes", {**NOT_A_COUNT, "zero": "0"})
    cases += option_cases("gups-topology", topology, files, "--shape", NOT_A_SHAPE_OF_ANY_SIZE)
    cases += option_cases("gups-topology", topology, files + ["--nodes", "8"], "--cores-per-node",
                          {**NOT_A_COUNT, "above the range": "1025"})
    cases += option_cases("gups-topology", topology, files + ["--nodes", "8"], "--bandwidth-scale", NOT_A_RATE)
    cases += option_cases("gups-topology", topology, files + ["--nodes", "8"], "--wrap", {"unknown": "ring"})
    cases += option_cases("gups-topology", topology, ["--nodes", "8", "--hostfile", os.path.join(out, "h.txt")],
                          "--platform", {"no such folder": "/nonexistent-folder/p.xml"})
    cases += option_cases("gups-topology", topology, ["--nodes", "8"], "--json",
                          {"no such folder": NOWHERE, "a folder": A_FOLDER})
    cases += [Case("gups-topology", "too many nodes", [topology] + files + ["--nodes", "99999999999999"], "10^14")]
    return cases


def calibrate_cases(calibrate):
    cases = []
    cases += option_cases("gups-calibrate", calibrate, [], "--log2-table", {**NOT_A_COUNT, "below the range": "9",
                                                                           "above the range": "35"})
    cases += option_cases("gups-calibrate", calibrate, [], "--repeats", {"zero": "0", "above the range": "101",
                                                                        "non-numeric": "abc"})
    cases += option_cases("gups-calibrate", calibrate, [], "--shape", {"two sides": "4x4", "non-numeric": "axbxc"})
    cases += option_cases("gups-calibrate", calibrate, [], "--output", {"no such folder": NOWHERE, "a folder": A_FOLDER})
    cases += option_cases("gups-calibrate", calibrate, [], "--json", {"no such folder": NOWHERE, "a folder": A_FOLDER})
    return cases


def sim_cases(sim):
    quiet = ["--quiet", "--shape", "2x2x2"]
    cases = []
    for option in ("--updates-per-node", "--updates-per-word", "--words-per-node", "--log2-table", "--lookahead",
                   "--cores-per-node", "--reception-fifo", "--converge-max-updates"):
        base = ["--quiet", "--nodes", "8"] if option == "--cores-per-node" else quiet
        # a ceiling may be as high as one likes; a FIFO of 0 messages is "unbounded"
        values = {k: v for k, v in NOT_A_COUNT.items()
                  if not (option == "--converge-max-updates" and k == "beyond 64 bits")}
        cases += option_cases("gups-sim", sim, base, option, values if option == "--reception-fifo"
                              else {**values, "zero": "0"})
    cases += option_cases("gups-sim", sim, ["--quiet"], "--nodes", {**NOT_A_COUNT, "zero": "0"})
    cases += option_cases("gups-sim", sim, ["--quiet"], "--shape", NOT_A_SHAPE_OF_ANY_SIZE)
    cases += option_cases("gups-sim", sim, quiet, "--bandwidth-scale", NOT_A_RATE)
    cases += option_cases("gups-sim", sim, quiet, "--max-wall", {"negative": "-1", "not a number": "nan",
                                                                "non-numeric": "abc"})
    cases += option_cases("gups-sim", sim, quiet + ["--converge"], "--settle-to",
                          {"negative": "-0.1", "zero": "0", "not a number": "nan"})
    cases += option_cases("gups-sim", sim, quiet, "--stream-offset", {"negative": "-1", "period": "1317624576693539401"})
    cases += option_cases("gups-sim", sim, quiet, "--mechanisms", {"unknown": "warp", "empty": "", "comma": ","})
    cases += option_cases("gups-sim", sim, quiet, "--verify", {"unknown": "maybe"})
    cases += option_cases("gups-sim", sim, quiet, "--costs", {"unknown": "free"})
    cases += option_cases("gups-sim", sim, quiet, "--extra-cfg", {"no value": "network/model", "empty": ""})
    cases += option_cases("gups-sim", sim, quiet, "--machine", {"unknown name": "nosuch", "no such file": "/x/y.json"})
    cases += option_cases("gups-sim", sim, quiet, "--json", {"no such folder": NOWHERE, "a folder": A_FOLDER})
    cases += [
        Case("gups-sim", "combined sizes", [sim] + quiet + ["--log2-table", "62", "--updates-per-word", "1024"],
             "2^72 updates"),
        Case("gups-sim", "memory", [sim] + quiet + ["--log2-table", "50", "--updates-per-word", "1"], "8 PiB table"),
        Case("gups-sim", "memory", [sim, "--quiet", "--nodes", "1048576", "--updates-per-node", "1"],
             "4 million ranks"),
        Case("gups-sim", "mistyped option", [sim] + quiet + ["--update-per-node", "8"], "--update-per-node"),
        Case("gups-sim", "both sizes", [sim, "--quiet", "--nodes", "8", "--shape", "2x2x2"], "--nodes and --shape"),
    ]
    return cases


def other_launcher_cases(paths):
    """The build's MPI programs started by the other MPI's launcher (MPICH's Hydra for an Open MPI build, Open MPI's
    mpirun for an MPICH build): each rank would run alone, so the first refuses with one line."""
    with open(os.path.join(os.path.dirname(paths["gups"]), "gups-mpirun"), encoding="utf-8") as f:
        flavour = re.search(r"was built with, (.+?) \(", f.read())  # the flavour CMake wrote into its comment
    if flavour is None:
        return []
    built_with_open_mpi = flavour.group(1) == "Open MPI"
    other = shutil.which("mpiexec.mpich" if built_with_open_mpi else "mpirun.openmpi")
    if other is None:
        return []
    launcher = [other, "-n", "2"] + ([] if built_with_open_mpi else ["--oversubscribe", "--quiet"])
    # Under the sanitizers, MPICH's singleton start under Open MPI's launcher leaks from a module LeakSanitizer
    # cannot name (so no suppression can): the MPI library's, not the program's.
    return [Case("gups", "another MPI's launcher", launcher + [paths["gups"], "--log2-table", "10"],
                 f"{os.path.basename(other)} -n 2 gups", leaks_checked=False),
            Case("gups-calibrate", "another MPI's launcher", launcher + [paths["gups-calibrate"], "--log2-table", "10"],
                 f"{os.path.basename(other)} -n 2 gups-calibrate", leaks_checked=False)]


ANALYSIS_SUBCOMMANDS = ("main", "study", "sweep", "report", "plot", "table2", "explain", "apexmap", "probes")


def analysis_cases(out, build):
    """python3 -m analysis and each subcommand: one error line with the analysis's prefix, exit 2."""
    analysis = [sys.executable, "-m", "analysis"]
    built = ["--build", build]
    measured = os.path.join(out, "measured.csv")
    with open(measured, "w", encoding="utf-8") as f:
        f.write("nodes,gups\n64,0.38\n")
    cases = [Case("analysis", "mistyped option", analysis + [sub, "--no-such-option"], f"{sub} --no-such-option")
             for sub in ANALYSIS_SUBCOMMANDS]
    cases += [Case("analysis", "no subcommand", analysis, "no subcommand"),
              Case("analysis", "unknown subcommand", analysis + ["magic"], "magic")]
    explain = analysis + ["explain", "--out", os.path.join(out, "e"), "--no-simulation"] + built
    cases += [Case("analysis", "explain: missing file", explain + ["--measured", "/x/none.csv"], "no such column"),
              Case("analysis", "explain: tolerance", explain + ["--measured", measured, "--tolerance", "2"], "2"),
              Case("analysis", "explain: machine", explain + ["--measured", measured, "--machine", "nosuch"], "nosuch"),
              Case("analysis", "explain: mechanism", explain + ["--measured", measured, "--mechanisms", "warp"],
                   "warp")]
    cases += option_cases("analysis", sys.executable, ["-m", "analysis", "study", "table4", "--out",
                                                       os.path.join(out, "s"), "--model-only", *built], "--jobs",
                          {"zero": "0", "non-numeric": "abc"}, "study: ")
    cases += option_cases("analysis", sys.executable, ["-m", "analysis", "sweep", "--out", os.path.join(out, "w"),
                                                       "--sources", "model", *built], "--repeat", {"zero": "0"}, "sweep: ")
    cases += option_cases("analysis", sys.executable, ["-m", "analysis", "main", "--out", os.path.join(out, "m"), *built],
                          "--budget", {"zero": "0", "not a number": "nan"}, "main: ")
    cases += option_cases("analysis", sys.executable, ["-m", "analysis", "sweep", "--out", os.path.join(out, "w"),
                                                       "--sources", "model", *built], "--srun-mpi",
                          {"not a plugin name": "pmix;rm"}, "sweep: ")
    empty = os.path.join(out, "empty")
    os.makedirs(empty, exist_ok=True)
    cases += [Case("analysis", "report: no results", analysis + ["report", "--out", empty], "an empty folder")]
    return cases


def cut_short_cases(paths, source):
    """Good commands whose reader goes before they write: no traceback, no crash, nothing left behind."""
    commands = [("gups-model", [paths["gups-model"], "--machine", "bgp", "--sweep", "64:32768", "--samples", "0"]),
                ("gups-topology", [paths["gups-topology"], "--catalogue"]),
                ("analysis", [sys.executable, "-m", "analysis", "study", "--help"]),
                ("analysis", [sys.executable, "-m", "analysis", "explain", "--help"])]
    if os.path.exists(paths["gups-sim"]):
        commands += [("gups-sim", [paths["gups-sim"], "--machine", "bgp", "--nodes", "8", "--quiet"])]
    return [Case(program, "output cut short", argv, " ".join(argv[1:4]), cut_short=True) for program, argv in commands]


def optional_fields(model):
    """Fields a machine file may leave out (gups-model --schema: those with a default): their absence is no error,
    and is said in one warning line."""
    schema = json.loads(subprocess.run([model, "--machine", "bgp", "--schema"], capture_output=True, text=True,
                                       check=True).stdout)
    return {row["field"] for row in schema if not row["required"]}


def machine_file_variants(source, optional=frozenset()):
    """(category, name, text) of machine files, each made wrong in one place."""
    path = os.path.join(source, "models", "machines", "bgp.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    machine = json.loads(text)
    variants = []
    leaves = [(None, k) for k in ("clock_hz", "cores_per_node", "memory_per_node_bytes")]
    for section in ("torus", "packet", "costs_cycles"):
        leaves += [(section, k) for k, v in machine[section].items() if isinstance(v, (int, float))]
    for section, key in leaves:
        name = f"{section}.{key}" if section else key
        for category, value in (("negative", -1), ("non-numeric", "abc"), ("null", None), ("list", [1]),
                                ("missing", KeyError)):
            if value is KeyError and name in optional:
                continue
            broken = json.loads(text)
            holder = broken[section] if section else broken
            if value is KeyError:
                del holder[key]
            else:
                holder[key] = value
            variants.append((f"machine file: {category}", f"{name} {category}", json.dumps(broken)))
        broken_text = json.dumps({**machine, **({section: {**machine[section], key: "HUGE"}} if section
                                                 else {key: "HUGE"})}).replace('"HUGE"', "1e400")
        variants.append(("machine file: huge", f"{name} 1e400", broken_text))
    for fraction in (0.0, 0.02, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99):
        cut = int(len(text) * fraction)
        variants.append(("machine file: truncated", f"first {cut} of {len(text)} bytes", text[:cut]))
    structural = [("not JSON", "plain words"), ("a list", "[]"), ("empty object", "{}"), ("null", "null"),
                  ("a number", "42"), ("binary", "\x00\x01\x02\xff")]
    variants += [(f"machine file: {what}", what, body) for what, body in structural]
    wrong = [("schema", lambda m: m.update(schema="torus-gups/machine/99")),
             ("unknown field", lambda m: m.update(clock_hzz=1e9)),
             ("overheads of no core", lambda m: m["costs_cycles"].update(core_overhead=[])),
             ("role plan out of order", lambda m: m.update(role_plan="1xY/X/Z+1")),
             ("zero bandwidth", lambda m: m["torus"].update(link_bandwidth_bytes_per_s=0)),
             ("too many dimensions", lambda m: m["torus"].update(dimensions=99)),
             ("packet too small", lambda m: m["packet"].update(max_bytes=8)),
             ("bucket size key", lambda m: m["reference_bucket_sizes"].update({"sixty": 29})),
             ("bucket size zero", lambda m: m["reference_bucket_sizes"].update({"64": 0})),
             ("cores beyond 32 bits", lambda m: m.update(cores_per_node=2 ** 40))]
    for what, change in wrong:
        broken = json.loads(text)
        change(broken)
        variants.append((f"machine file: {what}", what, json.dumps(broken)))
    return variants


def machine_cases(model, topology, sim, source, out):
    cases = []
    for number, (category, what, body) in enumerate(machine_file_variants(source, optional_fields(model))):
        path = os.path.join(out, f"machine-{number}.json")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(body)
        # Every variant through the model; every third also through the launchers.
        cases.append(Case("gups-model", category, [model, "--machine", path, "--nodes", "64"], what))
        if number % 3 == 0:
            cases.append(Case("gups-topology", category,
                              [topology, "--machine", path, "--nodes", "8", "--platform", os.path.join(out, "p.xml"),
                               "--hostfile", os.path.join(out, "h.txt")], what))
        if number % 3 == 1:
            cases.append(Case("gups-sim", category, [sim, "--quiet", "--machine", path, "--shape", "2x2x2"], what))
    return cases


def run_case(case, environment, source):
    # Open MPI singletons started at once race to create the same session folder under one tmpdir ("mkdir ...
    # File exists", seen once in 565 x 4 here): each case gets a tmpdir of its own, with a short path whatever the
    # checkout's (Open MPI's socket paths under it must fit in 108 characters; see tests/integration/CMakeLists.txt).
    session = tempfile.mkdtemp(prefix="tg-ompi-")
    # A refused input must leave no temporary files: each case gets a TMPDIR of its own, looked at afterwards.
    scratch = tempfile.mkdtemp(prefix="tg-tmp-")
    environment = {**environment, "OMPI_MCA_orte_tmpdir_base": session, "TMPDIR": scratch}
    if not case.leaks_checked:
        environment["ASAN_OPTIONS"] = ":".join(filter(None, [environment.get("ASAN_OPTIONS"), "detect_leaks=0"]))
    start = time.monotonic()
    closed = None
    if case.cut_short:  # a pipe whose reader has gone: the first write fails
        read_end, closed = os.pipe()
        os.close(read_end)
    try:
        done = subprocess.run(case.argv, stdout=closed if closed is not None else subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, errors="replace",
                              timeout=SECONDS_ALLOWED * (3 if case.cut_short else 1), env=environment,
                              stdin=subprocess.DEVNULL, cwd=source)
        status, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as expired:
        status, stderr = "timeout", (expired.stderr or b"").decode(errors="replace") \
            if isinstance(expired.stderr, bytes) else (expired.stderr or "")
    finally:
        if closed is not None:
            os.close(closed)
        shutil.rmtree(session, ignore_errors=True)
        left_behind = sorted(os.listdir(scratch))
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - start
    lines = [line for line in stderr.splitlines() if line.strip()]
    error_line = re.compile(rf"^{re.escape(case.program)}: error: \S")
    problems = []
    if case.cut_short:
        # Ended quietly: its work done (0), or stopped by the broken pipe as a C program is (SIGPIPE, 141).
        if status not in (0, 141, -13):
            problems.append(f"exit {status}")
        if any(word in stderr for word in ("Traceback", "BrokenPipe", "Error", "Aborted")):
            problems.append("a traceback or crash on stderr")
    elif status == "timeout":
        problems.append(f"still running after {SECONDS_ALLOWED:g} s")
    elif status != 2:
        problems.append(f"exit {status}" + (" (a crash)" if status == 3 or status < 0 else ""))
    if not case.cut_short and (len(lines) != 1 or not error_line.match(lines[0])):
        problems.append(f"{len(lines)} lines on stderr, not one '{case.program}: error:' line")
    if left_behind:
        problems.append(f"left {', '.join(left_behind)} in its temporary folder")
    return {"program": case.program, "category": case.category, "what": case.what, "status": status,
            "seconds": round(seconds, 3), "stderr": lines[:5], "problems": problems}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, help="the build folder")
    p.add_argument("--source", required=True, help="the source folder")
    p.add_argument("--json", help="write every case and how it ended here")
    p.add_argument("--jobs", type=int, default=4, help="cases run at once (default 4)")
    p.add_argument("--no-sim", action="store_true", help="leave out gups-sim (a build without SimGrid)")
    args = p.parse_args(argv)

    binaries = {"gups": "kernel/gups", "gups-model": "models/gups-model", "gups-topology": "sim/gups-topology",
                "gups-calibrate": "models/gups-calibrate", "gups-sim": "sim/gups-sim"}
    paths = {name: os.path.join(args.build, relative) for name, relative in binaries.items()}
    environment = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                   "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}
    with tempfile.TemporaryDirectory(prefix="torus-gups-fuzz-") as out:
        cases = gups_cases(paths["gups"]) + model_cases(paths["gups-model"]) + \
            topology_cases(paths["gups-topology"], out) + calibrate_cases(paths["gups-calibrate"]) + \
            other_launcher_cases(paths)
        if not args.no_sim:
            cases += sim_cases(paths["gups-sim"])
        cases += machine_cases(paths["gups-model"], paths["gups-topology"], paths["gups-sim"], args.source, out)
        cases += analysis_cases(out, os.path.abspath(args.build)) + cut_short_cases(paths, args.source)
        if args.no_sim:
            cases = [c for c in cases if c.program != "gups-sim"]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda c: run_case(c, environment, args.source), cases))

    failed = [r for r in results if r["problems"]]
    for r in failed:
        print(f"FAIL {r['program']} [{r['category']}] {r['what']}: {'; '.join(r['problems'])}; stderr: {r['stderr']}")
    by_program = {}
    for r in results:
        by_program.setdefault(r["program"], []).append(r)
    for program, runs in by_program.items():
        slowest = max(r["seconds"] for r in runs)
        print(f"fuzz: {program}: {len(runs)} cases, {sum(not r['problems'] for r in runs)} ended as they should "
              f"(slowest {slowest:.1f} s)", file=sys.stderr)
    categories = len({(r["program"], r["category"]) for r in results})
    print(f"fuzz: {len(results)} cases in {categories} kinds (bad inputs: exit 2 and one error line; output cut "
          f"short: no traceback or crash), {len(results) - len(failed)} ended as they should, {len(failed)} did not")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
