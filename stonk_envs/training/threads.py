"""Torch's thread count on a shared machine: no more threads than the cores other processes leave free.

Torch's intra-op pool runs each large operation on all its threads and waits at a barrier for
the slowest. When another process holds a core, the thread on it is descheduled and every
operation waits a scheduler slice for it: measured on a loaded 2-core machine, a loop of small
matrix products ran 14x slower on two threads than on one. So ``torch_threads: 0`` means the
cores free now, re-counted before every rollout from the machine's busy time (``/proc/stat``)
less this process's own and, for a process that is not niced, less niced processes' (they yield
to it), never fewer than one and never more than the cores this process may run on.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import torch

PROC_STAT = Path("/proc/stat")
WINDOW = 0.2
"""Seconds the busy time is counted over at least: ``/proc/stat`` counts in ticks of 10 ms."""


def allowed_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0))


def machine_busy_seconds(stat: Path = PROC_STAT, count_niced: bool = True) -> float | None:
    """CPU-seconds all cores have spent busy since boot (None where ``/proc/stat`` is not readable).

    ``count_niced=False`` leaves out the time of processes with a raised nice value: they yield their
    cores to a process that has not raised its own, so they do not hold cores from it."""
    try:
        fields = stat.read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + (nice if count_niced else 0) + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_busy_seconds() -> float:
    """CPU-seconds this process (all its threads) has used."""
    times = os.times()
    return times.user + times.system


def threads_for(free_cores: float, cores: int) -> int:
    """Whole threads for ``free_cores`` cores left free by others: rounded, at least 1, at most ``cores``."""
    return max(1, min(cores, int(free_cores + 0.5)))


class ThreadBudget:
    """Sets torch's thread count from a ``torch_threads`` setting: a fixed count, or 0 for the free cores.

    :meth:`adjust` (called before every rollout) re-counts the free cores over the time since the
    last count, once at least :data:`WINDOW` has passed; with a fixed count it does nothing. An
    adaptive budget counts once on creation, over :data:`WINDOW`, so that a loaded machine's first
    rollout runs on the free cores too.
    """

    def __init__(self, setting: int, stat: Path = PROC_STAT):
        self.adaptive = setting == 0
        self.cores = allowed_cores()
        self.stat = stat
        self.count_niced = os.getpriority(os.PRIO_PROCESS, 0) > 0
        """Only a niced process competes with other niced ones (their time is counted as others')."""
        self.threads = self.cores if self.adaptive else setting
        self._mark = self._now()
        if self.adaptive:
            time.sleep(WINDOW)
            self.adjust()
        torch.set_num_threads(self.threads)

    def _now(self) -> tuple[float, float | None, float]:
        return time.monotonic(), machine_busy_seconds(self.stat, self.count_niced), own_busy_seconds()

    def free_cores(self) -> float | None:
        """Cores left free by other processes since the last count (None: not measurable here, or less than
        :data:`WINDOW` ago, in which case the count goes on)."""
        now = self._now()
        wall = now[0] - self._mark[0]
        if wall < WINDOW:
            return None
        then, self._mark = self._mark, now
        if then[1] is None or now[1] is None:
            return None
        others = (self._mark[1] - then[1]) - (self._mark[2] - then[2])
        return os.cpu_count() - max(others, 0.0) / wall

    def adjust(self) -> int:
        """Set torch's threads to the free cores (adaptive), or back to the fixed count if something in this
        process changed it (an in-process evaluation sets one); returns the count in use."""
        if self.adaptive:
            free = self.free_cores()
            if free is not None:
                self.threads = threads_for(min(free, self.cores), self.cores)
        if torch.get_num_threads() != self.threads:
            torch.set_num_threads(self.threads)
        return self.threads
