"""How games between given players are played: trades per round, how rounds and games end.

For the two real-time games (Stocks & Bombs, Stonk Market) this plays seeded games in
lockstep, like :func:`stonk_envs.evaluation.tournament.play_batch`, and counts from each
tick's joint action and void flags:

- **trades**: ACCEPTs (Stocks & Bombs) and TAKEs (Stonk Market) that were carried out;
- **exchanges**: Stonk Market EXCHANGEs that were carried out;
- **round ends**: by a call (STOP; STONKS split into valid and invalid) or by the tick cap;
- **game ends**: a total reached ``points_to_win``, or the round cap / fixed round count;
- **ties**: games whose highest final total is shared;
- the time the players spend in ``act`` per decision (one seat's action), leaving out each
  player's first call in each chunk of games (it may compile code);
- **per player** (each entry of ``players``, whatever seat it holds): the kinds of action it
  chose, the rounds its call ended, and its mean round score.

A call's maker is the seat whose STOP/STONKS was not voided (later calls in the same tick are
void). A STONKS call is counted valid when the caller's round score is not 0 (a false call
scores exactly 0); a valid call worth exactly 0 (a hand worth -5) is judged from the
caller's hand at the start of that tick.

Run it as ``python -m stonk_envs.evaluation.playstats --game stocks_and_bombs --players
heuristic heuristic heuristic heuristic --games 1000``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from stonk_envs import cli_args
from stonk_envs.core.game import NO_ACTION
from stonk_envs.core.negotiation import VOID_NONE
from stonk_envs.evaluation.runner import player_names, resolve_players, rotated_seatings
from stonk_envs.games.stonk_market.config import SUIT_COUNTS
from stonk_envs.policies.games import make_game

CALLS = ("STOP", "STONKS")
TRADES = ("ACCEPT", "TAKE")
CHUNK_GAMES = 100


@dataclass
class PlayStats:
    """Counts over a set of games; :meth:`summary` turns them into rates."""

    game: str
    players: list[str]
    num_games: int = 0
    rounds: int = 0
    ticks: int = 0
    trades: int = 0
    exchanges: int = 0
    round_ends: Counter = field(default_factory=Counter)
    game_ends: Counter = field(default_factory=Counter)
    ties: int = 0
    decisions: int = 0
    act_seconds: float = 0.0
    chosen: list[Counter] = field(default_factory=list)
    """Per entry of ``players``: the kinds of action it chose (void ones too)."""
    called: list[Counter] = field(default_factory=list)
    """Per entry: how the rounds that its call ended ended (``"STONKS valid"``...)."""
    round_points: list[int] = field(default_factory=list)
    """Per entry: the sum of its round scores."""

    def __post_init__(self):
        k = len(self.players)
        self.chosen = self.chosen or [Counter() for _ in range(k)]
        self.called = self.called or [Counter() for _ in range(k)]
        self.round_points = self.round_points or [0] * k

    def counts(self) -> dict:
        """The raw counts, as plain JSON-ready values."""
        def plain(value):
            if isinstance(value, Counter):
                return {str(k): v for k, v in value.items()}
            return [plain(v) for v in value] if isinstance(value, list) else value

        return {name: plain(value) for name, value in vars(self).items() if name not in ("game", "players")}

    def summary(self) -> dict:
        """Per-game and per-round rates, the end shares and the act cost per decision."""
        rounds = max(self.rounds, 1)
        games = max(self.num_games, 1)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.num_games,
            "rounds_per_game": self.rounds / games,
            "ticks_per_round": self.ticks / rounds,
            "trades_per_round": self.trades / rounds,
            "trades_per_game": self.trades / games,
            "exchanges_per_round": self.exchanges / rounds,
            "round_ends": {k: v / rounds for k, v in sorted(self.round_ends.items())},
            "game_ends": {k: v / games for k, v in sorted(self.game_ends.items())},
            "tie_rate": self.ties / games,
            "act_us_per_decision": 1e6 * self.act_seconds / max(self.decisions, 1),
            "per_player": [
                {
                    "player": name,
                    "actions": {k: v / max(sum(chosen.values()), 1) for k, v in sorted(chosen.items())},
                    "calls_per_round": {k: v / rounds for k, v in sorted(called.items())},
                    "round_score": points / rounds,
                }
                for name, chosen, called, points in zip(player_names(self.players), self.chosen, self.called,
                                                       self.round_points, strict=True)
            ],
        }


def action_kind(description: str) -> str:
    """The kind of an action from its description: ``"call STOP (end the round)"`` -> ``"STOP"``,
    ``"propose: ..."`` -> ``"PROPOSE"``."""
    words = description.split()
    return (words[1] if words[0] == "call" else words[0]).rstrip(":").upper()


def action_kinds(game) -> np.ndarray:
    """The kind (e.g. ``"STOP"``, ``"TAKE"``) of every action of seat 0."""
    return np.array([action_kind(game.describe_action(0, a)) for a in range(game.num_actions)])


def play_stats(
    game_name: str,
    players: Sequence,
    num_games: int,
    seed: int = 0,
    num_players: int | None = None,
    env_config: dict | None = None,
) -> PlayStats:
    """Play ``num_games`` seeded games with seats rotating and count how they go."""
    if num_games < 1:
        raise ValueError(f"num_games must be >= 1, got {num_games}")
    n = num_players or len(players)
    if len(players) != n:
        raise ValueError(f"{len(players)} players given for {n} seats")
    game = make_game(game_name, n, env_config)
    if not game.simultaneous:
        raise ValueError(f"{game_name} is not a real-time trading game; play statistics cover the tick games")
    resolved = resolve_players(players, game_name, n)
    stats = PlayStats(game=game_name, players=[str(getattr(p, "name", p)) for p in players])
    seatings = rotated_seatings(num_games, n)
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=num_games)
    rng = np.random.default_rng([seed, 2])
    for start in range(0, num_games, CHUNK_GAMES):
        chunk = slice(start, min(start + CHUNK_GAMES, num_games))
        _play_chunk(game, resolved, seatings[chunk], seeds[chunk], rng, stats)
    return stats


def _play_chunk(game, players, seatings, seeds, rng, stats: PlayStats) -> None:
    n = game.num_players
    kinds = action_kinds(game)
    distinct = list({id(p): p for p in players}.values())
    policy_of_seat = np.array([[distinct.index(players[e]) for e in row] for row in seatings])
    num_games = len(seeds)
    states = np.zeros(num_games, dtype=game.state_dtype)
    for i, s in enumerate(seeds):
        game.reset(states, i, int(s))
    obs = np.zeros((num_games, n, game.observation_bounds[0].shape[0]), np.float32)
    masks = np.zeros((num_games, n, game.num_actions), np.int8)
    joint = np.full((num_games, n), NO_ACTION, np.int64)
    step_rewards = np.zeros(n, np.float32)
    voids = np.zeros(n, np.int8)
    points_to_win = getattr(game.config, "points_to_win", None)
    live = list(range(num_games))
    warm: set[int] = set()
    while live:
        for i in live:
            game.observe_all(states, i, obs[i])
            for seat in range(n):
                game.legal_mask(states, i, seat, masks[i, seat])
        joint[:] = NO_ACTION
        for k, policy in enumerate(distinct):
            chosen = np.zeros((num_games, n), bool)
            chosen[live] = policy_of_seat[live] == k
            if chosen.any():
                started = time.perf_counter()
                joint[chosen] = policy.act(obs[chosen], masks[chosen], rng)
                if id(policy) in warm:  # a player's first call may compile code: not timed
                    stats.act_seconds += time.perf_counter() - started
                    stats.decisions += int(chosen.sum())
                warm.add(id(policy))
        still_live = []
        for i in live:
            round_before = int(states[i]["round"])
            hands_before = states[i]["hand"].copy() if "hand" in states.dtype.names else None
            over = game.step(states, i, joint[i], step_rewards, voids)
            done = kinds[joint[i]]
            for seat, entry in enumerate(seatings[i]):
                stats.chosen[entry][done[seat]] += 1
            carried = voids[:n] == VOID_NONE
            stats.trades += int((np.isin(done, TRADES) & carried).sum())
            stats.exchanges += int(((done == "EXCHANGE") & carried).sum())
            stats.ticks += 1
            if over or int(states[i]["round"]) != round_before:
                stats.rounds += 1
                callers = np.flatnonzero(np.isin(done, CALLS) & carried)
                end = _round_end(states[i], done, callers, hands_before)
                stats.round_ends[end] += 1
                if len(callers):
                    stats.called[seatings[i][callers[0]]][end] += 1
                for seat, entry in enumerate(seatings[i]):
                    stats.round_points[entry] += int(states[i]["last_scores"][seat])
            if over:
                stats.num_games += 1
                totals = game.scores(states, i)
                stats.ties += int((totals == totals.max()).sum() > 1)
                reached = points_to_win is not None and totals.max() >= points_to_win
                stats.game_ends["points reached" if reached else "round cap"] += 1
            else:
                still_live.append(i)
        live = still_live


def _round_end(state, done, callers, hands_before) -> str:
    if len(callers) == 0:
        return "tick cap"
    caller = int(callers[0])
    if done[caller] != "STONKS":
        return str(done[caller])
    if state["last_scores"][caller] != 0:
        return "STONKS valid"
    hand = hands_before[caller]
    valid = all(2 * hand[s] > SUIT_COUNTS[s] for s in range(len(SUIT_COUNTS)) if hand[s] > 0)
    return "STONKS valid" if valid else "STONKS invalid"


def format_summary(summary: dict) -> str:
    """A few readable lines of a :meth:`PlayStats.summary`."""
    ends = ", ".join(f"{k} {v:.3f}" for k, v in summary["round_ends"].items())
    games = ", ".join(f"{k} {v:.3f}" for k, v in summary["game_ends"].items())
    return "\n".join(
        [
            f"{summary['game']}: {' '.join(summary['players'])}, {summary['games']} games",
            f"  rounds/game {summary['rounds_per_game']:.2f}, ticks/round {summary['ticks_per_round']:.1f}",
            f"  trades/round {summary['trades_per_round']:.2f} (per game {summary['trades_per_game']:.1f}),"
            f" exchanges/round {summary['exchanges_per_round']:.2f}",
            f"  rounds end: {ends}",
            f"  games end: {games}; tie rate {summary['tie_rate']:.3f}",
            f"  act cost {summary['act_us_per_decision']:.1f} us per decision",
            "  per player: mean round score; rounds ended by its call; its actions",
            *(f"    {p['player']}: {p['round_score']:.2f}; "
              + (", ".join(f"{k} {v:.3f}" for k, v in p["calls_per_round"].items()) or "none") + "; "
              + ", ".join(f"{k} {v:.3f}" for k, v in p["actions"].items())
              for p in summary["per_player"]),
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print (and optionally save as JSON) the statistics of a set of games."""
    parser = argparse.ArgumentParser(
        prog="python -m stonk_envs.evaluation.playstats", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", required=True, choices=["stocks_and_bombs", "stonk_market"])
    parser.add_argument("--players", nargs="+", type=cli_args.player, required=True, help="one player spec per seat")
    parser.add_argument("--games", type=cli_args.positive, default=1000)
    parser.add_argument("--seed", type=cli_args.seed, default=0)
    parser.add_argument("--json", type=cli_args.output_file, help="also write the summary to this JSON file")
    args = parser.parse_args(argv)
    try:
        stats = play_stats(args.game, args.players, args.games, args.seed)
    except ValueError as err:
        print(f"playstats: error: {err}", file=sys.stderr)
        return 2
    summary = stats.summary()
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**summary, "counts": stats.counts()}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
