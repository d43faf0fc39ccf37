"""Torch's thread count from the cores other processes leave free."""

import os

import pytest
import torch

from stonk_envs.training import threads
from stonk_envs.training.threads import ThreadBudget, machine_busy_seconds, threads_for


@pytest.fixture(autouse=True)
def keep_torch_threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def test_threads_for_rounds_and_clamps():
    assert threads_for(0.0, 2) == 1
    assert threads_for(0.4, 2) == 1
    assert threads_for(1.6, 2) == 2
    assert threads_for(7.0, 4) == 4


def _stat(path, busy_ticks: int) -> None:
    path.write_text(f"cpu  {busy_ticks} 0 0 1000 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n")


def test_machine_busy_seconds_reads_the_cpu_line(tmp_path):
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 20 30 5000 7 1 2 3 0 0\n")
    assert machine_busy_seconds(stat) == pytest.approx(156 / os.sysconf("SC_CLK_TCK"))
    assert machine_busy_seconds(stat, count_niced=False) == pytest.approx(136 / os.sysconf("SC_CLK_TCK"))
    assert machine_busy_seconds(tmp_path / "missing") is None


def test_fixed_setting_is_kept(tmp_path):
    budget = ThreadBudget(1, tmp_path / "missing")
    assert torch.get_num_threads() == 1
    torch.set_num_threads(2)  # as an in-process evaluation might
    assert budget.adjust() == 1 and torch.get_num_threads() == 1


def test_adaptive_budget_follows_the_free_cores(tmp_path, monkeypatch):
    """Others busy on every core: one thread; the machine idle again: every allowed core."""
    cores = 2
    monkeypatch.setattr(threads, "allowed_cores", lambda: cores)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    clock = {"wall": 0.0, "own": 0.0}
    monkeypatch.setattr(threads.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(threads, "own_busy_seconds", lambda: clock["own"])
    tick = os.sysconf("SC_CLK_TCK")
    stat = tmp_path / "stat"
    _stat(stat, 0)
    budget = ThreadBudget(0, stat)
    assert budget.threads == cores and torch.get_num_threads() == cores
    # 10 s: two other processes busy on both cores, this one used 1 s
    clock.update(wall=10.0, own=1.0)
    _stat(stat, int(21 * tick))
    assert budget.adjust() == 1 and torch.get_num_threads() == 1
    # 10 s more: only this process busy (1 core)
    clock.update(wall=20.0, own=11.0)
    _stat(stat, int(31 * tick))
    assert budget.adjust() == 2 and torch.get_num_threads() == 2


def test_a_count_waits_for_its_window(tmp_path, monkeypatch):
    """A re-count sooner than the window after the last keeps the threads, and the next one spans both."""
    cores = 2
    monkeypatch.setattr(threads, "allowed_cores", lambda: cores)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    clock = {"wall": 0.0, "own": 0.0}
    monkeypatch.setattr(threads.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(threads.time, "sleep", lambda seconds: clock.update(wall=clock["wall"] + seconds))
    monkeypatch.setattr(threads, "own_busy_seconds", lambda: clock["own"])
    tick = os.sysconf("SC_CLK_TCK")
    stat = tmp_path / "stat"
    _stat(stat, 0)
    budget = ThreadBudget(0, stat)  # counts over its first window: the machine idle
    assert budget.threads == cores
    # 10 ms later the others have been busy on both cores: too short a window to count
    clock.update(wall=threads.WINDOW + 0.01)
    _stat(stat, int(0.02 * tick))
    assert budget.adjust() == cores
    # 10 s after the first count: others busy on 1.9 cores over the whole window
    clock.update(wall=threads.WINDOW + 10.0)
    _stat(stat, int(19 * tick))
    assert budget.adjust() == 1 and torch.get_num_threads() == 1
