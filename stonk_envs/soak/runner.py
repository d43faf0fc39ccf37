"""Random games on the batched engine and the PettingZoo envs, checked after every step.

Checks, per game and player count:

- **conservation**: the game's own law (the invariants module its spec names, e.g.
  :mod:`stonk_envs.games.stockpile.invariants`) after every step and at every game's end;
- **zero-sum**: the rewards of every step sum to zero over the seats;
- **observation bounds**: every observation lies within the game's bounds (the env's
  ``observation_space``), every mask is 0/1, and every seat that must act has a legal action;
- **termination**: every game ends, within the most steps its rules allow;
- **errors**: any exception raised while playing.

Memory (RSS growth over the whole soak) is measured by the caller.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from stonk_envs import registry, vector
from stonk_envs.games_index import game_module

ZERO_SUM_TOLERANCE = 1e-4
BOUND_TOLERANCE = 1e-4
CHECKS_KINDS = ("conservation", "zero_sum", "bounds", "termination", "errors")


@dataclass
class SoakResult:
    """What one soak of one game at one player count saw."""

    game: str
    num_players: int
    backend: str
    games: int = 0
    steps: int = 0
    failures: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS_KINDS, 0))
    examples: list[str] = field(default_factory=list)

    def fail(self, kind: str, count: int, example: str) -> None:
        self.failures[kind] += int(count)
        if len(self.examples) < 5:
            self.examples.append(f"{self.game} {self.num_players}p {self.backend}: {kind}: {example}")

    def merged(self, other: SoakResult) -> SoakResult:
        """This soak and ``other`` (the same game, player count and backend) as one."""
        out = SoakResult(self.game, self.num_players, self.backend, self.games + other.games,
                         self.steps + other.steps, {k: v + other.failures[k] for k, v in self.failures.items()},
                         (self.examples + other.examples)[:5])
        return out

    @property
    def failed(self) -> int:
        return sum(self.failures.values())


def _ignore(done: int) -> None:
    """The default progress callback: nothing."""


def invariants(game: str) -> ModuleType:
    """What ``game`` conserves: the module its spec names, with ``broken(states, config)`` and ``max_steps(config)``."""
    return registry.load(registry.spec(game).invariants)


def max_steps(game: str, config) -> int:
    """The most steps a game may last under its rules."""
    return invariants(game).max_steps(config)


def player_counts(game: str) -> range:
    """Every player count the game allows."""
    config_module = importlib.import_module(game_module(game).CONFIG.__module__)
    return range(config_module.MIN_PLAYERS, config_module.MAX_PLAYERS + 1)


def soak_engine(
    game: str, num_players: int, games: int, seed: int, batch: int = 256, progress: Callable[[int], None] = _ignore
) -> SoakResult:
    """Play at least ``games`` random games of ``game`` on one batched engine of ``batch`` games."""
    result = SoakResult(game, num_players, "engine")
    batch = max(1, min(batch, games))
    engine = vector.make(game, batch, num_players=num_players)
    config = engine.config
    check = invariants(game).broken
    cap = max_steps(game, config)
    low, high = (np.asarray(b, np.float32) for b in engine.game.observation_bounds)
    length = np.zeros(batch, np.int64)
    try:
        obs, masks = engine.reset(seed=seed)
        while result.games < games:
            _check_observations(result, obs, masks, engine.actors, low, high)
            obs, masks, rewards, terminated = engine.step(engine.random_actions())
            result.steps += int(engine.actors.sum())
            length += 1
            sums = np.abs(rewards.sum(axis=1))
            if (sums > ZERO_SUM_TOLERANCE).any():
                result.fail("zero_sum", (sums > ZERO_SUM_TOLERANCE).sum(), f"reward sum {sums.max():.3g}")
            bad = check(engine.states, config)
            ended = np.flatnonzero(terminated)
            if len(ended):
                final = engine.final_states[ended]
                bad_final = check(final, config) | ~final["game_over"]
                if bad_final.any():
                    result.fail("conservation", bad_final.sum(), f"a finished game, slot {ended[bad_final][0]}")
                _check_observations(result, engine.final_obs[ended], None, None, low, high)
                done = min(len(ended), games - result.games)
                result.games += done
                progress(done)
            if bad.any():
                result.fail("conservation", bad.sum(), f"slot {np.flatnonzero(bad)[0]} mid-game")
            over = length > cap
            if over.any():
                result.fail("termination", over.sum(), f"a game ran past {cap} steps")
                length[over] = 0
            length[ended] = 0
    except Exception as err:  # a soak reports every error instead of stopping at the first
        result.fail("errors", 1, f"{type(err).__name__}: {err}")
    return result


def _check_observations(result: SoakResult, obs, masks, actors, low, high) -> None:
    outside = (obs < low - BOUND_TOLERANCE) | (obs > high + BOUND_TOLERANCE) | ~np.isfinite(obs)
    if outside.any():
        where = np.argwhere(outside)[0]
        result.fail("bounds", outside.any(axis=-1).sum(), f"observation entry {where[-1]} = {obs[tuple(where)]}")
    if masks is not None:
        stuck = actors & (masks.sum(axis=-1) == 0)
        if stuck.any() or ((masks != 0) & (masks != 1)).any():
            result.fail("bounds", stuck.sum(), "a seat that must act has no legal action (or a mask is not 0/1)")


def soak_env(
    game: str, num_players: int, games: int, seed: int, progress: Callable[[int], None] = _ignore
) -> SoakResult:
    """Play ``games`` random games of ``game``, alternating the Parallel and the AEC env."""
    result = SoakResult(game, num_players, "env")
    module = game_module(game)
    rng = np.random.default_rng(seed)
    for k in range(games):
        try:
            if k % 2 == 0:
                _parallel_game(result, module.parallel_env(num_players=num_players), seed + k, rng)
            else:
                _aec_game(result, module.raw_env(num_players=num_players), seed + k, rng)
        except Exception as err:  # a soak reports every error instead of stopping at the first
            result.fail("errors", 1, f"{type(err).__name__}: {err}")
        result.games += 1
        progress(1)
    return result


def _pick(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def _check_table(result: SoakResult, env, game: str) -> None:
    table = env.unwrapped.table
    if invariants(game).broken(table.states, table.game.config).any():
        result.fail("conservation", 1, "mid-game")


def _parallel_game(result: SoakResult, env, seed: int, rng: np.random.Generator) -> None:
    game = env.table.game.name
    space = env.observation_space(env.possible_agents[0])
    cap = max_steps(game, env.table.game.config)
    observations, _ = env.reset(seed=seed)
    total = 0.0
    for _ in range(cap):
        if any(not space.contains(o) for o in observations.values()):
            result.fail("bounds", 1, "an observation outside observation_space")
        actions = {a: _pick(o, rng) for a, o in observations.items() if o["action_mask"].any()}
        observations, rewards, terminations, _, _ = env.step(actions)
        result.steps += len(actions)
        step_sum = sum(rewards.values())
        total += step_sum
        if abs(step_sum) > ZERO_SUM_TOLERANCE:
            result.fail("zero_sum", 1, f"reward sum {step_sum:.3g}")
        _check_table(result, env, game)
        if all(terminations.values()):
            return
    result.fail("termination", 1, f"a game ran past {cap} steps")


def _aec_game(result: SoakResult, env, seed: int, rng: np.random.Generator) -> None:
    game = env.table.game.name
    space = env.observation_space(env.possible_agents[0])
    cap = max_steps(game, env.table.game.config) * env.table.game.num_players + env.table.game.num_players
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for k, agent in enumerate(env.agent_iter()):
        if k > cap:
            result.fail("termination", 1, f"a game ran past {cap} agent steps")
            return
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if not space.contains(obs):
            result.fail("bounds", 1, "an observation outside observation_space")
        env.step(None if terminated or truncated else _pick(obs, rng))
        result.steps += 1
        _check_table(result, env, game)
    if abs(sum(rewards.values())) > ZERO_SUM_TOLERANCE:
        result.fail("zero_sum", 1, f"rewards over the game sum to {sum(rewards.values()):.3g}")


def rss_bytes() -> int:
    """The process's resident memory now."""
    try:
        with open(f"/proc/{os.getpid()}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
