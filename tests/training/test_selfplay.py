"""The self-play view: transitions, reward bookkeeping, seat rotation and batched opponents.

Tests that take ``backend`` run on both backends; the others look inside the PettingZoo
backend's Parallel envs (``test_engine_selfplay.py`` replays the engine backend's games).
"""

import pickle

import numpy as np
import pytest

from stonk_envs.games_index import game_module
from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.training.league.opponents import League
from stonk_envs.training.sb3_run import BACKENDS

BACKEND_NAMES = sorted(BACKENDS)

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


def make_view(game="stocks_and_bombs", num_envs=3, weights=None, env_config=None, seed=0, backend="pettingzoo"):
    league = League(weights or {"random": 1.0}, max_snapshots=2, heuristic_factory=RandomPolicy)
    return BACKENDS[backend](game, 4, env_config or {}, num_envs, league, seed), league


def seat_obs(view, i, seat):
    """What seat ``seat`` of game ``i`` observes now, read from the backend's own game."""
    if hasattr(view, "envs"):
        return view.envs[i].table.observe(seat)["observation"]
    return view.engine.obs[i, seat]


class StepSpy:
    """Wraps a Parallel env's reset and step to record seeds, joint actions and rewards."""

    def __init__(self, env):
        self.env, self.log = env, []
        self._reset, self._step = env.reset, env.step
        env.reset, env.step = self.reset, self.step

    def reset(self, seed=None, options=None):
        self.log.append(("reset", seed))
        return self._reset(seed=seed)

    def step(self, actions):
        result = self._step(actions)
        self.log.append(("step", dict(actions), result[1]))
        return result


def test_real_time_game_one_tick_per_learner_step():
    view, _ = make_view(num_envs=3)
    obs = view.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        before = view.steps_played
        ticks = [int(env.table.states[0]["tick"]) for env in view.envs]
        rounds = [int(env.table.states[0]["round"]) for env in view.envs]
        actions = RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng)
        obs, _, dones, _ = view.step(actions)
        assert view.steps_played - before == 3  # one Parallel step per game
        for i, env in enumerate(view.envs):
            same_round = int(env.table.states[0]["round"]) == rounds[i] and not dones[i]
            if same_round:
                assert int(env.table.states[0]["tick"]) == ticks[i] + 1


def test_learner_reward_is_its_seat_reward_and_observation_its_own():
    view, _ = make_view(num_envs=2, env_config=SHORT_GAME)
    spies = [StepSpy(env) for env in view.envs]
    obs = view.reset()
    seats = view.learner_seat.copy()
    rng = np.random.default_rng(2)
    total = np.zeros(2)
    finished = {}
    while len(finished) < 2:
        actions = RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng)
        obs, rewards, dones, infos = view.step(actions)
        for i in range(2):
            if i not in finished:
                total[i] += rewards[i]
                if dones[i]:
                    finished[i] = infos[i]
    for i, info in finished.items():
        agent = f"player_{seats[i]}"
        steps = [entry for entry in spies[i].log[1:] if entry[0] == "step"]
        steps = steps[: info["episode"]["l"]]
        assert 1 <= len(steps) <= 3  # three ticks at most (a STOP ends the round sooner)
        assert total[i] == pytest.approx(sum(entry[2][agent] for entry in steps))
        assert info["episode"]["r"] == pytest.approx(total[i])
        # replaying the recorded joint actions from the recorded seed reaches the same end
        replay = game_module("stocks_and_bombs").parallel_env(num_players=4, **SHORT_GAME)
        observations, _ = replay.reset(seed=spies[i].log[0][1])
        for entry in steps:
            observations, step_rewards, terminations, *_ = replay.step(entry[1])
        assert all(terminations.values())
        assert step_rewards[agent] == pytest.approx(steps[-1][2][agent])
        np.testing.assert_array_equal(info["terminal_observation"], observations[agent]["observation"])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_learner_seat_rotates_with_each_new_game(backend):
    view, league = make_view(num_envs=2, env_config=SHORT_GAME, backend=backend)
    league.players["random"] = Waiter()
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
        np.testing.assert_array_equal(obs[i], seat_obs(view, i, view.learner_seat[i]))
    assert view.steps_played == 2 * 12


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_ended_games_report_the_learners_score_and_win(backend, monkeypatch):
    view, league = make_view(num_envs=4, env_config=SHORT_GAME, backend=backend)
    league.players["random"] = Waiter()
    games = [env.table.game for env in view.envs] if backend == "pettingzoo" else [view.engine.game]
    for game in games:  # a constructed result: seats 1 and 2 share first place
        monkeypatch.setattr(game, "scores", lambda states, i: np.array([3.0, 5.0, 5.0, -1.0]))
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


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_opponents_act_in_one_batch_per_member_per_step(backend):
    view, league = make_view(num_envs=5, weights={"random": 1.0, "heuristic": 1.0}, backend=backend)
    recorders = {"random": Recorder(), "heuristic": Recorder()}
    league.players.update(recorders)
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


def test_turn_based_game_plays_opponent_turns_inside_a_transition():
    view, league = make_view(game="stockpile", num_envs=2)
    recorder = Recorder()
    league.players["random"] = recorder
    spies = [StepSpy(env) for env in view.envs]
    obs = view.reset()
    rng = np.random.default_rng(5)
    for _ in range(30):
        masks = view.action_masks()
        assert masks.any(axis=1).all()  # the learner decides at every step of the view
        actions = RandomPolicy().act(obs, masks.astype(np.int8), rng)
        for spy in spies:
            spy.log.clear()
        obs, _, dones, _ = view.step(actions)
        for i, spy in enumerate(spies):
            if dones[i]:
                continue
            learner = f"player_{view.learner_seat[i]}"
            steps = [entry[1] for entry in spy.log if entry[0] == "step"]
            assert learner in steps[0] and len(steps[0]) == 1  # one seat decides per step
            assert all(learner not in joint for joint in steps[1:])  # then only opponents, up to its turn
    assert max(recorder.batches) <= 2  # opponents of both games batched together


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_state_round_trip_continues_identically(backend):
    mix = {"random": 1.0, "heuristic": 1.0}
    view, _ = make_view(num_envs=2, seed=9, weights=mix, env_config=SHORT_GAME, backend=backend)
    obs = view.reset()
    rng = np.random.default_rng(6)
    for _ in range(5):
        obs, *_ = view.step(RandomPolicy().act(obs, view.action_masks().astype(np.int8), rng))
    saved = pickle.loads(pickle.dumps(view.get_state()))
    other, _ = make_view(num_envs=2, seed=123, weights=mix, env_config=SHORT_GAME, backend=backend)
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


@pytest.mark.parametrize(("backend", "message"), [("pettingzoo", "2 games"), ("engine", "2 stocks_and_bombs games")])
def test_set_state_rejects_another_layout(backend, message):
    view, _ = make_view(num_envs=2, backend=backend)
    view.reset()
    other, _ = make_view(num_envs=3, backend=backend)
    with pytest.raises(ValueError, match=message):
        other.set_state(view.get_state())


@pytest.mark.parametrize(("saved", "loading"), [("pettingzoo", "engine"), ("engine", "pettingzoo")])
def test_set_state_rejects_the_other_backend(saved, loading):
    view, _ = make_view(num_envs=2, backend=saved)
    view.reset()
    other, _ = make_view(num_envs=2, backend=loading)
    with pytest.raises(ValueError, match=f"not of the {loading} backend"):
        other.set_state(view.get_state())
