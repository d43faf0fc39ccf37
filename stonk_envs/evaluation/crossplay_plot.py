"""The cross-play figure: rating and win share of each checkpoint over training steps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from stonk_envs.evaluation.crossplay import CrossplayReport

BASELINE_COLOURS = ("tab:red", "tab:green", "tab:purple", "tab:brown", "tab:grey")


def plot_crossplay(report: CrossplayReport, path: str | Path) -> Path:
    """Write the figure: OpenSkill mu with a +-sigma band (top) and win share (bottom) against the
    learner step, with the baselines as horizontal lines."""
    steps = np.array([c["step"] for c in report.checkpoints])
    mu = np.array([c["rating_mu"] for c in report.checkpoints])
    sigma = np.array([c["rating_sigma"] for c in report.checkpoints])
    share = np.array([c["win_share"] for c in report.checkpoints])
    figure = Figure(figsize=(8, 6.5), layout="constrained")
    top, bottom = figure.subplots(2, 1, sharex=True)
    top.plot(steps, mu, marker="o", color="tab:blue", label="checkpoint (mu)")
    top.fill_between(steps, mu - sigma, mu + sigma, color="tab:blue", alpha=0.2, label="mu +- sigma")
    bottom.plot(steps, share, marker="o", color="tab:blue", label="checkpoint")
    for baseline, colour in zip(report.baselines, BASELINE_COLOURS, strict=False):
        top.axhline(baseline["rating_mu"], color=colour, linestyle="--", label=f"{baseline['name']} (mu)")
        top.axhspan(baseline["rating_mu"] - baseline["rating_sigma"], baseline["rating_mu"] + baseline["rating_sigma"],
                    color=colour, alpha=0.08)
        bottom.axhline(baseline["win_share"], color=colour, linestyle="--", label=baseline["name"])
    num_players = report.league.num_players
    bottom.axhline(1 / num_players, color="grey", linestyle=":", label=f"1/{num_players} (equal share)")
    top.set_ylabel("OpenSkill rating")
    bottom.set_ylabel("win share in league games (ties split)")
    bottom.set_xlabel("learner steps")
    bottom.set_ylim(0, 1)
    for axis in (top, bottom):
        axis.legend(loc="best", fontsize="small")
        axis.grid(alpha=0.3)
    figure.suptitle(
        f"{report.league.game}: cross-play of {len(steps)} checkpoints, {report.league.num_games} games, "
        f"{num_players} players"
    )
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    return path
