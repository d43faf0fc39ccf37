"""A figure of a tournament: win rates with Wilson error bars, and OpenSkill ratings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from stonk_envs.evaluation.report import EvaluationReport


def plot_report(report: EvaluationReport, path: str | Path) -> Path:
    """Write the two-panel figure (win rates left, ratings right) to ``path``."""
    names = [r.name for r in report.players]
    x = np.arange(len(names))
    rates = np.array([r.win_rate for r in report.players])
    errors = np.array([[r.win_rate - r.ci_low, r.ci_high - r.win_rate] for r in report.players]).T
    figure = Figure(figsize=(max(8.0, 2.2 * len(names)), 4.2), layout="constrained")
    left, right = figure.subplots(1, 2)
    left.bar(x, rates, yerr=errors, capsize=5, color="tab:blue")
    left.axhline(1 / report.num_players, color="grey", linestyle="--", label=f"1/{report.num_players}")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (shared wins count), 95% Wilson CI")
    left.legend(loc="upper right")
    right.bar(
        x,
        [r.rating_mu for r in report.players],
        yerr=[r.rating_sigma for r in report.players],
        capsize=5,
        color="tab:orange",
    )
    right.set_ylabel("OpenSkill rating (mu, error bar sigma)")
    for axis in (left, right):
        axis.set_xticks(x, names, rotation=20, ha="right")
    figure.suptitle(f"{report.game}: {report.num_games} games, {report.num_players} players")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    return path
