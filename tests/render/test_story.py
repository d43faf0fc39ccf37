"""What a person reads about a step: void moves with why, round summaries, winners, stable keys."""

import io
import json
import re

import numpy as np
import pytest
from rich.console import Console

from stonk_envs import records, render
from stonk_envs.cli import main
from stonk_envs.games.stocks_and_bombs.scoring import score_round as score_bombs
from stonk_envs.games.stonk_market import core as market_core
from stonk_envs.games.stonk_market.config import SUIT_NAMES
from stonk_envs.games.stonk_market.scoring import score_round as score_market
from stonk_envs.games.story import step_lines, tick_order, winners_line
from stonk_envs.games_index import game_module
from stonk_envs.play.session import Seat, Session
from stonk_envs.policies import make_player
from stonk_envs.replay.terminal import HELP, step_through
from stonk_envs.replay.timeline import timeline
from tests.render.conftest import play_recorded
from tests.stocks_and_bombs.scripting import accept, propose, stop
from tests.stonk_market.stonk_market_helpers import (
    GLITCH,
    MIXED_HANDS,
    NOBBLE,
    SOCKTOPUS,
    announce,
    force_order,
    table_env,
    take,
    tick,
)
from tests.stonk_market.stonk_market_helpers import bid as market_bid
from tests.stonk_market.stonk_market_helpers import exchange as market_exchange


def scripted(name: str, steps: list[list[int]], seed: int = 3, **config) -> records.GameRecord:
    """A record of ``steps`` (joint actions) played from the deal of ``seed``."""
    env = game_module(name).parallel_env(illegal_action="raise", **config)
    recorder = records.record(env)
    env.reset(seed=seed)
    for joint in steps:
        env.step({agent: a for agent, a in zip(env.possible_agents, joint, strict=True)})
    return recorder.last


class Typist:
    """Answers the prompts of a play session from a list of lines (then Ctrl-C)."""

    def __init__(self, lines):
        self.lines = list(lines)

    def __call__(self, prompt="", **kwargs):
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0)


def test_a_voided_accept_is_printed_with_its_reason_in_play(monkeypatch, tmp_path, capsys):
    # Four people at one keyboard. Tick 1: player_0 offers c0S for player_1's c1S, player_2 offers c2S
    # for player_0's c0S. Tick 2: player_1 and player_0 both accept, and both trades need c0S: whichever
    # resolves second is void.
    n = 4
    tick1 = [propose(0, (0, 1), (1, 1), n), 0, propose(2, (2, 1), (0, 1), n), 0]
    tick2 = [accept(0, 2, n), accept(1, 0, n), 0, 0]
    lines = [x for tick in (tick1, tick2) for a in tick for x in ("", str(a))] + ["", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    path = tmp_path / "game.json"
    args = ["--game", "stocks_and_bombs", "--opponents", "human", "human", "human", "--seed", "7"]
    assert main(["play", *args, "--record", str(path)]) == 0
    out = " ".join(line.strip("│ ") for line in capsys.readouterr().out.splitlines())  # the panel's lines joined
    said = r"player_[01]: accept player_[02]'s proposal: give c\dS, get c\dS - VOID: player_\d had already traded c0S"
    assert re.search(said + r" this tick \(with player_\d\)", out), out
    record = records.GameRecord.load(path)
    assert record.actions[:2] == [tick1, tick2]
    _, moments = timeline(record)
    assert sum("VOID: " in line for line in moments[2].moves) == 1  # one accept went through


def test_the_void_reason_names_the_call_that_ended_the_round():
    n = 4
    record = scripted("stocks_and_bombs", [[propose(0, (0, 1), (1, 1), n), stop(n), stop(n), 0]], round_cap=1)
    _, moments = timeline(record)
    lines = moments[1].moves
    void = [line for line in lines if "VOID" in line]
    assert len(void) == 2  # the call resolved first voids the other two moves
    caller = int(moments[1].states[0]["last_caller"])
    assert all(f"player_{caller} had already called STOP this tick, which ended the round" in v for v in void)


def test_stocks_and_bombs_round_summary_has_the_scores_the_rules_give():
    n = 4
    steps = [[propose(0, (0, 1), (1, 3), n), 0, 0, 0], [0, accept(1, 0, n), 0, 0], [stop(n), 0, 0, 0]]
    record = scripted("stocks_and_bombs", steps, round_cap=1)
    _, moments = timeline(record)
    summary = moments[-1].summary
    s = moments[-1].states[0]
    targets = [int(t) for t in s["last_target"][:n]]
    holdings = [[(c, z) for c in range(n) for z in (1, 2, 3) if s["last_holder"][c * 3 + z - 1] == p] for p in range(n)]
    assert sorted(holdings[0]) == [(0, 2), (0, 3), (1, 3)] and sorted(holdings[1]) == [(0, 1), (1, 1), (1, 2)]
    scores = score_bombs(holdings, targets)
    assert summary[0] == "round 1 scored:"
    for p in range(n):
        total = max(0, scores[p])
        if p == 0 and scores[0] < max(scores):
            total = max(0, total - 1)
        assert summary[1 + p].startswith(f"  player_{p}: target ")
        assert summary[1 + p].endswith(f"= {scores[p]:+d}; total {total}")
    if targets[0] == 1:
        assert "target c1: holds 3 pip(s) of c1, player_1 holds 1 of c0" in summary[1]
    penalty = scores[0] < max(scores)
    said = "without the best round score: -1 point" if penalty else "with the best round score: no penalty"
    assert summary[1 + n] == f"  player_0 called STOP {said}"
    best = max(s["totals"][:n])
    winners = [f"player_{p}" for p in range(n) if s["totals"][p] == best]
    assert summary[-1].startswith("game over: " + " and ".join(winners))


@pytest.mark.parametrize("call", [False, True])
def test_stonk_market_round_summary_has_the_majorities_strays_and_call(call):
    n = 4
    game = game_module("stonk_market").GAME(game_module("stonk_market").CONFIG(num_players=n))
    steps = [[int(market_core.stonks_action(n)) if call else 0, 0, 0, 0]]
    record = scripted("stonk_market", steps, num_rounds=1, tick_cap=1 if not call else 5)
    _, moments = timeline(record)
    s = moments[-1].states[0]
    hands, exchange = s["last_hand"][:n], int(s["last_exchange"])
    scores = score_market([list(h) for h in hands], exchange, 0 if call else None)
    summary = moments[-1].summary
    assert summary[0] == f"round 1 scored (Exchange: {SUIT_NAMES[exchange]}):"
    for p in range(n):
        line = summary[1 + p]
        assert line.endswith(f"= {scores[p]:+d}; total {scores[p]}")
        for suit in range(9):
            count = int(hands[p][suit])
            if suit != exchange and 2 * count > market_core.SUIT_TOTALS[suit]:
                assert f"{count} {SUIT_NAMES[suit]}" in line.split("majorities ", 1)[1].split(";")[0]
            elif suit != exchange and count:
                assert f"{count} {SUIT_NAMES[suit]}" in line.split("strays ", 1)[1].split(";")[0]
    if call:
        valid = bool(market_core.all_majorities(hands[0]))
        assert summary[1 + n].startswith("  player_0 called STONKS: " + ("valid" if valid else "invalid"))
    else:
        assert summary[1 + n] == "  nobody called STONKS (the tick cap ended the round)"
    assert summary[-1].startswith("game over: player_") and f"{max(scores)} points" in summary[-1]
    assert game.num_players == n


def test_stockpile_settlement_adds_up_to_each_net_worth():
    record = play_recorded("stockpile", 1)
    _, moments = timeline(record)
    summary = moments[-1].summary
    assert summary[0].startswith("final settlement")
    sums = r"cash \$(\d+)K \+ shares \$(\d+)K .*bonuses \$(\d+)K .*debts \$(\d+)K = \$(\d+)K"
    for p, line in enumerate(summary[1:-1]):
        cash, shares, bonus, debt, worth = (int(x) for x in re.search(sums, line).groups())
        assert cash + shares + bonus - debt == worth == record.scores[p]
        sold = sum(int(k) * int(v) for k, v in re.findall(r"(\d+) \w\w x \$(\d+)K", line))
        assert sold == shares
    best = max(record.scores)
    assert summary[-1].startswith(f"game over: player_{record.scores.index(best)} wins with net worth ${best:g}K")
    assert not any(s for m in moments[:-1] for s in m.summary)  # Stockpile pauses only at its end


def test_the_terminal_replay_fits_80_columns_with_its_help(game_record, monkeypatch):
    game, moments = timeline(game_record)
    out = io.StringIO()
    console = Console(file=out, width=160, force_terminal=False)
    monkeypatch.setattr(console, "input", Typist(["e", "q"]))
    step_through(console, game, moments, len(game_record.actions), None, game_record.players)
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    panel = " ".join(" ".join(line.strip("│ ") for line in text.splitlines()).split())
    assert HELP in text and moments[-1].summary[-1].startswith("game over:")
    assert all(" ".join(line.split()) in panel for line in moments[-1].summary)  # the words and the numbers


def test_the_page_names_the_seats_and_holds_the_summaries(game_record, tmp_path):
    path = game_record.save(tmp_path / "game.json")
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "--html", str(page)]) == 0
    text = page.read_text()
    assert "seats: player_0 heuristic, player_1 heuristic" in text
    steps = json.loads(re.search(r"const steps = (\[.*?\]);\n", text, re.S).group(1))
    assert steps[-1]["summary"][-1].startswith("game over: player_")
    assert [step["summary"] for step in steps] == [m.summary for m in timeline(game_record)[1]]
    assert [step["moves"] for step in steps] == [m.moves for m in timeline(game_record)[1]]


def test_the_last_frame_shows_the_summary_and_no_proposals_after_the_end():
    record = play_recorded("stocks_and_bombs", 0)
    game, moments = timeline(record)
    last = moments[-1]
    plain = render.draw(game, last.states, 0, None)
    told = render.draw(game, last.states, 0, None, last.moves, last.summary)
    assert told.shape == plain.shape and (told != plain).any()
    states = last.states.copy()
    states["prop_give"][0, 0], states["prop_recv"][0, 0], states["prop_to"][0, 0] = 0, 3, 1
    assert (render.draw(game, states, 0, None) == plain).all()  # open proposals are not drawn once it is over


@pytest.mark.parametrize("name", ["stockpile", "stonk_market", "stocks_and_bombs"])
def test_the_same_key_picks_the_same_move_on_two_steps(name, monkeypatch):
    n = 4
    seats = [Seat("human")] + [Seat("heuristic", make_player("heuristic", name, n)) for _ in range(n - 1)]
    config = {"stockpile": {"rounds": 2}, "stonk_market": {"tick_cap": 6, "num_rounds": 1}}.get(
        name, {"tick_cap": 6, "round_cap": 1}
    )
    out = io.StringIO()
    session = Session(name, seats, config, seed=5, console=Console(file=out, width=200))
    key, refused = None, []

    def answer(prompt="", **kwargs):
        nonlocal key
        mask = session.env.table.mask(0)
        if key is None:  # Stockpile's "done selling"; the first move after WAIT in the real-time games
            key = session.game.pass_action if name == "stockpile" else int(np.flatnonzero(mask)[1])
        if mask[key]:
            return str(key)
        if not refused:
            refused.append(key)
            return str(key)
        return str(int(np.flatnonzero(mask)[0]))

    monkeypatch.setattr(session.console, "input", answer)
    record = session.play()
    assert [joint[0] for joint in record.actions].count(key) >= 2
    text = out.getvalue()
    first = session.game.describe_action(0, key).split(":")[0]
    assert len([line for line in text.splitlines() if line.startswith(f"player_0: {first}")]) >= 2
    if refused:
        assert f"move {key} (" in text and "is not available now" in text


def test_a_no_op_exchange_is_marked():
    game_cls = game_module("stonk_market")
    game = game_cls.GAME(game_cls.CONFIG())
    states = np.zeros(1, game.state_dtype)
    game.reset(states, 0, 1)
    exchange = int(states[0]["exchange"])
    base = int(market_core.exchange_base(game.num_players))
    assert game.name_action(states, 0, 0, base + exchange).endswith("changes nothing, the same suit")
    other = (exchange + 1) % 9
    assert "changes nothing" not in game.name_action(states, 0, 0, base + other)


STOCKPILE_OPTIONS = {
    "num_players": 3, "rounds": 2, "starting_cash": 21, "max_price": 11, "start_price": 4, "split_reset": 5,
    "split_bonus": 9, "dividend_regular": 3, "dividend_split": 5, "majority_bonus": 11, "majority_tie_bonus": 6,
    "action_move": 3, "bid_values": (0, 1, 3, 6, 10, 15, 20, 26), "stock_per_company": 11, "fee_copies": 3,
    "action_copies": 3, "reward_mode": "score_diff", "reward_scale": 50.0, "memory": False,
}  # fmt: skip


def test_the_stockpile_options_tried_are_all_of_them():
    from dataclasses import fields

    from stonk_envs.games.stockpile import StockpileConfig

    assert sorted(STOCKPILE_OPTIONS) == sorted(f.name for f in fields(StockpileConfig))


@pytest.mark.parametrize("option", sorted(STOCKPILE_OPTIONS))
def test_stockpile_state_differs_for_every_option(option):
    from stonk_envs import stockpile_v1

    def state(**config):
        env = stockpile_v1.parallel_env(**config)
        env.reset(seed=0)
        return env.state()

    plain, changed = state(), state(**{option: STOCKPILE_OPTIONS[option]})
    assert plain.shape != changed.shape or (plain != changed).any()


def test_a_voided_take_is_printed_with_its_reason_in_play(monkeypatch, tmp_path, capsys):
    # Four people at one keyboard, the deal of seed 7 (player_1 holds 3 Nobble & Grasp). Tick 1:
    # player_0 announces 1 Glitch & Co., player_1 its 3 Nobble & Grasp. Tick 2: player_1 bids all
    # three on player_0's announcement, player_2 bids 1 Glitch & Co. on player_1's. Tick 3: both
    # announcers take; whichever resolves second finds the cards gone, and its take is void.
    n = 4
    deal = game_module("stonk_market").parallel_env(num_players=n)
    deal.reset(seed=7)
    assert deal.table.states["hand"][0, 1, NOBBLE] == 3 and deal.table.states["hand"][0, 0, GLITCH] >= 1
    tick1 = [announce(GLITCH, 1), announce(NOBBLE, 3), 0, 0]
    tick2 = [0, market_bid(n, 1, 0, NOBBLE, 3), market_bid(n, 2, 1, GLITCH, 1), 0]
    tick3 = [take(n, 0, 1), take(n, 1, 2), 0, 0]
    lines = [x for tick in (tick1, tick2, tick3, [0] * n) for a in tick for x in ("", str(a))] + ["", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    path = tmp_path / "game.json"
    args = ["--game", "stonk_market", "--opponents", "human", "human", "human", "--seed", "7"]
    assert main(["play", *args, "--record", str(path)]) == 0
    out = " ".join(line.strip("│ ") for line in capsys.readouterr().out.splitlines())
    nobble, glitch = "3 \N{MULTIPLICATION SIGN} Nobble & Grasp", "1 \N{MULTIPLICATION SIGN} Glitch & Co."
    takes = {
        0: (f"player_0: take player_1's bid of {nobble}", "player_1's bid or player_0's announcement",
            f"player_1 did 'take player_2's bid of {glitch}'"),
        1: (f"player_1: take player_2's bid of {glitch}", "player_2's bid or player_1's announcement",
            f"player_0 did 'take player_1's bid of {nobble}'"),
    }  # fmt: skip
    record = records.GameRecord.load(path)
    assert record.actions[:3] == [tick1, tick2, tick3]
    _, moments = timeline(record)
    void = [p for p in (0, 1) if f"{takes[p][0]} - VOID: " in "\n".join(moments[3].moves)]
    assert len(void) == 1  # one take went through
    move, undone, cause = takes[void[0]]
    assert f"{move} - VOID: {undone} had changed: this tick {cause}" in out, out
    assert f"your move was void: {undone} had changed: this tick {cause}" in out
    assert f"{takes[1 - void[0]][0]} - VOID" not in out


def test_render_shows_the_last_step_with_its_void_moves_and_summary():
    """An env's own render(), in text and in pictures, tells the step it just played."""
    n = 4
    steps = [[propose(0, (0, 1), (1, 1), n), stop(n), stop(n), 0]]
    module = game_module("stocks_and_bombs")
    env = module.parallel_env(render_mode="ansi", illegal_action="raise", round_cap=1)
    pictured = module.parallel_env(render_mode="rgb_array", illegal_action="raise", round_cap=1)
    for e in (env, pictured):
        e.reset(seed=3)
    assert "VOID" not in env.render()
    before = env.table.states.copy()
    for e in (env, pictured):
        e.step(dict(zip(e.possible_agents, steps[0], strict=True)))
    text = env.render()
    caller = int(env.table.states[0]["last_caller"])
    assert text.count(f"VOID: player_{caller} had already called STOP this tick, which ended the round") == 2
    assert "round 1 scored:" in text and "game over: " in text
    game = env.table.game
    events, summary = render.story(game, before, env.table.states, steps[0], env.table.voids, None)
    assert summary[0] == "round 1 scored:" and summary[-1].startswith("game over: ")
    np.testing.assert_array_equal(pictured.render(), render.draw(game, pictured.table.states, 0, None, events, summary))
    assert not np.array_equal(pictured.render(), render.draw(game, pictured.table.states, 0, None))


def test_the_winners_line_ranks_the_others():
    game_cls = game_module("stonk_market")
    game = game_cls.GAME(game_cls.CONFIG())
    states = np.zeros(1, game.state_dtype)
    game.reset(states, 0, 1)
    states["totals"][0, :4] = [7, 19, 3, 12]
    ranked = "player_3 12, player_0 7, player_2 3"
    assert winners_line(game, states) == f"game over: player_1 wins with 19 points; then {ranked}"
    states["totals"][0, :4] = [19, 19, 3, 12]
    shared = "game over: player_0 and player_1 share the win with 19 points"
    assert winners_line(game, states) == f"{shared}; then player_3 12, player_2 3"


def test_repeating_an_open_announcement_or_bid_is_marked_as_changing_nothing():
    env = table_env()
    tick(env, p0=announce(GLITCH, 1))
    tick(env, p1=market_bid(4, 1, 0, NOBBLE, 1))
    game, states = env.table.game, env.table.states
    again = game.name_action(states, 0, 0, announce(GLITCH, 1))
    assert again.endswith("changes nothing, the announcement is open already")
    assert "changes nothing" not in game.name_action(states, 0, 0, announce(GLITCH, 2))
    assert game.name_action(states, 0, 1, market_bid(4, 1, 0, NOBBLE, 1)).endswith(
        "changes nothing, the bid is open already"
    )
    assert "changes nothing" not in game.name_action(states, 0, 1, market_bid(4, 1, 0, NOBBLE, 2))


def test_the_text_at_game_over_has_no_round_to_come_and_no_open_proposals():
    record = play_recorded("stocks_and_bombs", 0)
    game, moments = timeline(record)
    states = moments[-1].states.copy()
    states["prop_give"][0, 0], states["prop_recv"][0, 0], states["prop_to"][0, 0] = 0, 3, 1
    text = game.render(states, 0, None)
    assert text.startswith(f"Stocks & Bombs  game over after round {int(states[0]['round'])}\n")
    assert "offers" not in text and "tick" not in text


def test_a_page_of_a_record_without_players_says_so(tmp_path):
    record = scripted("stocks_and_bombs", [[0, 0, 0, 0]], round_cap=1, tick_cap=1)
    assert record.players is None
    path = record.save(tmp_path / "game.json")
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "--html", str(page)]) == 0
    assert "seats: who held them was not recorded" in page.read_text()


@pytest.mark.parametrize("p3_first", [True, False])
def test_an_exchange_is_named_with_the_card_it_took_at_its_place_in_the_tick(p3_first):
    """player_3 puts Glitch & Co. into the Exchange (which holds a Socktopus Ltd.) and player_0 puts a
    Socktopus Ltd. in, in the same tick: player_0's trade changes nothing only if it came first."""
    env = table_env()
    seats = [3, 0] if p3_first else [0, 3]
    order = force_order(env.table.states, seats)
    before = env.table.states.copy()
    joint = [market_exchange(4, SOCKTOPUS), 0, 0, market_exchange(4, GLITCH)]
    env.step(dict(zip(env.possible_agents, joint, strict=True)))
    game = env.table.game
    assert tick_order(game, before) == order
    lines = step_lines(game, before, env.table.states, joint, env.table.voids)
    socktopus, glitch = "1 \N{MULTIPLICATION SIGN} Socktopus Ltd.", "1 \N{MULTIPLICATION SIGN} Glitch & Co."
    if p3_first:
        assert lines == [
            f"player_0: exchange {socktopus} for the Exchange card (Glitch & Co.)",
            f"player_3: exchange {glitch} for the Exchange card (Socktopus Ltd.)",
        ]
        assert env.table.states["hand"][0, 0, GLITCH] == MIXED_HANDS[0][GLITCH] + 1
    else:
        assert lines == [
            f"player_0: exchange {socktopus} for the Exchange card (Socktopus Ltd.) - changes nothing, the same suit",
            f"player_3: exchange {glitch} for the Exchange card (Socktopus Ltd.)",
        ]
        assert env.table.states["hand"][0, 0].tolist() == MIXED_HANDS[0]
