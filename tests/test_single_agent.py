"""The single-agent Gymnasium env of each game: SB3's check_env, masks, opponents, illegal actions."""

import gymnasium
import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env

import stonk_envs  # noqa: F401  (registers the ids)
from stonk_envs import registry
from stonk_envs.core.negotiation import VOID_ILLEGAL, VOID_REASONS
from stonk_envs.policies.checkpoint import make_metadata, save_torch
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.single_agent import SingleAgentEnv

SHORT = {
    "stockpile": {"num_players": 3, "rounds": 1},
    "stonk_market": {"num_players": 3, "num_rounds": 1, "tick_cap": 10},
    "stocks_and_bombs": {"num_players": 4, "round_cap": 1, "tick_cap": 10},
}


@pytest.mark.parametrize("game", registry.names())
def test_sb3_check_env_passes_on_the_registered_id(game):
    env = gymnasium.make(registry.spec(game).gym_id, **SHORT[game])
    check_env(env, warn=False)
    check_env(env.unwrapped, warn=False)


@pytest.mark.parametrize("game", registry.names())
def test_masked_play_to_the_end_against_the_heuristic(game):
    env = SingleAgentEnv(game, opponents="heuristic", seat=None, **SHORT[game])
    obs, info = env.reset(seed=3)
    total, steps, terminated, truncated = 0.0, 0, False, False
    while not (terminated or truncated):
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(env.np_random.choice(np.flatnonzero(mask))))
        assert info.get("void") != VOID_REASONS[VOID_ILLEGAL]  # (a tick may void a legal action that lost a race)
        total += reward
        steps += 1
    assert terminated and not truncated and "score" in info
    assert steps > 1 and -1.0 <= total <= 1.0


def test_stockpile_steps_are_the_seats_own_decisions_and_rewards_add_up():
    env = SingleAgentEnv("stockpile", opponents="random", seat=1, **SHORT["stockpile"])
    env.reset(seed=0)
    rewards = []
    while True:
        assert env.agent in env.parallel.acting_agents
        _, reward, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        rewards.append(reward)
        if terminated:
            break
    # win/loss reward at the end, paid once, whoever made the last decision
    assert sum(rewards) == rewards[-1] and rewards[-1] in (-0.5, 0.0, 0.25, 1.0)


def test_an_illegal_action_is_void_or_raises():
    env = SingleAgentEnv("stockpile", **SHORT["stockpile"])
    obs, _ = env.reset(seed=0)
    state = env.parallel.state()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert info["void"] == VOID_REASONS[VOID_ILLEGAL]
    assert (reward, terminated, truncated) == (0.0, False, False)
    np.testing.assert_array_equal(env.parallel.state(), state)  # a turn-based game does not move
    np.testing.assert_array_equal(obs2, obs)
    strict = SingleAgentEnv("stockpile", illegal_action="raise", **SHORT["stockpile"])
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="is illegal"):
        strict.step(illegal)


def test_a_policy_file_plays_the_other_seats(tmp_path):
    observation_size, num_actions = game_sizes("stonk_market", 3)
    metadata = make_metadata("stonk_market", 3, observation_size, num_actions, {}, kind="torch")
    path = save_torch(MaskedMLP(observation_size, num_actions, (8,)), tmp_path / "p.pt", metadata)
    env = SingleAgentEnv("stonk_market", opponents=[str(path), "random"], num_players=3, num_rounds=1, tick_cap=5)
    assert [p.name for p in env.opponents] == ["p", "random"]
    env.reset(seed=0)
    env.step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 4}, r"seat must be None or an integer in 0\.\.3"),
        ({"opponents": ["random", "random"]}, "opponents must be one player or 3"),
        ({"opponents": "nobody"}, "unknown player 'nobody'"),
        ({"illegal_action": "skip"}, "illegal_action must be one of"),
        ({"game": "chess"}, "unknown game 'chess'"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**{"game": "stocks_and_bombs", **kwargs})
