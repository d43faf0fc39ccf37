"""The sb3 trainer's self-play view: its games replayed in the PettingZoo env, seat rotation, batched league
members, scores and wins, and its saved state."""

import pickle

import numpy as np
import pytest

from stonk_envs.games_index import game_module
from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import KIND_HOLDERS, RANDOM
from stonk_envs.training.league.opponents import League
from stonk_envs.training.sb3_league_env import LeagueVecEnv

SHORT_GAME = {"tick_cap": 3, "round_cap": 1}
"""A Stocks & Bombs game of one round of three ticks (B7a caps as config values)."""


class Recorder(Policy):
    """Random play that records the size of every batch it is asked for."""

    def __init__(self):
        self.batches: list[int] = []
        self.inner = RandomPolicy()

    def act(self, observations, masks, rng):
        self.batches.append(len(observations))
        return self.inner.act(observations, masks, rng)


class Waiter(Policy):
    """Always WAIT (action 0 of the real-time games)."""

    def act(self, observations, masks, rng):
        return np.zeros(len(observations), dtype=np.int64)


def make_view(game="stocks_and_bombs", num_envs=3, weights=None, env_config=None, seed=0):
    league = League(weights or {"random": 1.0}, max_snapshots=2, heuristic_factory=RandomPolicy)
    return LeagueVecEnv(game, 4, env_config or {}, num_envs, league, seed), league


def test_learner_seat_rotates_with_each_new_game():
    view, league = make_view(num_envs=2, env_config=SHORT_GAME)
    league.players[RANDOM] = Waiter()
    obs = view.reset()
    assert view.learner_seat.tolist() == [0, 1]
    seen = []
    for _ in range(3 * 4):
        obs, _, dones, infos = view.step(np.zeros(2, dtype=np.int64))  # everyone waits: 3 ticks a game
        if dones.all():
            seen.append(view.learner_seat.tolist())
            assert [info["episode"] for info in infos] == [{"r": 0.0, "l": 3}] * 2
        assert [row.index("current") for row in view.members] == view.learner_seat.tolist()
        assert [row.count("random") for row in view.members] == [3, 3]
    assert seen == [[1, 2], [2, 3], [3, 0], [0, 1]]
    for i in range(2):
        np.testing.assert_array_equal(obs[i], view.engine.obs[i, view.learner_seat[i]])
    assert view.steps_played == 2 * 12


def test_ended_games_report_the_learners_score_and_win(monkeypatch):
    view, league = make_view(num_envs=4, env_config=SHORT_GAME)
    league.players[RANDOM] = Waiter()
    # a constructed result: seats 1 and 2 share first place
    monkeypatch.setattr(view.engine.game, "scores", lambda states, i: np.array([3.0, 5.0, 5.0, -1.0]))
    obs = view.reset()
    for _ in range(3):
        obs, _, dones, infos = view.step(np.zeros(4, dtype=np.int64))
    assert dones.all()
    assert [(info["score"], info["win"]) for info in infos] == [(3.0, False), (5.0, True), (5.0, True), (-1.0, False)]
    assert [type(info["score"]) for info in infos] == [float] * 4
    for i, info in enumerate(infos):
        assert info["episode"] == {"r": 0.0, "l": 3}
        # round, tick, ticks left: the last observation of the game, then the next game's first
        assert info["terminal_observation"][160:163].tolist() == [1.0, 3.0, 0.0]  # before the memory
        assert obs[i][160:163].tolist() == [0.0, 0.0, 3.0]


def test_opponents_act_in_one_batch_per_member_per_step():
    view, league = make_view(num_envs=5, weights={"random": 1.0, "heuristic": 1.0})
    recorders = {"random": Recorder(), "heuristic": Recorder()}
    league.players.update({KIND_HOLDERS[key].code: recorder for key, recorder in recorders.items()})
    obs = view.reset()
    held = {key: sum(row.count(key) for row in view.members) for key in recorders}
    assert sum(held.values()) == 5 * 3
    calls_before = view.opponent_calls
    rng = np.random.default_rng(4)
    actions = RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng)
    view.step(actions)
    for key, recorder in recorders.items():
        assert recorder.batches == ([held[key]] if held[key] else [])
    assert view.opponent_calls - calls_before == sum(1 for n in held.values() if n)


def test_state_round_trip_continues_identically():
    mix = {"random": 1.0, "heuristic": 1.0}
    view, _ = make_view(num_envs=2, seed=9, weights=mix, env_config=SHORT_GAME)
    obs = view.reset()
    rng = np.random.default_rng(6)
    for _ in range(5):
        obs, *_ = view.step(RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng))
    saved = pickle.loads(pickle.dumps(view.get_state()))
    other, _ = make_view(num_envs=2, seed=123, weights=mix, env_config=SHORT_GAME)
    other.set_state(saved)
    np.testing.assert_array_equal(other.current_obs(), obs)
    ended = 0
    for _ in range(20):
        actions = RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng)
        a = view.step(actions)
        b = other.step(actions)
        obs = a[0]
        for x, y in zip(a, b, strict=True):
            np.testing.assert_equal(x, y)
        ended += int(a[2].sum())
    assert ended >= 10  # games of at most 3 steps: new games, seats and members on the way
    assert (other.steps_played, other.opponent_calls) == (view.steps_played, view.opponent_calls)
    assert other.members == view.members


def test_set_state_rejects_another_layout():
    view, _ = make_view(num_envs=2)
    view.reset()
    other, _ = make_view(num_envs=3)
    with pytest.raises(ValueError, match="2 stocks_and_bombs games"):
        other.set_state(view.get_state())
    with pytest.raises(ValueError, match="not of one batched engine"):
        other.set_state({key: value for key, value in view.get_state().items() if key != "engine"})


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
    view = LeagueVecEnv(game, 4, env_config, 3, league, seed=4)
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
