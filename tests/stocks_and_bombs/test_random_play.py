"""Random legal play of full games: termination, conservation, zero-sum rewards, spaces."""

import hashlib
import subprocess
import sys

import numpy as np
import pytest

from stonk_envs import stocks_and_bombs_v1

GAMES_PER_COUNT = {4: 200, 5: 150, 6: 150}  # 500 full games in all


def play_random_game(env, rng, check):
    observations, _ = env.reset(seed=int(rng.integers(2**31)))
    n = len(env.possible_agents)
    ticks = 0
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal))
        observations, rewards, _terms, truncs, _ = env.step(actions)
        ticks += 1
        check(env, n, observations, rewards)
        assert not any(truncs.values())
    return ticks


def check_invariants(env, n, observations, rewards):
    holders = env.state()[: 3 * n].astype(int)
    assert np.bincount(holders, minlength=n).tolist() == [3] * n
    assert abs(sum(rewards.values())) < 1e-6
    space = env.observation_space("player_0")
    for obs in observations.values():
        assert space.contains(obs)


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(GAMES_PER_COUNT))
def test_random_games_end_conserve_pieces_and_are_zero_sum(n):
    env = stocks_and_bombs_v1.parallel_env(num_players=n)
    rng = np.random.default_rng(n)
    cap = env.table.game.config.round_cap * env.table.game.config.tick_cap
    for _ in range(GAMES_PER_COUNT[n]):
        ticks = play_random_game(env, rng, check_invariants)
        assert 1 <= ticks <= cap


def test_every_agent_is_observed_at_every_step():
    env = stocks_and_bombs_v1.raw_env(num_players=5)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    space = env.observation_space("player_0")
    tick_views = None
    for agent in env.agent_iter(max_iter=3000):
        _, _, terminated, truncated, _ = env.last()
        views = {a: env.observe(a) for a in env.agents}
        seat = env.possible_agents.index(agent)
        n = 5
        for a, view in views.items():
            assert space.contains(view)
            p = env.possible_agents.index(a)
            target = int(env.state()[3 * n + 6 * p])
            own_target = view["observation"][3 * n * n : 3 * n * n + n]
            assert own_target[(target - p) % n] == 1.0 and own_target.sum() == 1.0
        if terminated or truncated:
            env.step(None)
            continue
        if seat == 0:
            tick_views = {a: v["observation"].copy() for a, v in views.items()}
        else:  # nothing resolves until the last seat of the tick has acted
            assert all(np.array_equal(tick_views[a], views[a]["observation"]) for a in views)
        env.step(int(rng.choice(np.flatnonzero(views[agent]["action_mask"]))))
    assert not env.agents


def test_an_observation_does_not_see_other_seats_targets():
    env = stocks_and_bombs_v1.parallel_env(num_players=4)
    env.reset(seed=3)
    states = env.table.states
    states["target"][0, :4] = [0, 1, 2, 3]
    before = {a: env.table.observe(p)["observation"] for p, a in enumerate(env.possible_agents)}
    states["target"][0, :4] = [0, 2, 1, 3]  # only players 1 and 2 changed
    after = {a: env.table.observe(p)["observation"] for p, a in enumerate(env.possible_agents)}
    assert np.array_equal(before["player_0"], after["player_0"])
    assert np.array_equal(before["player_3"], after["player_3"])
    assert not np.array_equal(before["player_1"], after["player_1"])


REPLAY_SCRIPT = """
import hashlib, numpy as np
from stonk_envs import stocks_and_bombs_v1
env = stocks_and_bombs_v1.parallel_env(num_players={n})
digest = hashlib.sha256()
for seed in range(20):
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents:
        actions = {{a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}}
        obs, rewards, *_ = env.step(actions)
        digest.update(env.state().tobytes())
        digest.update(np.array(list(rewards.values())).tobytes())
print(digest.hexdigest())
"""


@pytest.mark.slow
def test_seeded_games_replay_identically_in_two_processes():
    script = REPLAY_SCRIPT.format(n=5)
    command = [sys.executable, "-c", script]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert len(runs[0].stdout.strip()) == len(hashlib.sha256().hexdigest())
