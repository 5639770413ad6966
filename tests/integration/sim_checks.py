#!/usr/bin/env python3
"""Named checks of simulated results for the transcripts (tests/transcripts/sim-*.tesh): each reads the JSON results
a transcript's runs wrote in its work folder and prints what it found, one verdict a line, so that a transcript holds
only commands and their output.

Usage: sim_checks.py CHECK WORKDIR [ARGS...]; sim_checks.py --list names the checks.
"""
import json
import os
import subprocess
import sys

CHECKS = {}


def check(function):
    """Registers a check under its name, dashes for underscores."""
    CHECKS[function.__name__.replace("_", "-")] = function
    return function


def result(workdir, name):
    with open(os.path.join(workdir, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def verified(r):
    return "verified" if r["passed"] and r["errors"] == 0 else "failed"


def same_checksums(r, reference):
    return "same checksums" if r["checksums"] == reference["checksums"] else "other checksums"


def of_flow(value, flow, within, label):
    return label if abs(value / flow - 1) < within else "%.4f of flow" % (value / flow)


def bytes_carried(r):
    """The bytes every link carried over the bytes the nodes sent: the mean links a message crosses."""
    return sum(d["bytes"] for d in r["link_load"]) / r["counters"]["network_bytes_sent"]


def messages_of(core):
    return core["messages_received"] + core["local_messages_received"]


def levels_run(workdir, prefix):
    """The levels a transcript ran as PREFIX-LEVEL.json (each result names its level), in the order they ran: a
    new level is checked as soon as the transcript runs it, with no list kept here."""
    found = []
    for name in os.listdir(workdir):
        if name.startswith(prefix + "-") and name.endswith(".json"):
            path = os.path.join(workdir, name)
            with open(path, encoding="utf-8") as f:
                level = json.load(f).get("simulation", {}).get("network_level")
            if name == f"{prefix}-{level}.json":
                found.append((os.path.getmtime(path), level))
    return [level for _, level in sorted(found)]


@check
def levels_agree(workdir, prefix="level"):
    """Each level verified, with flow's checksums."""
    flow = result(workdir, f"{prefix}-flow")
    for level in levels_run(workdir, prefix):
        r = result(workdir, f"{prefix}-{level}")
        print(level, r["simulation"]["network_level"], verified(r), same_checksums(r, flow))


@check
def levels_near_flow(workdir, prefix="level"):
    """The cheaper levels' steady state against flow's, where the cores bind."""
    flow = result(workdir, f"{prefix}-flow")["steady_gups"]
    for level in [level for level in levels_run(workdir, prefix) if level != "flow"]:
        print(level, of_flow(result(workdir, f"{prefix}-{level}")["steady_gups"], flow, 0.02, "within 2% of flow"))


# What a run simulated, as opposed to how the simulation went (wall time, wake-ups) or how a core's time was
# accounted (busy shares read the clock where the core looked).
SIMULATED = ("seconds", "gups", "steady_gups", "steady_quarters_gups", "first_generator_done_seconds",
             "applied_timeline", "checksums", "counters", "window_gups")


@check
def run_ahead_agrees(workdir, prefix="ahead"):
    """Each level run with cores running ahead (PREFIX-LEVEL) and without (PREFIX-LEVEL-waits): the same simulated
    figures, and fewer wake-ups a message with it."""
    for level in levels_run(workdir, prefix):
        ahead, waits = result(workdir, f"{prefix}-{level}"), result(workdir, f"{prefix}-{level}-waits")
        differ = [field for field in SIMULATED if ahead.get(field) != waits.get(field)]
        fewer = ahead["wake_ups"]["per_message"] < waits["wake_ups"]["per_message"]
        print(level, verified(ahead), "same simulated figures" if not differ else "differ: " + ", ".join(differ),
              "fewer wake-ups a message" if fewer else "no fewer wake-ups")


@check
def paths_agree(workdir, timed="level-queue", comms="comms-queue", figure="steady_gups"):
    """The same run with and without SimGrid communications (--message-layer s4u, s4u-comms) at a timed level:
    the same table, and the figure (the steady state, or the whole run's GUPS) within 0.2% (only the order of equal
    times may differ)."""
    a, b = result(workdir, timed), result(workdir, comms)
    name = "steady" if figure == "steady_gups" else figure
    print(verified(a), verified(b), same_checksums(a, b), of_flow(a[figure], b[figure], 0.002, f"{name} within 0.2%"))


@check
def probe_paths_agree(workdir, timed="probe-queue", comms="probe-comms-queue"):
    """The two-sided probe with and without SimGrid communications at a timed level: every sum right, and the
    time within 0.2%."""
    a, b = result(workdir, timed), result(workdir, comms)
    layers = (a["simulation"]["message_layer"], b["simulation"]["message_layer"])
    print(*layers, "passed" if a["passed"] and b["passed"] else "failed",
          of_flow(a["seconds"], b["seconds"], 0.002, "time within 0.2%"))


@check
def reception_backlog(workdir, timed="level-queue", comms="comms-queue"):
    """Each core's most messages waiting for a receive: counted where the simulator matches messages itself (at
    least one for a core that receives, at most what it received), not where SimGrid does."""
    def counted(r):
        return all(min(1, received) <= c["max_waiting_messages"] <= received for c in r["cores"]
                   for received in [c["messages_received"] + c["local_messages_received"]])
    print("timed: counted" if counted(result(workdir, timed)) else [c["max_waiting_messages"] for c in
                                                                     result(workdir, timed)["cores"]],
          "comms: none" if all(c["max_waiting_messages"] == 0 for c in result(workdir, comms)["cores"]) else "comms: ?")


@check
def slow_links(workdir, prefix="slow"):
    """With slow links: latency ignores contention, queue holds it as flow does; packet in dimension order (as
    queue routes) holds it back at least as much as queue (its buffers are finite), and adaptive routing, which
    spreads it over every shortest path, stays near flow."""
    s = {level: result(workdir, f"{prefix}-{level}")["steady_gups"]
         for level in ("flow", "queue", "latency", "packet", "packet-deterministic")}
    print("latency: faster than flow" if s["latency"] > 1.2 * s["flow"] else "latency: %.3f of flow" % (
        s["latency"] / s["flow"]))
    print("queue: within 10% of flow" if abs(s["queue"] / s["flow"] - 1) < 0.1 else "queue: %.3f of flow" % (
        s["queue"] / s["flow"]))
    print("packet, dimension order: at most queue's" if s["packet-deterministic"] <= s["queue"] * 1.002 else
          "packet, dimension order: %.3f of queue" % (s["packet-deterministic"] / s["queue"]))
    print("packet, adaptive: within 15% of flow" if abs(s["packet"] / s["flow"] - 1) < 0.15 else
          "packet, adaptive: %.3f of flow" % (s["packet"] / s["flow"]))


@check
def link_loads_as_flow(workdir, prefix="links"):
    loads = {level: [(x["links"], x["bytes"]) for x in result(workdir, f"{prefix}-{level}")["link_load"]]
             for level in ("flow", "queue")}
    print("mesh links and bytes as flow" if loads["queue"] == loads["flow"] else (loads["queue"], loads["flow"]))


@check
def direct_as_flow(workdir, prefix="direct"):
    queue, flow = result(workdir, f"{prefix}-queue"), result(workdir, f"{prefix}-flow")
    print("direct:", verified(queue), same_checksums(queue, flow))


@check
def automatic_levels(workdir, topology):
    """gups-topology's level for a run's size when asked for auto."""
    def level(nodes):
        done = subprocess.run([topology, "--nodes", str(nodes), "--network", "auto"], capture_output=True, text=True,
                              check=True)
        return json.loads(done.stdout)["network_level"]
    print([(n, level(n)) for n in (64, 1024, 2048, 32768)])


@check
def wire_bytes(workdir):
    """Whole packets on the wire carry the model's bytes per update; payloads alone fewer."""
    b = result(workdir, "mech-model")["results"][0]["rows"][0]["bytes_per_update"]
    sent = {n: result(workdir, f"mech-{n}")["network_bytes_per_update"] for n in ("wire", "none")}
    print("wire: b as the model" if abs(sent["wire"] / b - 1) < 0.01 else "wire: %.3f bytes per update, model %.3f" % (
        sent["wire"], b))
    print("payload only: lighter" if sent["none"] < 0.9 * b else "payload only: %.3f" % sent["none"])


@check
def receive_batches(workdir):
    """An idle core makes a call per message; a busy one takes several in one call."""
    cores = {n: result(workdir, f"mech-{n}")["cores"][1:] for n in ("batches-slow", "batches")}
    per_message = {n: [c["receive_calls"] / messages_of(c) for c in cores[n]] for n in cores}
    print("idle: a call per message" if min(per_message["batches-slow"]) > 0.98 else "idle: %s" % per_message[
        "batches-slow"])
    print("busy: messages share calls" if max(per_message["batches"]) < 0.9 and all(
        c["packets_received"] <= 4 * c["receive_calls"] for c in cores["batches"]) else "busy: %s" % per_message[
        "batches"])
    print("off: calls", [c["receive_calls"] for c in result(workdir, "mech-none")["cores"]])


@check
def paper_buckets(workdir):
    r = result(workdir, "mech-buckets")
    c = r["cores"][1]
    print("bucket", r["bucket_capacity"], "packets per message", c["packets_received"] / messages_of(c), "mechanisms",
          r["simulation"]["mechanisms"])


@check
def dma_injection(workdir):
    """A routing core that generates looks at its messages each turn, with rendezvous sends and with DMA
    injection alike: neither stalls it, and both give its rate."""
    runs = {n: result(workdir, f"mech-{n}") for n in ("routed", "routed-dma")}
    for name, run in (("rendezvous", runs["routed"]), ("dma", runs["routed-dma"])):
        core = run["cores"][0]
        print(f"{name}: busy, not stalled" if core["busy_share"] > 0.9 and core["stalled_share"] < 0.05
              else f"{name}: {core}")
    ratio = runs["routed"]["steady_gups"] / runs["routed-dma"]["steady_gups"]
    print("the same rate within 1%" if abs(ratio - 1) < 0.01 else f"rendezvous / dma = {ratio:.4f}")


@check
def reception_fifo(workdir):
    """Unbounded reception FIFOs let the generators run ahead; bounded ones hold them back."""
    def ahead(n):
        r = result(workdir, f"fifo-{n}")
        return r["window_gups"] / r["steady_gups"]
    print("unbounded: generators far ahead" if ahead("unbounded") > 1.4 else ahead("unbounded"))
    print("bounded: generators held back" if ahead("4") < 1.2 else ahead("4"))


@check
def torus_link_load(workdir):
    r = result(workdir, "bind-machine")
    ratio = bytes_carried(r)
    print("links carry 4/3 of the bytes sent" if 1.32 <= ratio <= 1.35 else "links carry %.3f of the bytes sent" % ratio)
    print("dimensions", [d["links"] for d in r["link_load"]], "binds", r["binds"]["resource"].split()[0])


@check
def mesh_link_load(workdir):
    r = result(workdir, "mesh")
    ratio = bytes_carried(r)
    print(r["simulation"]["network"], "links carry 5/3 of the bytes sent" if 1.65 <= ratio <= 1.68
          else "links carry %.3f" % ratio, [d["links"] for d in r["link_load"]])


@check
def network_traffic(workdir, name):
    """A gups-network result: its messages and efficiency, and the packet level's audit (every hop on a shortest
    path, no buffer filled beyond its depth)."""
    r = result(workdir, name)
    p = r.get("packets", {})
    print(f"{r['messages']} messages, efficiency {r['efficiency']:.3f},",
          "every hop minimal," if p.get("hops") == p.get("shortest_hops") else f"hops {p.get('hops')} of "
          f"{p.get('shortest_hops')} shortest,",
          "credits never below 0" if p.get("overfilled") == 0 else f"overfilled {p.get('overfilled')}")


@check
def machine_with(workdir, name, machine, *settings):
    """Writes WORKDIR/NAME.json: a machine file with dotted fields set (FIELD=VALUE, VALUE as JSON), for a run
    that needs a machine with one thing changed."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models", "machines")
    with open(os.path.join(root, machine + ".json"), encoding="utf-8") as f:
        document = json.load(f)
    for setting in settings:
        field, value = setting.split("=", 1)
        *parents, last = field.split(".")
        at = document
        for key in parents:
            at = at.setdefault(key, {})
        at[last] = json.loads(value)
    with open(os.path.join(workdir, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
    print("written", name, *settings)


@check
def network_of(workdir, name, note=""):
    """The network a run simulated (torus or mesh), and a note."""
    print(*[w for w in (result(workdir, name)["simulation"]["network"], note) if w])


def main(argv):
    if argv[:1] == ["--list"]:
        print("\n".join(sorted(CHECKS)))
        return 0
    if len(argv) < 2 or argv[0] not in CHECKS:
        sys.exit(f"usage: sim_checks.py CHECK WORKDIR [ARGS...]; checks: {', '.join(sorted(CHECKS))}")
    CHECKS[argv[0]](*argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
