"""Digests of what each shipped config trains, on a short version of its run: a check that a change to
the training code changes no result.

Each shipped config runs with its budgets cut (``--scale`` of its samples, intervals and
best-response budgets), so that every part it uses (the warm start, snapshots, exploiters,
evaluations, best responses, cross-play, keeping) still runs at least once. The digests cover the
tensors only (the kept policy's weights, and the final training state's network and optimiser), not
the file bytes, whose metadata hold the config's text.

    python scripts/policy_digests.py [--games stockpile ...] [--scale 0.02] [--out digests.json]

Run it before and after a change, on the same machine, with the same torch thread count: equal
digests mean the change trained the same policies, bit for bit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from pathlib import Path

import torch

from stonk_envs.configs import shipped_file
from stonk_envs.training.config import load_config

SCALED = (
    "total_timesteps", "checkpoint_interval", "ppo.imitation.samples", "league.snapshot_interval",
    "ppo.league.exploiter_samples", "eval.interval", "eval.exploit_samples", "eval.exploit_from",
)
"""Sample counts and intervals that the scale cuts (each stays at least 1 where it was positive)."""
GAMES_CUT = {"eval.num_games": 20, "eval.final_num_games": 40, "eval.crossplay_games": 8, "eval.exploit_games": 40}
"""Evaluation games, cut to a few."""


def tensor_digest(tree) -> str:
    """sha256 over every tensor of a nested dict or list, in key order, with its dtype and shape."""
    digest = hashlib.sha256()

    def visit(node, name: str) -> None:
        if isinstance(node, torch.Tensor):
            digest.update(f"{name}:{node.dtype}:{tuple(node.shape)}".encode())
            digest.update(node.detach().cpu().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes())
        elif isinstance(node, dict):
            for key in sorted(node, key=str):
                visit(node[key], f"{name}.{key}")
        elif isinstance(node, (list, tuple)):
            for index, item in enumerate(node):
                visit(item, f"{name}[{index}]")

    visit(tree, "")
    return digest.hexdigest()[:16]


def short_overrides(game: str, scale: float) -> list[str]:
    """The shipped config of ``game`` with its budgets multiplied by ``scale``."""
    config = load_config(shipped_file(game))

    def get(key: str):
        node = config
        for part in key.split("."):
            node = getattr(node, part)
        return node

    overrides = []
    for key in SCALED:
        try:
            value = get(key)
        except AttributeError:
            continue
        if value:
            overrides.append(f"{key}={max(1, int(value * scale))}")
    for key, games in GAMES_CUT.items():
        try:
            get(key)
        except AttributeError:
            continue
        overrides.append(f"{key}={games}")
    return [*overrides, "progress=false", "torch_threads=2"]


def digests(game: str, scale: float) -> dict[str, str]:
    """Train the short run of ``game`` in a temporary folder and digest its kept policy and final state."""
    from stonk_envs.safe_load import load_tensors
    from stonk_envs.training.run_state import latest_checkpoint, load_state
    from stonk_envs.training.trainer import train

    with tempfile.TemporaryDirectory() as folder:
        config = load_config(shipped_file(game), [*short_overrides(game, scale), f"run_dir={folder}/run"])
        report = train(config)
        run = Path(folder) / "run"
        _, _, state_file = latest_checkpoint(run)
        state = load_state(state_file)
        policy = load_tensors(run / "policy.zip", "the kept policy")
        return {
            "policy": tensor_digest(policy["state_dict"]),
            "network": tensor_digest(state["net"]),
            "optimizer": tensor_digest(state["optimizer"]["state"]),
            "policy_step": report["policy_step"],
            "steps": report["steps_trained"],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["stocks_and_bombs", "stonk_market", "stockpile"])
    parser.add_argument("--scale", type=float, default=0.02, help="the fraction of each budget kept")
    parser.add_argument("--out", type=Path, help="also write the digests to this JSON file")
    args = parser.parse_args()
    torch.set_num_threads(2)
    found = {game: digests(game, args.scale) for game in args.games}
    for game, row in found.items():
        print(game, json.dumps(row))
    if args.out:
        args.out.write_text(json.dumps(found, indent=2) + "\n")


if __name__ == "__main__":
    main()
