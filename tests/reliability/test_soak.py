"""The soak command: a short run passes every check, and each check catches what it is for."""

import numpy as np
import pytest

from stonk_envs import cli, vector
from stonk_envs.soak.runner import invariants, max_steps, soak_engine, soak_env


def test_a_short_soak_of_every_game_and_player_count_passes(capsys):
    status = cli.main(["soak", "--games", "24", "--env-games", "8", "--batch", "4", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0, out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["stockpile"], ["stonk_market"],
                                                                               ["stocks_and_bombs"])]
    assert sorted({(r[0], int(r[1])) for r in rows}) == sorted(
        [("stockpile", n) for n in (3, 4, 5)] + [("stonk_market", n) for n in (3, 4, 5, 6)]
        + [("stocks_and_bombs", n) for n in (4, 5, 6)])
    assert all(r[-5:] == ["0"] * 5 for r in rows)
    assert "0 failure(s)" in out


@pytest.mark.parametrize(
    ("game", "field", "edit"),
    [
        ("stockpile", "cash", lambda s: s["cash"].__setitem__((0, 0), s["cash"][0, 0] + 1)),
        ("stockpile", "discard", lambda s: s["discard"].__setitem__((0, 2), s["discard"][0, 2] + 1)),
        ("stockpile", "deck_len", lambda s: s["deck_len"].__setitem__(0, s["deck_len"][0] - 1)),
        ("stonk_market", "hand", lambda s: s["hand"].__setitem__((0, 1, 0), s["hand"][0, 1, 0] + 1)),
        ("stonk_market", "exchange", lambda s: s["exchange"].__setitem__(0, (s["exchange"][0] + 1) % 9)),
        ("stocks_and_bombs", "holder", lambda s: s["holder"].__setitem__((0, 0), 7)),
        ("stocks_and_bombs", "target", lambda s: s["target"].__setitem__((0, 0), s["target"][0, 1])),
        ("stocks_and_bombs", "totals", lambda s: s["totals"].__setitem__((0, 2), -1)),
    ],
)
def test_conservation_checks_catch_a_broken_record(game, field, edit):
    engine = vector.make(game, 2)
    engine.reset(seed=3)
    check = invariants(game).broken
    records = engine.states.copy()
    assert not check(records, engine.config).any()
    edit(records)
    assert check(records, engine.config).tolist() == [True, False]


def test_the_step_caps_are_the_rules_limits():
    assert max_steps("stonk_market", vector.make("stonk_market", 1, tick_cap=7, num_rounds=2).config) == 14
    assert max_steps("stocks_and_bombs", vector.make("stocks_and_bombs", 1, tick_cap=5, round_cap=3).config) == 15


def test_a_failure_is_counted_and_shown(monkeypatch):
    monkeypatch.setattr(invariants("stonk_market"), "broken", lambda states, config: np.ones(len(states), bool))
    result = soak_engine("stonk_market", 4, 2, seed=0, batch=2)
    assert result.failures["conservation"] > 0 and "conservation" in result.examples[0]
    env_result = soak_env("stonk_market", 4, 1, seed=0)
    assert env_result.failures["conservation"] > 0
