"""The result of a tournament: per-player win rates with Wilson intervals, means and ratings."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from stonk_envs.evaluation.ratings import rate_games
from stonk_envs.evaluation.stats import wilson_interval
from stonk_envs.files import atomic_write_text
from stonk_envs.text import printable


@dataclass(frozen=True)
class PlayerResult:
    """One player's results.

    ``wins`` counts a shared win as a win; ``win_rate`` is ``wins / games`` with its 95%
    Wilson interval ``[ci_low, ci_high]``. ``win_share`` splits a shared win among its w
    winners (1/w each), so the shares of a game sum to 1 and equal players land on 1/n.
    """

    name: str
    games: int
    wins: int
    shared_wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    win_share: float
    mean_reward: float
    mean_score: float
    rating_mu: float
    rating_sigma: float
    rating_ordinal: float


@dataclass(frozen=True)
class EvaluationReport:
    """A tournament's settings and each player's results (``to_dict`` is JSON ready)."""

    game: str
    num_players: int
    num_games: int
    seed: int
    env_config: dict
    players: list[PlayerResult]
    seat_win_rates: list[float]
    seconds: float
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)

    def write_json(self, path: str | Path) -> Path:
        return atomic_write_text(path, json.dumps(self.to_dict(), indent=2) + "\n")

    def player(self, name: str) -> PlayerResult:
        for result in self.players:
            if result.name == name:
                return result
        raise KeyError(name)

    def table(self) -> str:
        """A plain-text table of the results."""
        header = f"{'player':<28} {'games':>6} {'wins':>6} {'win rate':>9} {'95% CI':>15} {'share':>6} "
        header += f"{'reward':>8} {'score':>8} {'rating':>8}"
        lines = [
            f"{self.game}, {self.num_players} players, {self.num_games} games, seed {self.seed} "
            f"({self.seconds:.1f} s)",
            header,
        ]
        for r in self.players:
            lines.append(
                f"{printable(r.name):<28} {r.games:>6} {r.wins:>6} {r.win_rate:>9.3f} "
                f"{f'[{r.ci_low:.3f}, {r.ci_high:.3f}]':>15} {r.win_share:>6.3f} {r.mean_reward:>8.3f} "
                f"{r.mean_score:>8.2f} "
                f"{r.rating_ordinal:>8.2f}"
            )
        lines.append("win rate by seat: " + ", ".join(f"{x:.3f}" for x in self.seat_win_rates))
        return "\n".join(lines)


def summarise(
    names: list[str],
    seatings: np.ndarray,
    scores: np.ndarray,
    rewards: np.ndarray,
    **settings,
) -> EvaluationReport:
    """Build the report from every game's seating, final scores and summed rewards."""
    best = scores.max(axis=1, keepdims=True)
    won = scores == best
    winners = won.sum(axis=1, keepdims=True)
    shared = won & (winners > 1)
    share = won / winners
    ratings = rate_games(len(names), seatings, scores)
    players = []
    for e, name in enumerate(names):
        seated = seatings == e
        games = int(seated.sum())
        wins = int(won[seated].sum())
        low, high = wilson_interval(wins, games)
        players.append(
            PlayerResult(
                name=name,
                games=games,
                wins=wins,
                shared_wins=int(shared[seated].sum()),
                win_rate=wins / games if games else 0.0,
                ci_low=low,
                ci_high=high,
                win_share=float(share[seated].mean()) if games else 0.0,
                mean_reward=float(rewards[seated].mean()) if games else 0.0,
                mean_score=float(scores[seated].mean()) if games else 0.0,
                rating_mu=ratings[e].mu,
                rating_sigma=ratings[e].sigma,
                rating_ordinal=ratings[e].ordinal,
            )
        )
    seat_win_rates = [float(x) for x in won.mean(axis=0)] if len(scores) else []
    return EvaluationReport(players=players, seat_win_rates=seat_win_rates, **settings)
