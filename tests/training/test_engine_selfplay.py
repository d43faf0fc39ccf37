"""The engine backend's view against the PettingZoo env: its games replayed move by move agree."""

import numpy as np
import pytest

from stonk_envs.games_index import game_module
from stonk_envs.policies.base import RandomPolicy
from stonk_envs.training.engine_selfplay import EngineSelfPlayVecEnv
from stonk_envs.training.league.opponents import League


class EngineLog:
    """Records the engine's seed and every joint action and ``active`` mask it is stepped with."""

    def __init__(self, engine):
        self.seed, self.steps = None, []
        self._reset, self._step = engine.reset, engine.step
        engine.reset, engine.step = self.reset, self.step

    def reset(self, seed=None):
        self.seed = seed
        return self._reset(seed)

    def step(self, actions, active=None):
        self.steps.append((actions.copy(), None if active is None else active.copy()))
        return self._step(actions, active)


def replay(game, env_config, seed, steps, i):
    """Slot ``i``'s games in the PettingZoo env: per game, each step's joint action, rewards, infos and observations."""
    env = game_module(game).parallel_env(num_players=4, **env_config)
    env.reset(seed=seed + i)
    games, current = [], []
    for joint, active in steps:
        if active is not None and not active[i]:
            continue
        actions = {f"player_{p}": int(a) for p, a in enumerate(joint[i]) if a >= 0}
        observations, rewards, terminations, _, infos = env.step(actions)
        current.append((actions, rewards, infos, observations))
        if all(terminations.values()):
            games.append(current)
            current = []
            env.reset()
    return games


@pytest.mark.parametrize(
    ("game", "env_config"),
    [
        ("stockpile", {"rounds": 1}),
        ("stocks_and_bombs", {"tick_cap": 5, "round_cap": 1}),
        ("stonk_market", {"tick_cap": 4, "num_rounds": 2, "reward_mode": "round_diff"}),
    ],
)
def test_episodes_match_the_pettingzoo_replay_of_their_games(game, env_config):
    league = League({"random": 1.0, "heuristic": 1.0}, max_snapshots=2, heuristic_factory=RandomPolicy)
    view = EngineSelfPlayVecEnv(game, 4, env_config, 3, league, seed=4)
    log = EngineLog(view.engine)
    obs = view.reset()
    rng = np.random.default_rng(0)
    episodes = {i: [] for i in range(3)}
    for _ in range(40):
        obs, _, dones, infos = view.step(RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng))
        for i in np.flatnonzero(dones):
            episodes[i].append(infos[i])
    assert view.steps_played == sum(3 if active is None else int(active.sum()) for _, active in log.steps)
    for i in range(3):
        games = replay(game, env_config, log.seed, log.steps, i)
        assert len(episodes[i]) == len(games) >= 2
        for g, (info, steps) in enumerate(zip(episodes[i], games, strict=True)):
            learner = f"player_{(i + g) % 4}"  # one seat on at every new game
            decisions = [k for k, step in enumerate(steps) if learner in step[0]]
            assert info["episode"]["l"] == len(decisions)
            counted = steps[decisions[0]:]  # from the learner's first decision to the end
            assert info["episode"]["r"] == pytest.approx(sum(step[1][learner] for step in counted), abs=1e-9)
            last_infos, last_observations = steps[-1][2], steps[-1][3]
            np.testing.assert_array_equal(info["terminal_observation"], last_observations[learner]["observation"])
            scores = [last_infos[f"player_{p}"]["score"] for p in range(4)]
            assert info["score"] == last_infos[learner]["score"]
            assert info["win"] == (info["score"] >= max(scores))
