"""Playing many games at once: one policy call per step for all the seats a player holds.

A batch of G games runs in lockstep through the game's compiled core. In each step every
live game reports its acting seats, their observations and masks are gathered, and each
distinct player is asked once for the actions of all its seats across the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.policies.base import Policy


@dataclass(frozen=True)
class BatchResult:
    """Final scores and summed rewards of a batch of games, per game and seat."""

    scores: np.ndarray
    rewards: np.ndarray
    actions: list[np.ndarray] | None = None
    """With ``keep_actions``: per game, its joint actions, shape (steps, seats), -1 where unused."""


def play_batch(
    game: Game,
    players: Sequence[Policy],
    seatings: np.ndarray,
    seeds: Sequence[int],
    rng: np.random.Generator,
    on_game_over: Callable[[], None] | None = None,
    keep_actions: bool = False,
) -> BatchResult:
    """Play ``len(seeds)`` games to the end; ``seatings[g, s]`` is the index of seat s's player.

    With ``keep_actions``, the result holds every game's joint actions (for game records).
    """
    seatings = np.asarray(seatings, dtype=np.int64)
    num_games, n = len(seeds), game.num_players
    if seatings.shape != (num_games, n):
        raise ValueError(f"seatings must have shape ({num_games}, {n}), got {seatings.shape}")
    if seatings.min(initial=0) < 0 or seatings.max(initial=0) >= len(players):
        raise ValueError(f"seatings must name players 0..{len(players) - 1}")
    distinct = list({id(p): p for p in players}.values())
    policy_of_seat = np.array([[distinct.index(players[e]) for e in row] for row in seatings], dtype=np.int64)

    states = np.zeros(num_games, dtype=game.state_dtype)
    for i, seed in enumerate(seeds):
        game.reset(states, i, int(seed))
    obs_size = game.observation_bounds[0].shape[0]
    observations = np.zeros((num_games, n, obs_size), dtype=np.float32)
    masks = np.zeros((num_games, n, game.num_actions), dtype=np.int8)
    acting = np.zeros((num_games, n), dtype=np.bool_)
    joint = np.full((num_games, n), NO_ACTION, dtype=np.int64)
    step_rewards = np.zeros(n, dtype=np.float32)
    voids = np.zeros(n, dtype=np.int8)
    scores = np.zeros((num_games, n))
    rewards = np.zeros((num_games, n))
    live = list(range(num_games))
    steps: list[list[np.ndarray]] = [[] for _ in range(num_games)]

    while live:
        acting[:] = False
        for i in live:
            game.actors(states, i, acting[i])
            for seat in np.flatnonzero(acting[i]):
                game.observe(states, i, seat, observations[i, seat])
                game.legal_mask(states, i, seat, masks[i, seat])
        joint[:] = NO_ACTION
        for k, policy in enumerate(distinct):
            chosen = acting & (policy_of_seat == k)
            if chosen.any():
                joint[chosen] = _legal_actions(policy, observations[chosen], masks[chosen], rng)
        still_live = []
        for i in live:
            if keep_actions:
                steps[i].append(joint[i].astype(np.int16))
            over = game.step(states, i, joint[i], step_rewards, voids)
            rewards[i] += step_rewards
            if over:
                scores[i] = game.scores(states, i)
                if on_game_over is not None:
                    on_game_over()
            else:
                still_live.append(i)
        live = still_live
    actions = [np.array(s, dtype=np.int16).reshape(-1, n) for s in steps] if keep_actions else None
    return BatchResult(scores=scores, rewards=rewards, actions=actions)


def _legal_actions(policy: Policy, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator):
    actions = np.asarray(policy.act(observations, masks, rng), dtype=np.int64)
    if actions.shape != (len(masks),):
        raise ValueError(f"player {policy.name!r} returned actions of shape {actions.shape}, expected ({len(masks)},)")
    inside = (actions >= 0) & (actions < masks.shape[1])
    legal = inside & (masks[np.arange(len(masks)), np.where(inside, actions, 0)] > 0)
    if not legal.all():
        bad = int(actions[np.flatnonzero(~legal)[0]])
        raise ValueError(f"player {policy.name!r} chose illegal action {bad}")
    return actions
