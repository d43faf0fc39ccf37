"""The benchmark: every game's AEC env, Parallel env and batched engine beside PettingZoo peers.

All figures come from one process, so the ratios to the peers are fair on a noisy machine.
"""

from __future__ import annotations

import datetime
import importlib
import os
import platform
from collections.abc import Callable, Sequence

import numba
import pettingzoo

from stonk_envs import vector
from stonk_envs.bench.timing import aec_steps_per_second, engine_steps_per_second, parallel_steps_per_second
from stonk_envs.games_index import game_module

PEERS = ("connect_four_v3", "leduc_holdem_v4", "texas_holdem_v4")
"""PettingZoo classic envs timed the same way (AEC, random legal actions)."""
BAR_PEER = "texas_holdem_v4"
BAR_AEC_RATIO = 2.0
BAR_ENGINE_BATCH = 1024
BAR_ENGINE_STEPS = 1_000_000
DEFAULT_BATCH_SIZES = (1, 4, 16, 64, 256, 1024, 4096)


def peer_env(name: str):
    """The AEC env of a PettingZoo classic peer."""
    return importlib.import_module(f"pettingzoo.classic.{name}").env()


def machine_info() -> dict:
    return {
        "time_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "pettingzoo": pettingzoo.__version__,
    }


def bench_engine(name: str, num_players: int, batch_sizes: Sequence[int], seconds: float, log) -> list[dict]:
    """The engine at each batch size: one thread, and numba's threads where they may pay.

    A turn-based game is also timed with ``observe="actors"`` (only the acting seat observed).
    """
    rows = []
    threads_options = [False, True] if numba.config.NUMBA_NUM_THREADS > 1 else [False]
    simultaneous = importlib.import_module(vector.KERNEL_MODULES[name]).GAME.simultaneous
    for observe in ("all",) if simultaneous else ("all", "actors"):
        for size in batch_sizes:
            for threaded in threads_options:
                if threaded and size < vector.engine.PARALLEL_FROM:
                    continue
                engine = vector.make(name, size, parallel=threaded, observe=observe, num_players=num_players)
                rate = engine_steps_per_second(engine, seconds)
                threads = numba.config.NUMBA_NUM_THREADS if threaded else 1
                rows.append({"batch": size, "threads": threads, "observe": observe, "agent_steps_per_s": rate,
                             "bytes_per_game": engine.nbytes_per_game})
                log(f"  {name} engine batch {size:>5} threads {threads} observe {observe:<6}: "
                    f"{rate:>12,.0f} agent-steps/s")
    return rows


def _best_at_bar(rows: list[dict], observe: str) -> float | None:
    rates = [r["agent_steps_per_s"] for r in rows if r["batch"] == BAR_ENGINE_BATCH and r["observe"] == observe]
    return max(rates) if rates else None


def ratios(rate: float, peers: dict[str, float]) -> dict[str, float]:
    return {peer: rate / peer_rate for peer, peer_rate in peers.items()}


def bench_game(name: str, num_players: int, batch_sizes, seconds: float, peers: dict[str, float], log) -> dict:
    module = game_module(name)
    log(f"{name} ({num_players} players)")
    aec = aec_steps_per_second(module.env(num_players=num_players), seconds)
    log(f"  {name} AEC env:      {aec:>12,.0f} agent-steps/s")
    par = parallel_steps_per_second(module.parallel_env(num_players=num_players), seconds)
    log(f"  {name} Parallel env: {par:>12,.0f} agent-steps/s")
    result = {"num_players": num_players, "aec": aec, "parallel": par, "engine": [],
              "ratios": {"aec": ratios(aec, peers), "parallel": ratios(par, peers)}}
    if name in vector.KERNEL_MODULES:
        result["engine"] = bench_engine(name, num_players, batch_sizes, seconds, log)
        best = _best_at_bar(result["engine"], "all")
        if best is not None:
            result["ratios"][f"engine@{BAR_ENGINE_BATCH}"] = ratios(best, peers)
    return result


def bars(result: dict) -> dict:
    """The issue's two bars for one game: AEC vs the bar peer, engine at the bar batch size."""
    ratio = result["ratios"]["aec"].get(BAR_PEER)
    best = _best_at_bar(result["engine"], "all")
    best_actors = _best_at_bar(result["engine"], "actors")
    return {
        f"aec_ratio_to_{BAR_PEER}": ratio,
        "aec_bar_met": ratio is not None and ratio >= BAR_AEC_RATIO,
        f"engine_agent_steps_per_s@{BAR_ENGINE_BATCH}": best,
        "engine_bar_met": best is not None and best >= BAR_ENGINE_STEPS,
        f"engine_actor_obs_agent_steps_per_s@{BAR_ENGINE_BATCH}": best_actors,
    }


def run_benchmark(
    games: Sequence[str],
    num_players: dict[str, int],
    batch_sizes: Sequence[int] = DEFAULT_BATCH_SIZES,
    seconds: float = 1.0,
    log: Callable[[str], None] = print,
) -> dict:
    """Time the peers, then every game; returns the JSON-ready results."""
    peers = {}
    for peer in PEERS:
        peers[peer] = aec_steps_per_second(peer_env(peer), seconds)
        log(f"peer {peer}: {peers[peer]:>12,.0f} agent-steps/s")
    results = {"machine": machine_info(), "seconds_per_figure": seconds, "batch_sizes": list(batch_sizes),
               "peers": peers, "games": {}}
    for name in games:
        game = bench_game(name, num_players[name], batch_sizes, seconds, peers, log)
        game["bars"] = bars(game)
        results["games"][name] = game
    return results
