"""Differential test: seeded games in the PettingZoo env and in the batched engine agree exactly.

Slot i of an engine reset with seed s plays the games of a Parallel env reset with seed s + i
(then plain ``reset()`` after each game). Both get the same random legal actions; every
observation, mask, reward and end must be identical, across auto-resets.
"""

import numpy as np
import pytest

from stonk_envs import stocks_and_bombs_v0, vector

CASES = [
    pytest.param({"num_players": 4}, 300, 1, id="defaults"),
    pytest.param({"num_players": 5, "tick_cap": 6, "round_cap": 3, "points_to_win": 4, "reward_mode": "round_diff"},
                 120, 30, id="short-games-round-diff"),
    pytest.param({"num_players": 6, "tick_cap": 4, "round_cap": 2, "reward_mode": "score_diff"}, 60, 30,
                 id="six-players-score-diff"),
]


@pytest.mark.parametrize(("config", "steps", "min_games"), CASES)
def test_engine_replays_the_pettingzoo_env(config, steps, min_games):
    num_envs, seed = 6, 11
    engine = vector.make("stocks_and_bombs", num_envs, **config)
    envs = [stocks_and_bombs_v0.parallel_env(**config) for _ in range(num_envs)]
    obs, masks = engine.reset(seed=seed)
    env_obs = [env.reset(seed=seed + i)[0] for i, env in enumerate(envs)]
    rng = np.random.default_rng(0)
    agents = envs[0].possible_agents
    games_ended = 0
    for _ in range(steps):
        for i in range(num_envs):
            for p, agent in enumerate(agents):
                np.testing.assert_array_equal(obs[i, p], env_obs[i][agent]["observation"])
                np.testing.assert_array_equal(masks[i, p], env_obs[i][agent]["action_mask"])
        weights = rng.random(masks.shape) * masks
        actions = weights.argmax(axis=2)
        obs, masks, rewards, terminated = engine.step(actions)
        for i, env in enumerate(envs):
            step_obs, step_rewards, terms, _, _ = env.step({a: int(actions[i, p]) for p, a in enumerate(agents)})
            np.testing.assert_array_equal(rewards[i], [step_rewards[a] for a in agents])
            assert terminated[i] == terms[agents[0]]
            for p, agent in enumerate(agents):
                np.testing.assert_array_equal(engine.final_obs[i, p] if terminated[i] else obs[i, p],
                                              step_obs[agent]["observation"])
            if terminated[i]:
                games_ended += 1
                env_obs[i] = env.reset()[0]
            else:
                env_obs[i] = step_obs
    assert games_ended >= min_games
