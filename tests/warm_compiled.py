"""Fill numba's cache for some games before the test workers start: ``python -m tests.warm_compiled <game>...``.

Plays a few steps of everything the tests compile for each game named: the engine's kernels (serial
and threaded), the PettingZoo envs, the built-in players and the trainer's observation
statistics. Each xdist worker would otherwise compile the same functions again; run a process
per core side by side (``tests/conftest.py`` does) and the workers load the machine code from
the cache instead.
"""

from __future__ import annotations

import sys

import numpy as np

from stonk_envs.games_index import build_game, game_module
from stonk_envs.policies.players import builtin_player, builtin_player_names
from stonk_envs.vector.engine import BatchEngine

STEPS = 40


def warm_engine(name: str, parallel: bool) -> None:
    engine = BatchEngine(build_game(name), 4, parallel=parallel)
    obs, masks = engine.reset(seed=0)
    players = [builtin_player(name, player, engine.num_players) for player in builtin_player_names(name)]
    rng = np.random.default_rng(0)
    for step in range(STEPS):
        seat = step % engine.num_players
        deciding = masks[:, seat].any(axis=1)  # players act only where the seat has a legal move
        if deciding.any():
            for player in players:
                player.act(obs[deciding, seat], masks[deciding, seat], rng)
        obs, masks, _, _ = engine.step(engine.random_actions())
    engine.state_vectors()


def warm_envs(name: str) -> None:
    module = game_module(name)
    rng = np.random.default_rng(0)
    env = module.parallel_env(render_mode="ansi")
    observations, _ = env.reset(seed=0)
    for _ in range(STEPS):
        if not env.agents:
            break
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in env.agents}
        observations, *_ = env.step(actions)
        env.render()
    aec = module.env()
    aec.reset(seed=0)
    for _ in aec.agent_iter(STEPS):
        observation, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        aec.state()


def warm_statistics() -> None:
    try:
        from stonk_envs.training.ppo.normaliser import RunningStats
    except ImportError:  # no training extra: nothing of it to compile
        return
    stats = RunningStats(3)
    stats.update(np.ones((2, 3), np.float32))


def main(names: list[str]) -> None:
    for name in names:
        warm_engine(name, parallel=False)
        warm_engine(name, parallel=True)
        warm_envs(name)
    warm_statistics()


if __name__ == "__main__":
    main(sys.argv[1:])
