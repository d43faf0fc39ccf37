"""Test session setup: for the whole suite on xdist workers, numba's cache is filled first, one process per core.

Every worker would otherwise compile the same engine, env and player functions on a cold cache
(a fresh clone, or after an edit to compiled code). A marker file in the cache folder, named by
the compiled sources' digest, says the warm-up is done; a warm run only checks for it. A run of
chosen test files skips the warm-up: its workers compile only what those tests need.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from stonk_envs import compiled_cache, registry

ROOT = Path(__file__).resolve().parents[1]


def warm_marker() -> Path:
    """The file that says the cache in use holds the warm-up's machine code for these sources."""
    return Path(numba.config.CACHE_DIR) / f"warm-{compiled_cache.source_digest(compiled_cache.PACKAGE_ROOT)}"


def compile_weight(game: str) -> int:
    """The size of a game's compiled sources, its rules and its players: a proxy for its compile time."""
    package = compiled_cache.PACKAGE_ROOT
    sources = [*(package / "games" / game).glob("*.py"), *(package / "policies").glob(f"{game}_*.py")]
    return sum(path.stat().st_size for path in sources)


def warm_groups(games: list[str], processes: int) -> list[list[str]]:
    """Share the games among ``processes`` warm-up processes, the largest first to the least loaded,
    so that no core idles while one process compiles a large game after a small one."""
    weights = {game: compile_weight(game) for game in games}
    groups: list[list[str]] = [[] for _ in range(max(1, min(processes, len(games))))]
    loads = [0] * len(groups)
    for game in sorted(games, key=weights.get, reverse=True):
        least = loads.index(min(loads))
        groups[least].append(game)
        loads[least] += weights[game]
    return groups


def warm_compiled_cache() -> None:
    """Run ``tests.warm_compiled`` for every game, in one process per core (the games share little
    compiled code)."""
    marker = warm_marker()
    if marker.exists():
        return
    groups = warm_groups(registry.names(), os.cpu_count() or 1)
    runs = [subprocess.Popen([sys.executable, "-m", "tests.warm_compiled", *group], cwd=ROOT) for group in groups]
    if all(run.wait() == 0 for run in runs):  # a failed warm-up is no failure: the workers compile what they need
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()


def whole_suite(config: pytest.Config) -> bool:
    """True when pytest runs every test: no paths given, or just the tests folder."""
    given = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS or given == [ROOT / "tests"]


def pytest_configure(config):
    workers = getattr(config.option, "numprocesses", None)
    if workers and not hasattr(config, "workerinput") and numba.config.CACHE_DIR and whole_suite(config):
        warm_compiled_cache()
