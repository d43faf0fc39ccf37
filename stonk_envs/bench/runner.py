"""The benchmark: every game's AEC env, Parallel env and batched engine beside PettingZoo peers.

All figures come from one process, so the ratios to the peers are fair on a noisy machine.
"""

from __future__ import annotations

import datetime
import functools
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


def engine_configs(name: str, batch_sizes: Sequence[int]) -> list[tuple[int, bool, str]]:
    """``(batch, threaded, observe)`` of every engine figure of a game.

    One thread at every batch size, numba's threads from :data:`PARALLEL_FROM` games on, and
    for a turn-based game also ``observe="actors"`` (only the acting seat observed).
    """
    threaded_options = [False, True] if numba.config.NUMBA_NUM_THREADS > 1 else [False]
    simultaneous = game_module(name).GAME.simultaneous
    return [
        (size, threaded, observe)
        for observe in (("all",) if simultaneous else ("all", "actors"))
        for size in batch_sizes
        for threaded in threaded_options
        if not threaded or size >= vector.engine.PARALLEL_FROM
    ]


def _aec_job(make_env: Callable, seconds: float) -> Callable[[], float]:
    return lambda: aec_steps_per_second(make_env(), seconds)


def _parallel_job(make_env: Callable, seconds: float) -> Callable[[], float]:
    return lambda: parallel_steps_per_second(make_env(), seconds)


def _engine_job(make_engine: Callable, seconds: float) -> Callable[[], float]:
    return lambda: engine_steps_per_second(make_engine(), seconds)


def jobs(games: Sequence[str], num_players: dict[str, int], batch_sizes: Sequence[int], seconds: float) -> dict:
    """Every figure as ``key -> callable returning agent-steps/s``; keys are tuples."""
    out: dict[tuple, Callable[[], float]] = {}
    for peer in PEERS:
        out[("peer", peer)] = _aec_job(functools.partial(peer_env, peer), seconds)
    for name in games:
        module, n = game_module(name), num_players[name]
        out[(name, "aec")] = _aec_job(functools.partial(module.env, num_players=n), seconds)
        out[(name, "parallel")] = _parallel_job(functools.partial(module.parallel_env, num_players=n), seconds)
        for size, threaded, observe in engine_configs(name, batch_sizes):
            make = functools.partial(vector.make, name, size, parallel=threaded, observe=observe, num_players=n)
            out[(name, "engine", size, threaded, observe)] = _engine_job(make, seconds)
    return out


def _best_at_bar(rows: list[dict], observe: str) -> float | None:
    rates = [r["agent_steps_per_s"] for r in rows if r["batch"] == BAR_ENGINE_BATCH and r["observe"] == observe]
    return max(rates) if rates else None


def ratios(rate: float, peers: dict[str, float]) -> dict[str, float]:
    return {peer: rate / peer_rate for peer, peer_rate in peers.items()}


def game_result(name: str, num_players: int, best: dict[tuple, float], peers: dict[str, float]) -> dict:
    """One game's figures, ratios and bars from the best rate of every figure."""
    aec, par = best[(name, "aec")], best[(name, "parallel")]
    threads = numba.config.NUMBA_NUM_THREADS
    engine = [
        {"batch": key[2], "threads": threads if key[3] else 1, "observe": key[4], "agent_steps_per_s": rate,
         "bytes_per_game": vector.make(name, 1, num_players=num_players).nbytes_per_game}
        for key, rate in best.items()
        if key[0] == name and key[1] == "engine"
    ]
    result = {"num_players": num_players, "aec": aec, "parallel": par, "engine": engine,
              "ratios": {"aec": ratios(aec, peers), "parallel": ratios(par, peers)}}
    at_bar = _best_at_bar(engine, "all")
    if at_bar is not None:
        result["ratios"][f"engine@{BAR_ENGINE_BATCH}"] = ratios(at_bar, peers)
    result["bars"] = bars(result)
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
    repeats: int = 3,
    log: Callable[[str], None] = print,
) -> dict:
    """Time every figure ``repeats`` times, in interleaved rounds, and keep the best of each.

    Interleaving spreads the load of a shared machine evenly over the figures; the best of
    several runs is the one least slowed by other processes.
    """
    todo = jobs(games, num_players, batch_sizes, seconds)
    best: dict[tuple, float] = {}
    for round_index in range(repeats):
        for key, job in todo.items():
            rate = job()
            best[key] = max(rate, best.get(key, 0.0))
            log(f"round {round_index + 1}/{repeats}  {' '.join(map(str, key)):<52} {rate:>12,.0f} agent-steps/s")
    peers = {peer: best[("peer", peer)] for peer in PEERS}
    return {
        "machine": machine_info(),
        "seconds_per_figure": seconds,
        "repeats": repeats,
        "batch_sizes": list(batch_sizes),
        "peers": peers,
        "games": {name: game_result(name, num_players[name], best, peers) for name in games},
    }
