"""Win rate against wall-clock time of training runs, one figure per game (docs/figures/).

Each run folder's periodic evaluations are placed at the time their checkpoint was written,
counted from the run's start (its ``config.yaml``), so evaluation time is included for every
trainer alike.

    python scripts/plot_trainer_curves.py --game stockpile --runs ppo=runs/stockpile sb3=runs/sb3_stockpile \
        --out docs/figures/trainers_stockpile.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from stonk_envs.training import run_state


def curve(run_dir: Path, opponent: str) -> tuple[list[float], list[float], list[float]]:
    """(minutes, win rate, win share) of each periodic evaluation against ``opponent``."""
    start = (run_dir / "config.yaml").stat().st_mtime
    points = []
    for point in json.loads((run_dir / "evaluations.json").read_text()):
        written = run_state.policy_path(run_dir, point["step"]).stat().st_mtime
        for result in point["results"]:
            if result["opponent"] == opponent:
                entry = result["policy"]
                points.append(((written - start) / 60, entry["win_rate"], entry["win_share"]))
    points.sort()
    return [p[0] for p in points], [p[1] for p in points], [p[2] for p in points]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--runs", nargs="+", required=True, metavar="LABEL=RUN_DIR")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for index, item in enumerate(args.runs):
        label, run_dir = item.split("=", 1)
        color = f"C{index}"
        minutes, rates, _ = curve(Path(run_dir), "random")
        ax.plot(minutes, rates, marker="o", color=color, label=f"{label}: win rate vs 3 random")
        minutes, _, shares = curve(Path(run_dir), "heuristic")
        ax.plot(minutes, shares, marker="x", linestyle="--", color=color, label=f"{label}: win share vs 3 heuristic")
    ax.axhline(0.25, color="grey", linestyle=":", label="1/4 (equal share)")
    ax.set_xlabel("wall-clock minutes since the run started (evaluations included)")
    ax.set_ylabel("periodic evaluation")
    ax.set_ylim(0, 1)
    ax.set_title(args.game)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)


if __name__ == "__main__":
    main()
