"""How busy this host was with other work while a run of ours ran: the CPU time every process spent (/proc/stat)
less our children's own (getrusage), as a share of the host's cores over the run's wall time. A measured GUPS on a
host that other processes kept busy is low for a reason the model does not have. Our own children still running
when a run ends (a simulation beside it) count as others: measured runs run alone."""
import os
import resource
import time

# Above this share of the host's cores taken by other processes, a measured figure is called taken on a busy host.
BUSY_SHARE = 0.10


def _busy_seconds():
    """CPU seconds all processes have spent since boot (None where /proc/stat cannot be read)."""
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq, *rest = (int(v) for v in fields[1:])
    steal = rest[0] if rest else 0
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class HostLoad:
    """Started before a run, read after it (a context manager): `others_share`, the share of the host's cores
    other processes used meanwhile (0 to 1), or None where the system does not say."""

    def __enter__(self):
        self.busy, self.own, self.wall = _busy_seconds(), _children_seconds(), time.monotonic()
        self.others_share = None
        return self

    def __exit__(self, *exc):
        busy, wall = _busy_seconds(), time.monotonic() - self.wall
        if busy is None or self.busy is None or wall <= 0:
            return False
        others = max(0.0, (busy - self.busy) - (_children_seconds() - self.own))
        self.others_share = min(1.0, others / (wall * (os.cpu_count() or 1)))
        return False

    def record(self):
        return {"others_cpu_share": None if self.others_share is None else round(self.others_share, 3),
                "cores": os.cpu_count()}


def busy_text(share):
    """The words beside a measured figure taken while other processes used `share` of the host's cores."""
    return (f"the host was busy: other processes used {share:.0%} of its cores during these runs, so the figure may "
            "be low for that")
