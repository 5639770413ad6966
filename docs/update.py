#!/usr/bin/env python3
"""Refreshes the measured tables of README.md and docs/*.md.

A guide shows a measured table between `<!-- measured: NAME -->` and `<!-- end measured -->`. Its text is
docs/measured/NAME.md, a copy of what the script that measured it wrote (SOURCES). With --check nothing is
written: the exit status says whether every block equals its copy (ctest docs.commands runs it so), so that no
figure is typed into a guide by hand.

Usage: docs/update.py [--check]
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEASURED = os.path.join(ROOT, "docs", "measured")
# NAME: (the file its script writes, how to take the table from it)
SOURCES = {
    "main-job": ("results/main/report.md", "first-screen"),
    "sim-levels": ("results/bench-sim-levels/sim-levels.md", "whole"),
    "network-traffic": ("results/bench-network-traffic/network-traffic.md", "whole"),
    "network-traffic-buffers": ("results/bench-network-traffic/network-traffic-channel_buffer_chunks.md", "whole"),
    "network-traffic-fifos": ("results/bench-network-traffic/network-traffic-injection_fifos.md", "whole"),
    "sim-scale": ("results/bench-sim-scale/sim-scale.md", "whole"),
    "sim-scale-all": ("results/bench-sim-scale-all/sim-scale-all.md", "whole"),
    "sleep-floor": ("results/bench-sleep-floor/sleep-floor.md", "whole"),
    "packet-saturation": ("results/bench-packet-saturation/packet-saturation.md", "whole"),
    "sim-mechanisms": ("results/bench-sim-mechanisms/sim-mechanisms.md", "whole"),
    "host-model": ("results/bench-host-model/host-model.md", "whole"),
    "hpcc-peer": ("results/bench-hpcc-peer/hpcc-peer.md", "whole"),
    "two-core-limit": ("results/bench-two-core-limit/two-core-limit.md", "whole"),
    "table4": ("analysis/studies/table4.md", "before-commands"),
    "table4-whole": ("analysis/studies/table4-whole/table4.md", "before-commands"),
    "table4-packet": ("analysis/studies/table4-packet/table4.md", "before-commands"),
    "table4-wraps": ("analysis/studies/table4-wraps/table4.md", "before-commands"),
    "table3": ("analysis/studies/table3.md", "before-commands"),
    "table2": ("analysis/studies/table2.md", "before-commands"),
    "explain-bgp": ("analysis/studies/explain/bgp-multicore/explain.md", "before-command"),
    "explain-bgl": ("analysis/studies/explain/bgl-routed/explain.md", "before-command"),
    "explain-verdict": ("analysis/studies/explain/bgp-multicore/explain.md", "verdict"),
    "explain-synthetic": ("results/bench-explain-synthetic/explain-synthetic.md", "whole"),
    "explain-blind": ("results/bench-explain-blind/explain-blind.md", "whole"),
    "model-examples": ("results/bench-model-examples/model-examples.md", "whole"),
    "explain-synthetic-top3-tenth": ("results/bench-explain-synthetic-top3-tenth/explain-synthetic-top3-tenth.md",
                                     "whole"),
    "baseline": ("results/bench-baseline/baseline.md", "whole-body"),
    "explain-synthetic-mesh": ("results/bench-explain-synthetic-meshed-long-side/explain-synthetic-meshed-long-side.md",
                               "whole"),
    "slurm-one-node": ("results/slurm-one-node/slurm-one-node.md", "whole"),
    "slurm-checks": ("results/slurm-one-node/slurm-one-node.md", "checks"),
    "apexmap-host": ("analysis/studies/apexmap/host/apexmap.md", "whole-body"),
    "apexmap-bgp-512": ("analysis/studies/apexmap/bgp-512/apexmap.md", "whole-body"),
    "apexmap-key": ("analysis/studies/apexmap/bgp-512/apexmap.md", "bold:Simulated|The model"),
    "apexmap-model-flow": ("analysis/studies/apexmap/levels-64-flow/apexmap.md",
                           "section:The model against the simulation"),
    "apexmap-levels": ("analysis/studies/apexmap/levels-64-queue/apexmap.md", "section:Against another run"),
    "probes": ("analysis/studies/probes/probes.md", "whole-body"),
    "network-bounds": ("results/bench-network-bounds/network-bounds.md", "whole-body"),
    "network-bounds-summary": ("results/bench-network-bounds/network-bounds.md", "section:Per network"),
    "whatif-bgp": ("analysis/studies/whatif/bgp-link-bandwidth/whatif.md", "before-commands"),
    "whatif-cores": ("analysis/studies/whatif/bgq-cores/whatif.md", "before-commands"),
    "whatif-cores-3d": ("analysis/studies/whatif/bgp-cores-3d/whatif.md", "before-commands"),
    "whatif-networks": ("analysis/studies/whatif/networks/whatif.md", "before-commands"),
    "whatif-eight": ("analysis/studies/whatif/bgp-1024-eight/whatif.md", "before-commands"),
    "design-bgq-model": ("analysis/studies/design-bgq-model/whatif.md", "before-commands"),
    "design-bgq-sim": ("analysis/studies/design-bgq-sim/whatif.md", "before-commands"),
    "design-k-model": ("analysis/studies/design-k-model/whatif.md", "before-commands"),
    "design-k-sim": ("analysis/studies/design-k-sim/whatif.md", "before-commands"),
}
BLOCK = re.compile(r"(<!-- measured: ([\w-]+) -->\n)(.*?)(<!-- end measured -->)", re.S)
GUIDES = ["README.md"] + [os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(ROOT, "docs")))
                          if f.endswith(".md")]


def extract(text, how):
    if how == "first-screen":
        screen = text[:text.index("\n## ")] if "\n## " in text else text
        return "\n".join(line for line in screen.splitlines() if not line.startswith("# ")).strip()
    if how == "before-commands":
        body = text.split("\nCommands:", 1)[0]
        return "\n".join(line for line in body.splitlines() if not line.startswith("# ")).strip() + \
            "\n\n(Every command that made it: the file itself.)"
    if how == "before-command":
        body = text.split("\nCommand:", 1)[0]
        return "\n".join(line for line in body.splitlines() if not line.startswith("# ")).strip()
    if how.startswith("bold:"):
        # The provenance line, then the bold lines that start with one of the names.
        starts = tuple("**" + name for name in how[len("bold:"):].split("|"))
        return "\n\n".join(line for line in text.splitlines() if line.startswith(("Measured ",) + starts))
    if how.startswith("section:"):
        # The provenance line, then one "### " section of the file.
        lines = text.splitlines()
        heading = "### " + how[len("section:"):]
        start = lines.index(heading)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(("## ", "### "))), len(lines))
        provenance = [line for line in lines if line.startswith("Measured ")][:1]
        return "\n".join(provenance + [""] + lines[start + 1:end]).strip()
    if how == "whole-body":
        return "\n".join(line for line in text.splitlines() if not line.startswith("# ")).strip()
    if how == "checks":
        return "\n".join(line for line in text.splitlines()
                         if line.startswith("Measured ") or line.strip().startswith(("ok:", "all checks")) or not line)
    if how == "verdict":
        return "\n\n".join(line for line in text.splitlines() if line.startswith(("Measured ", "**")))
    return text


def refresh_copies():
    """docs/measured/NAME.md from each source that exists; returns the names refreshed."""
    os.makedirs(MEASURED, exist_ok=True)
    refreshed = []
    for name, (source, how) in SOURCES.items():
        path = os.path.join(ROOT, source)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = extract(f.read(), how).strip() + "\n"
        with open(os.path.join(MEASURED, name + ".md"), "w", encoding="utf-8") as f:
            f.write(text)
        refreshed.append(name)
    return refreshed


def copy_of(name):
    path = os.path.join(MEASURED, name + ".md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    source = SOURCES.get(name, ("?", ""))[0]
    return f"(Not measured yet on this checkout: the script writes `{source}`, then `bash docs/update.sh`.)\n"


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        sys.exit(__doc__)
    if not check:
        refreshed = refresh_copies()
        print("docs/update: refreshed " + (", ".join(refreshed) or "nothing (no results/ here)"), file=sys.stderr)
    stale = []
    for guide in GUIDES:
        path = os.path.join(ROOT, guide)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        unknown = [m.group(2) for m in BLOCK.finditer(text) if m.group(2) not in SOURCES]
        if unknown:
            stale.append(f"{guide}: unknown measured block(s) {unknown}")
        updated = BLOCK.sub(lambda m: m.group(1) + copy_of(m.group(2)) + m.group(4), text)
        if updated != text:
            if check:
                stale.append(f"{guide}: a measured block differs from docs/measured/ (run bash docs/update.sh)")
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(updated)
    for line in stale:
        print(f"docs/update: {line}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
