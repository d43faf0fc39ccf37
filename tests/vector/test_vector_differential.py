"""Differential test: seeded games in the PettingZoo env and in the batched engine agree exactly.

Slot i of an engine reset with seed s plays the games of a Parallel env reset with seed s + i
(then plain ``reset()`` after each game). Both get the same random legal actions; every
observation, acting seat's mask, reward and end must be identical, across auto-resets (a
seat that does not act has an all-zero mask in the engine and the single no-op in the env).
"""

import numpy as np
import pytest

from stonk_envs import vector
from stonk_envs.games_index import game_module

CASES = [
    pytest.param("stocks_and_bombs", {"num_players": 4}, 300, 1, id="sb-defaults"),
    pytest.param("stocks_and_bombs", {"num_players": 5, "tick_cap": 6, "round_cap": 3, "points_to_win": 4,
                                      "reward_mode": "round_diff"}, 120, 30, id="sb-short-round-diff"),
    pytest.param("stocks_and_bombs", {"num_players": 6, "tick_cap": 4, "round_cap": 2, "reward_mode": "score_diff"},
                 60, 30, id="sb-six-players-score-diff"),
    pytest.param("stonk_market", {"num_players": 4}, 200, 6, id="sm-defaults"),
    pytest.param("stonk_market", {"num_players": 6, "tick_cap": 5, "num_rounds": 2, "reward_mode": "round_diff"},
                 60, 30, id="sm-short-round-diff"),
    pytest.param("stockpile", {"num_players": 4}, 250, 1, id="sp-defaults"),
    pytest.param("stockpile", {"num_players": 3, "rounds": 1, "reward_mode": "score_diff"}, 150, 12,
                 id="sp-one-round-score-diff"),
]


@pytest.mark.parametrize("observe", ["all", "actors"])
@pytest.mark.parametrize(("game", "config", "steps", "min_games"), CASES)
def test_engine_replays_the_pettingzoo_env(game, config, steps, min_games, observe):
    num_envs, seed = 6, 11
    engine = vector.make(game, num_envs, observe=observe, **config)
    envs = [game_module(game).parallel_env(**config) for _ in range(num_envs)]
    obs, masks = engine.reset(seed=seed)
    env_obs = [env.reset(seed=seed + i)[0] for i, env in enumerate(envs)]
    rng = np.random.default_rng(0)
    agents = envs[0].possible_agents
    games_ended = 0
    for _ in range(steps):
        for i in range(num_envs):
            for p, agent in enumerate(agents):
                expected = env_obs[i][agent]["observation"]
                if observe == "actors" and not engine.actors[i, p]:
                    expected = np.zeros_like(expected)
                np.testing.assert_array_equal(obs[i, p], expected)
                env_mask = env_obs[i][agent]["action_mask"]
                if engine.actors[i, p]:
                    np.testing.assert_array_equal(masks[i, p], env_mask)
                else:  # the engine's mask is exact; the Parallel env offers a waiting seat its no-op
                    assert not masks[i, p].any()
                    assert np.flatnonzero(env_mask).tolist() == [envs[i].table.game.pass_action]
        actions = (rng.random(masks.shape) * masks).argmax(axis=2)
        obs, masks, rewards, terminated = engine.step(actions)
        for i, env in enumerate(envs):
            step_obs, step_rewards, terms, _, _ = env.step({a: int(actions[i, p]) for p, a in enumerate(agents)})
            np.testing.assert_array_equal(rewards[i], [step_rewards[a] for a in agents])
            assert terminated[i] == terms[agents[0]]
            if terminated[i]:
                games_ended += 1
                for p, agent in enumerate(agents):
                    np.testing.assert_array_equal(engine.final_obs[i, p], step_obs[agent]["observation"])
                env_obs[i] = env.reset()[0]
            else:
                env_obs[i] = step_obs
    assert games_ended >= min_games
