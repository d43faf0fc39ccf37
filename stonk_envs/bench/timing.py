"""Timing loops: random legal actions, observations and masks built, the same for every env.

Each loop runs until ``seconds`` have passed (after a short warm-up that also triggers any
compilation) and returns agent-steps per second. An agent-step is one seat's action: one
``step`` call of an AEC env, one acting seat of a Parallel step or of an engine step.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from stonk_envs.vector.engine import BatchEngine

WARMUP_SECONDS = 0.2
CHECK_EVERY = 64
"""Steps between clock reads."""


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _timed(run: Callable[[float], int], seconds: float) -> float:
    """Agent-steps per second of ``run(deadline) -> steps``, after a warm-up."""
    run(time.perf_counter() + min(WARMUP_SECONDS, seconds))
    start = time.perf_counter()
    steps = run(start + seconds)
    return steps / (time.perf_counter() - start)


def aec_steps_per_second(env, seconds: float, seed: int = 0) -> float:
    """An AEC env played by ``agent_iter``/``last``/``step`` with random legal actions."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run(deadline: float) -> int:
        steps = 0
        while True:
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else _random_legal(obs["action_mask"], rng))
                steps += 1
                if steps % CHECK_EVERY == 0 and time.perf_counter() > deadline:
                    return steps
            env.reset()

    return _timed(run, seconds)


def parallel_steps_per_second(env, seconds: float, seed: int = 0) -> float:
    """A Parallel env with random legal actions for every seat that may act."""
    rng = np.random.default_rng(seed)
    observations = env.reset(seed=seed)[0]

    def run(deadline: float) -> int:
        nonlocal observations
        steps = 0
        while True:
            actions = {}
            for agent, obs in observations.items():
                mask = obs["action_mask"]
                if mask.any():
                    actions[agent] = _random_legal(mask, rng)
            observations = env.step(actions)[0]
            steps += len(actions)
            if not env.agents:
                observations = env.reset()[0]
            if steps >= CHECK_EVERY and time.perf_counter() > deadline:
                return steps

    return _timed(run, seconds)


def engine_steps_per_second(engine: BatchEngine, seconds: float, seed: int = 0) -> float:
    """A batched engine stepped with its own random legal actions (:meth:`BatchEngine.random_actions`)."""
    engine.reset(seed=seed)

    def run(deadline: float) -> int:
        steps = 0
        while True:
            for _ in range(8):
                steps += int(np.count_nonzero(engine.actors))
                engine.step(engine.random_actions())
            if time.perf_counter() > deadline:
                return steps

    return _timed(run, seconds)
