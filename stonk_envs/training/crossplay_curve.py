"""Cross-play of a run's evaluated checkpoints: a league rated by OpenSkill, and its rating curve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from stonk_envs.training import run_state


def rate_checkpoints(
    run_dir: Path, steps: list[int], game: str, num_players: int, env_config: dict, num_games: int, seed: int,
    workers: int,
) -> dict[str, Any]:
    """Play a league of the checkpoints at ``steps`` with the heuristic and random players; their ratings."""
    from stonk_envs.evaluation import league

    players = [str(run_state.policy_path(run_dir, step)) for step in steps] + ["heuristic", "random"]
    report = league(game, players, num_games, num_players=num_players, env_config=env_config, seed=seed,
                    workers=workers, progress=False).to_dict()
    names = [f"step {step}" for step in steps] + ["heuristic", "random"]
    return {
        "step": steps[-1],
        "games": num_games,
        "ratings": [
            {"player": name, "mu": entry["rating_mu"], "sigma": entry["rating_sigma"],
             "ordinal": entry["rating_ordinal"], "win_share": entry["win_share"]}
            for name, entry in zip(names, report["players"], strict=True)
        ],
    }


def plot_ratings(history: list[dict[str, Any]], path: Path) -> None:
    """Each checkpoint's rating (mu, +-sigma) in the newest league; each league's heuristic and random."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 7))
    newest = history[-1]
    points = [(int(r["player"][5:]), r) for r in newest["ratings"] if r["player"].startswith("step ")]
    steps = [s for s, _ in points]
    top.errorbar(steps, [r["mu"] for _, r in points], yerr=[r["sigma"] for _, r in points], marker="o",
                 label="checkpoint")
    for r, style in zip(newest["ratings"][-2:], ("--", ":"), strict=True):
        top.axhline(r["mu"], color="grey", linestyle=style, label=r["player"])
    top.set_xlabel("checkpoint (training samples)")
    top.set_ylabel("OpenSkill mu")
    top.set_title(f"cross-play at step {newest['step']:,} ({newest['games']} games)")
    top.legend(loc="lower right")
    leagues = [h["step"] for h in history]
    curves = {
        "newest checkpoint": [h["ratings"][-3]["mu"] for h in history],
        "best checkpoint": [max(r["mu"] for r in h["ratings"][:-2]) for h in history],
        "heuristic": [h["ratings"][-2]["mu"] for h in history],
        "random": [h["ratings"][-1]["mu"] for h in history],
    }
    for label, values in curves.items():
        bottom.plot(leagues, values, marker="o" if "checkpoint" in label else None, label=label)
    bottom.set_xlabel("training samples")
    bottom.set_ylabel("OpenSkill mu in each league")
    bottom.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
