"""The RLlib MultiAgentEnv, league mapping and module adapters, without starting Ray."""

import types

import numpy as np
import pytest
import torch
from ray.rllib.core.columns import Columns

from stonk_envs.evaluation import evaluate
from stonk_envs.integrations.rllib_env import MASK_KEY, OBS_KEY, StonkMultiAgentEnv
from stonk_envs.integrations.rllib_league import LEARNER, LeagueMapping
from stonk_envs.integrations.rllib_modules import masked_module_spec, player_module_spec, save_rllib_policy
from stonk_envs.policies import make_player
from stonk_envs.policies.checkpoint import load_policy
from stonk_envs.policies.rllib_policy import RLlibPolicy
from stonk_envs.safe_load import TRUST_ENV, UntrustedFileError

SHORT = {
    "stockpile": {"num_players": 3, "rounds": 1},
    "stonk_market": {"num_players": 4, "num_rounds": 1, "tick_cap": 8},
    "stocks_and_bombs": {"num_players": 4, "round_cap": 2, "tick_cap": 8},
}


def play(env, rng, seed=0):
    """One game with random legal actions.

    Returns each step's (obs, rewards, terminateds, truncateds, the Parallel env's acting agents after it).
    """
    obs, _ = env.reset(seed=seed)
    steps = [(obs, {}, {"__all__": False}, {"__all__": False}, env.parallel.acting_agents)]
    while not (steps[-1][2]["__all__"] or steps[-1][3]["__all__"]):
        actions = {a: int(rng.choice(np.flatnonzero(o[MASK_KEY]))) for a, o in steps[-1][0].items()}
        steps.append((*env.step(actions)[:4], env.parallel.acting_agents))
    return steps


@pytest.mark.parametrize("game", sorted(SHORT))
def test_observations_only_for_the_seats_that_act_and_every_mask_non_empty(game):
    env = StonkMultiAgentEnv({"game": game, **SHORT[game]})
    steps = play(env, np.random.default_rng(1))
    n = SHORT[game]["num_players"]
    for obs, rewards, _, _, acting in steps[:-1]:
        assert len(obs) == (1 if game == "stockpile" else n)
        assert list(obs) == acting
        for agent, o in obs.items():
            assert env.observation_spaces[agent].contains(o)
            assert o[MASK_KEY].sum() >= 1
        assert set(rewards) in (set(), set(env.possible_agents))
    final_obs, final_rewards, terminateds, truncateds, _ = steps[-1]
    assert set(final_obs) == set(env.possible_agents)  # every seat sees the end
    assert terminateds == {**dict.fromkeys(env.possible_agents, True), "__all__": True}
    assert not truncateds["__all__"]
    assert sum(final_rewards.values()) == pytest.approx(0.0, abs=1e-6)  # zero-sum win/loss at the end


def test_max_cycles_truncates_every_agent():
    env = StonkMultiAgentEnv({"game": "stockpile", "num_players": 3, "max_cycles": 5})
    steps = play(env, np.random.default_rng(0))
    assert len(steps) == 6
    assert steps[-1][3] == {**dict.fromkeys(env.possible_agents, True), "__all__": True}
    assert not steps[-1][2]["__all__"]


def test_a_missing_action_of_an_acting_seat_is_named():
    env = StonkMultiAgentEnv({"game": "stocks_and_bombs", "num_players": 4})
    obs, _ = env.reset(seed=0)
    with pytest.raises(ValueError, match=r"no action for \['player_3'\]"):
        env.step({a: 0 for a in list(obs)[:3]})


def test_the_league_mapping_gives_each_game_one_learner_seat_and_draws_members():
    mapping = LeagueMapping([f"player_{p}" for p in range(4)],
                            {"current": 0.0, "heuristic": 1.0, "random": 1.0, "past": 2.0})
    seen = set()
    for k in range(200):
        episode = types.SimpleNamespace(id_=f"game{k}")
        modules = [mapping(f"player_{p}", episode) for p in range(4)]
        assert modules == [mapping(f"player_{p}", episode) for p in range(4)]  # fixed for the game
        assert modules.count(LEARNER) == 1
        seen.update(modules)
    assert seen == {LEARNER, "heuristic", "random"}  # snapshots' weight goes to random until one exists
    mapping.snapshots.append(1)
    seen = {mapping(f"player_{p}", types.SimpleNamespace(id_=f"g{k}")) for k in range(100) for p in range(4)}
    assert seen == {LEARNER, "heuristic", "random", "main_v1"}


def test_a_player_module_plays_legal_actions():
    env = StonkMultiAgentEnv({"game": "stockpile", "num_players": 3})
    space = env.observation_spaces["player_0"]
    spec = player_module_spec("heuristic", "stockpile", 3)
    spec.observation_space, spec.action_space = space, env.action_spaces["player_0"]
    module = spec.build()
    obs, _ = env.reset(seed=4)
    for _ in range(20):
        ((agent, o),) = obs.items()
        batch = {Columns.OBS: {key: torch.as_tensor(o[key][None]) for key in (OBS_KEY, MASK_KEY)}}
        action = int(module.forward_inference(batch)[Columns.ACTIONS][0])
        assert o[MASK_KEY][action] == 1
        obs = env.step({agent: action})[0]


def test_a_saved_learner_is_a_policy_for_evaluate(tmp_path, monkeypatch):
    env = StonkMultiAgentEnv({"game": "stocks_and_bombs", **SHORT["stocks_and_bombs"]})
    spec = masked_module_spec([16])
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    module = spec.build()
    config = {"round_cap": 2, "tick_cap": 8}
    path = save_rllib_policy(module, tmp_path / "policy", "stocks_and_bombs", 4, config)
    with pytest.raises(UntrustedFileError, match="--trust-file"):  # an RLlib checkpoint is read by unpickling
        make_player(str(path), "stocks_and_bombs", 4)
    monkeypatch.setenv(TRUST_ENV, "1")  # what --trust-file sets, so evaluate's workers trust it too
    policy = make_player(str(path), "stocks_and_bombs", 4)
    assert isinstance(policy, RLlibPolicy) and policy.name == "policy"
    obs, _ = env.reset(seed=0)
    observations = np.stack([o[OBS_KEY] for o in obs.values()])
    masks = np.stack([o[MASK_KEY] for o in obs.values()]).astype(np.int8)
    actions = policy.act(observations, masks, np.random.default_rng(0))
    assert masks[np.arange(4), actions].all()
    report = evaluate("stocks_and_bombs", [str(path), "random", "random", "random"], num_games=8, seed=0,
                      env_config=config)
    assert [p.games for p in report.players] == [8, 8, 8, 8] and report.players[0].name == str(path)
    with pytest.raises(ValueError, match="not for 'stockpile'"):
        load_policy(path, game="stockpile")
