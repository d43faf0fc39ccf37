"""The reference leaderboard: policies rated against a fixed pool in a seeded league with rotated seats.

The pool of a game is ``random``, each of its rule-based players (one name per distinct player) and
its ``champion`` when it has one for the player count. Every table of ``num_players`` entries (the
pool and the added policies) is played in each of its seat rotations, the order of the games shuffled
by the seed; with fewer entries than seats, copies of ``random`` fill the table. The same seed,
entries and package version give the same games, so the same table.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from stonk_envs import __version__, champions, registry
from stonk_envs.core.validation import SEED_MAX, check_int
from stonk_envs.evaluation import MAX_GAMES
from stonk_envs.evaluation.report import EvaluationReport, summarise
from stonk_envs.evaluation.runner import play_seatings, player_names
from stonk_envs.evaluation.stats import share_interval
from stonk_envs.policies.games import make_game
from stonk_envs.text import printable


@dataclass(frozen=True)
class Leaderboard:
    """A league's report, with which entries are the pool's and the figures per pair of entries."""

    report: EvaluationReport
    pool: list[str]
    """The report names of the pool's entries (the rest were added)."""
    head_to_head: dict[str, dict[str, dict]]
    """``[row][column]``: the games both played and the share of them in which row finished above column."""
    command: str

    def to_dict(self) -> dict:
        r = self.report
        return {"game": r.game, "num_players": r.num_players, "num_games": r.num_games, "seed": r.seed,
                "version": __version__, "command": self.command, "pool": self.pool,
                "entries": [_entry(p) for p in ranked(r)], "head_to_head": self.head_to_head}

    def table(self) -> str:
        """The leaderboard as plain text: the same entries, seed and version print the same text."""
        r = self.report
        added = [p.name for p in r.players if p.name not in self.pool]
        lines = [
            f"Reference leaderboard: {r.game}, {r.num_players} players, {r.num_games} games, seed {r.seed}, "
            f"stonk_envs {__version__}",
            f"reproduce: {self.command}",
            f"pool: {', '.join(self.pool)}; added: {', '.join(map(printable, added)) or 'none'}",
            f"{'rank':>4} {'player':<24} {'games':>6} {'mu':>7} {'sigma':>6} {'mu +- 2 sigma':>17} {'ordinal':>8} "
            f"{'win share':>9} {'95% CI':>16}",
        ]
        for rank, p in enumerate(ranked(r), 1):
            e = _entry(p)
            rating, share = _pair(e["mu_low"], e["mu_high"], 2), _pair(e["share_ci_low"], e["share_ci_high"], 3)
            lines.append(f"{rank:>4} {printable(p.name)[-24:]:<24} {p.games:>6} {p.rating_mu:>7.2f} "
                         f"{p.rating_sigma:>6.2f} {rating:>17} {p.rating_ordinal:>8.2f} {p.win_share:>9.3f} "
                         f"{share:>16}")
        lines += ["", "finished above each pool member: the share of the games both played (ties count half)",
                  f"{'player':<24} " + " ".join(f"{printable(name)[-10:]:>10}" for name in self.pool)]
        for p in ranked(r):
            cells = []
            for name in self.pool:
                cell = self.head_to_head[p.name][name]
                cells.append("-" if name == p.name or not cell["games"] else f"{cell['share']:.3f}")
            lines.append(f"{printable(p.name)[-24:]:<24} " + " ".join(f"{cell:>10}" for cell in cells))
        lines.append("(ordinal: mu - 3 sigma, the rank's key; win share: a w-way tie for the top counts 1/w)")
        return "\n".join(lines)


def _pair(low: float, high: float, digits: int) -> str:
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _entry(p) -> dict:
    low, high = share_interval(p.win_share, p.games) if p.games else (0.0, 1.0)
    return {"name": p.name, "games": p.games, "mu": p.rating_mu, "sigma": p.rating_sigma,
            "mu_low": p.rating_mu - 2 * p.rating_sigma, "mu_high": p.rating_mu + 2 * p.rating_sigma,
            "ordinal": p.rating_ordinal, "win_share": p.win_share, "share_ci_low": low, "share_ci_high": high}


def ranked(report: EvaluationReport) -> list:
    """The report's players, best ordinal first (ties by name)."""
    return sorted(report.players, key=lambda p: (-p.rating_ordinal, p.name))


def default_num_players(game: str) -> int:
    """The champion's player count where the game has a champion, else the game's default."""
    return champions.default_num_players(game) if game in champions.games() else make_game(game).num_players


def reference_pool(game: str, num_players: int) -> list[str]:
    """``random``, one name per distinct rule-based player, and ``champion`` when it plays ``num_players``."""
    pool, seen = ["random"], set()
    for name, target in registry.spec(game).players.items():
        if target not in seen:
            seen.add(target)
            pool.append(name)
    if game in champions.games() and num_players in champions.entry(game)["num_players"]:
        pool.append(champions.NAME)
    return pool


def rotated_tables(num_games: int, num_entries: int, num_players: int, seed: int) -> np.ndarray:
    """``num_games`` seatings: every table of ``num_players`` entries in each seat rotation, each round of them in
    an order shuffled by ``seed``, rounds repeated until there are enough."""
    tables = [table[k:] + table[:k] for table in itertools.combinations(range(num_entries), num_players)
              for k in range(num_players)]
    rng = np.random.default_rng([seed, 3])
    rows: list[tuple[int, ...]] = []
    while len(rows) < num_games:
        rows += [tables[i] for i in rng.permutation(len(tables))]
    return np.array(rows[:num_games], dtype=np.int64)


def head_to_head(names: list[str], seatings: np.ndarray, scores: np.ndarray) -> dict[str, dict[str, dict]]:
    """``[a][b]``: the games both a and b played, and the share of them in which a's score beat b's (ties half)."""
    games = np.arange(len(seatings))
    score_of = np.full((len(seatings), len(names)), np.nan)
    for seat in range(seatings.shape[1]):
        score_of[games, seatings[:, seat]] = scores[:, seat]
    result: dict[str, dict[str, dict]] = {}
    for a, row in enumerate(names):
        result[row] = {}
        for b, column in enumerate(names):
            both = ~np.isnan(score_of[:, a]) & ~np.isnan(score_of[:, b]) if a != b else np.zeros(len(games), bool)
            mine, theirs = score_of[both, a], score_of[both, b]
            count = int(both.sum())
            share = float(((mine > theirs) + 0.5 * (mine == theirs)).mean()) if count else 0.0
            result[row][column] = {"games": count, "share": share}
    return result


def leaderboard(game: str, added: list[str], num_games: int, seed: int = 0, num_players: int | None = None,
                command: str = "") -> Leaderboard:
    """Rate the ``added`` player specs (saved policy files) against the pool of ``game``."""
    num_games, seed = check_int("num_games", num_games, 1, MAX_GAMES), check_int("seed", seed, 0, SEED_MAX)
    num_players = default_num_players(game) if num_players is None else make_game(game, num_players).num_players
    pool = reference_pool(game, num_players)
    doubled = sorted(set(pool) & set(added)) or sorted({a for a in added if added.count(a) > 1})
    if doubled:
        raise ValueError(f"--add {doubled[0]}: already an entry of the league ({', '.join(pool)} and the added)")
    specs = [*pool, *added]
    specs += ["random"] * (num_players - len(specs))
    names = player_names(specs)
    seatings = rotated_tables(num_games, len(specs), num_players, seed)
    played = play_seatings(game, specs, seatings, num_players, {}, seed, workers=1, progress=False)
    report = summarise(names, seatings, played.scores, played.rewards, game=game, num_players=num_players,
                       num_games=num_games, seed=seed, env_config={}, seconds=played.seconds)
    pool_names = names[: len(pool)] + names[len(pool) + len(added):]
    return Leaderboard(report, pool_names, head_to_head(names, seatings, played.scores), command)
