"""Raw results on disk: one JSON file per run, read back into flat records."""
import contextlib
import csv
import datetime
import json
import os
import platform
import shlex
import sys

FIELDS = ["source", "machine", "algorithm", "owner", "nodes", "shape", "ranks", "repeat", "gups", "window_gups",
          "steady_gups", "steady_spread", "cpu_gups", "network_gups", "binds", "seconds", "wall_seconds", "peak_memory_bytes", "errors", "others_cpu_share",
          "file", "command"]


def raw_folder(out):
    return os.path.join(out, "raw")


def raw_path(out, name):
    return os.path.join(raw_folder(out), name + ".json")


@contextlib.contextmanager
def results_folder(out):
    """OUT and OUT/raw made for a job; if the job fails before it writes anything there, it leaves neither behind
    (a folder that was there before is kept)."""
    made = [folder for folder in (out, raw_folder(out)) if not os.path.isdir(folder)]
    os.makedirs(raw_folder(out), exist_ok=True)
    try:
        yield out
    except BaseException:
        for folder in reversed(made):
            try:
                os.rmdir(folder)  # only when empty
            except OSError:
                pass
        raise


def write_whole(path, document):
    """Written whole or not at all (a temporary file renamed), so that a run stopped here leaves no half file."""
    with open(path + ".part", "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2)
        f.write("\n")
    os.replace(path + ".part", path)
    return path


def write_raw(out, name, document):
    os.makedirs(raw_folder(out), exist_ok=True)
    return write_whole(raw_path(out, name), document)


def kept_result(path, command, section="sweep"):
    """(True, None) when the JSON file at path holds the finished result of this command (recorded in its
    `section`: sweep or study); else (False, why it must be run again), why being None when there is no file."""
    if not os.path.exists(path):
        return False, None
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as error:
        return False, f"{path} is not a readable result ({type(error).__name__}: {error})"
    meta = document.get(section) if isinstance(document, dict) else None
    if not isinstance(meta, dict):
        return False, f"{path} holds no finished result"
    if meta.get("command") != command:
        return False, f"{path} holds another run ({meta.get('command')})"
    if meta.get("failed"):
        return False, f"{path} records a failed run"
    return True, None


def record_of(document, path):
    """A flat record from one raw file, or None if it is not ours."""
    meta = document.get("sweep")
    if not isinstance(meta, dict) or "source" not in meta:
        return None
    source = meta["source"]
    base = {"source": source, "machine": meta.get("machine"), "algorithm": meta.get("algorithm"),
            "nodes": meta.get("nodes"), "repeat": meta.get("repeat", 1), "owner": meta.get("owner", "division"), "file": os.path.basename(path),
            "command": meta.get("command", "")}
    if source == "model":
        row = document["row"]
        base.update(shape=row["shape"], ranks=row["processes"], gups=row["gups"], cpu_gups=row["cpu_gups"],
                    network_gups=row["network_gups"], binds=row["binds"])
        typical = row.get("cpu_gups_at_median_costs")
        if typical is not None:  # a calibrated host: the bound with each cost at its repeats' median
            base["gups_at_median_costs"] = min(typical, row["network_gups"] or typical)
        interval = row.get("interval")
        if isinstance(interval, dict):  # gups-model's interval over the machine file's input ranges
            base.update(interval_low=interval["low"]["gups"], interval_high=interval["high"]["gups"],
                        interval_inputs=interval.get("inputs", []))
    else:
        base.update(shape=document.get("shape") or "", ranks=document.get("ranks"), gups=document.get("gups"),
                    window_gups=document.get("window_gups"), steady_gups=document.get("steady_gups"),
                    steady_spread=document.get("steady_spread"), seconds=document.get("seconds"),
                    errors=document.get("errors"))
        simulation = document.get("simulation") or {}
        base.update(wall_seconds=simulation.get("wall_seconds", meta.get("wall_seconds")),
                    peak_memory_bytes=simulation.get("peak_memory_bytes"))
        # What gups measured of the other processes on its hosts over the update phase, and its threshold.
        load = document.get("host_load") or {}
        base.update(others_cpu_share=load.get("others_cpu_share"), busy_above=load.get("busy_above"))
    return base


def load_records(out, warn=sys.stderr):
    """Every raw result of a results folder; broken or foreign files are named and skipped."""
    records = []
    folder = raw_folder(out)
    if not os.path.isdir(folder):
        return records
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
            record = record_of(document, path) if isinstance(document, dict) else None
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"analysis: skipping {path}: not a readable result ({error})", file=warn)
            continue
        if record is None:
            print(f"analysis: skipping {path}: not a torus-gups sweep result", file=warn)
            continue
        records.append(record)
    return records


def write_csv(records, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        for record in sorted(records, key=lambda r: (r["source"], r["algorithm"] or "", r["nodes"] or 0,
                                                     r["repeat"] or 0)):
            writer.writerow({k: record.get(k, "") for k in FIELDS})


def host_description():
    """This host as a table's header names it: cores, CPU, system."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}"


def kept_benchmark_result(path, command_text):
    """A benchmark's raw result at PATH when an earlier run of the same command wrote it (the command it keeps as
    "bench_command"), else None: what a benchmark's --resume keeps."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    return document if document.get("bench_command") == command_text else None


def provenance(command=None, done="Measured"):
    """When and where a table was made, how (done: "Measured" on this host's hardware; a study of simulations
    says "Simulated", so that a simulated column is never read as a measurement), and the command that ran
    (default: this analysis command)."""
    command = command or "python3 -m analysis " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    return f"{done} {datetime.date.today().isoformat()} on this host: {host_description()}; command: `{command}`."
