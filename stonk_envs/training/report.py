"""Evaluating a saved policy against fixed players, the learning-curve plot, and the printed table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def evaluate_policy(
    policy_file: Path,
    game: str,
    num_players: int,
    env_config: dict,
    opponent: str,
    num_games: int,
    seed: int,
    workers: int,
) -> dict[str, Any]:
    """Play ``policy_file`` in one seat against ``opponent`` in every other seat.

    Returns the evaluation harness's report as a dict, plus ``"policy"``: the saved policy's
    own entry (games, wins, win rate and its 95% interval, mean reward, mean score).
    """
    from stonk_envs.evaluation import evaluate

    players = [str(policy_file)] + [opponent] * (num_players - 1)
    report = evaluate(
        game,
        players,
        num_games,
        num_players=num_players,
        env_config=env_config,
        seed=seed,
        workers=workers,
        progress=False,
    ).to_dict()
    return {"opponent": opponent, "policy": report["players"][0], "report": report}


def format_table(step: int, results: list[dict[str, Any]], num_games: int) -> str:
    """A text table of the policy's results against each opponent kind, with 95% intervals."""
    from stonk_envs.evaluation.stats import share_interval

    lines = [f"evaluation of the policy at step {step:,} ({num_games:,} games per opponent kind):"]
    lines.append(
        f"  {'opponents':<12}{'games':>7}{'wins':>7}{'shared':>8}{'win rate':>10}  {'95% CI':<17}"
        f"{'win share':>10}  {'95% CI':<17}{'mean reward':>11}"
    )
    for result in results:
        entry = result["policy"]
        low, high = entry["ci_low"], entry["ci_high"]
        share_low, share_high = share_interval(entry["win_share"], entry["games"])
        lines.append(
            f"  {result['opponent']:<12}{entry['games']:>7}{entry['wins']:>7}{entry['shared_wins']:>8}"
            f"{entry['win_rate']:>10.3f}  [{low:.3f}, {high:.3f}]  {entry['win_share']:>9.3f}"
            f"  [{share_low:.3f}, {share_high:.3f}]{entry['mean_reward']:>11.3f}"
        )
    lines.append("  (a shared win counts as a win; win share splits it among the winners)")
    return "\n".join(lines)


def plot_learning_curve(history: list[dict[str, Any]], training: list[dict[str, float]], num_players: int, path: Path):
    """Win rate against each opponent kind over training, and the training reward and win rate."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 7), sharex=True)
    opponents = sorted({r["opponent"] for point in history for r in point["results"]})
    for opponent in opponents:
        points = [(p["step"], r["policy"]) for p in history for r in p["results"] if r["opponent"] == opponent]
        steps = [s for s, _ in points]
        rates = [e["win_rate"] for _, e in points]
        top.plot(steps, rates, marker="o", label=f"vs {num_players - 1} x {opponent}")
        top.fill_between(steps, [e["ci_low"] for _, e in points], [e["ci_high"] for _, e in points], alpha=0.2)
    top.axhline(1 / num_players, color="grey", linestyle="--", label=f"1/{num_players} (equal share)")
    top.set_ylabel("evaluation win rate")
    top.set_ylim(0, 1)
    top.legend(loc="lower right")
    if training:
        steps = [t["step"] for t in training]
        bottom.plot(steps, [t["episode_reward"] for t in training], label="episode reward (learner)")
        bottom.plot(steps, [t["win_rate"] for t in training], label="win rate in training games")
        bottom.legend(loc="lower right")
    bottom.set_xlabel("learner steps")
    bottom.set_ylabel("training games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
