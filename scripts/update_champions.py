"""Regenerate a game's champion: train its shipped config (or take a run folder's policy), package it, index it.

    python scripts/update_champions.py --game stockpile [--seed 0] [KEY=VALUE ...]
    python scripts/update_champions.py --game stockpile --run-dir runs/measure/stockpile/seed_0

Without ``--run-dir`` the game's shipped config (``--config``, default: the game's name) trains with
``seed`` and the overrides in ``runs/champions/<game>`` (a finished run there is reused). The run's
``policy.zip`` is copied to ``stonk_envs/champions/<game>.zip`` and the index is rewritten with its
SHA-256, player count, training command (the shipped config plus every key the run changed), seed,
the run's final evaluation, and the result file and seed that measure it: ``results/<config>.json``
(``--result``). When that file holds the seed, its policy must be this one (else the script stops)
and its figures are copied into the index, so the card reads them from an installed package too.
Last, docs/champions.md's cards and the game's leaderboard are rewritten (``scripts/write_champion_docs.py``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN_ONLY = ("run_dir", "progress")
"""Config keys that say where and how visibly a run trains, not what it trains."""


def main(argv: list[str] | None = None) -> int:
    from stonk_envs import champions, registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=registry.names())
    parser.add_argument("--config", default=None, help="the shipped config (default: the game's name)")
    parser.add_argument("--seed", type=int, default=None, help="training seed (default: the config's)")
    parser.add_argument("--run-dir", type=Path, default=None,
                        help="a finished run folder whose policy to package, instead of training one")
    parser.add_argument("--result", default=None, help="the result file that measures the champion "
                        "(default: results/<config>.json)")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="training config overrides")
    args = parser.parse_args(argv)
    config = args.config or args.game
    run_dir = args.run_dir or train(config, args.game, args.seed, args.overrides)
    entry = package(args.game, config, run_dir, args.result or f"results/{config}.json")
    index = {"format": champions.FORMAT, "champions": {**read_champions(champions.INDEX), args.game: entry}}
    champions.INDEX.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    print(f"{args.game} champion: {champions.FOLDER / entry['file']} ({entry['sha256'][:12]}), "
          f"from {run_dir}; result {entry['result']['file']} seed {entry['result']['seed']}: "
          f"{'measured' if entry['measured'] else 'not measured yet'}")
    return write_docs(args.game)


def train(config: str, game: str, seed: int | None, overrides: list[str]) -> Path:
    """Train ``config`` into ``runs/champions/<game>`` unless a finished run is there; the run folder."""
    from stonk_envs.configs import shipped_file
    from stonk_envs.training.config import load_config
    from stonk_envs.training.trainer import train as train_run

    run_dir = ROOT / "runs" / "champions" / game
    if not (run_dir / "final_evaluation.json").exists():
        seeded = [*overrides, f"seed={seed}"] if seed is not None else overrides
        train_run(load_config(shipped_file(config), [*seeded, f"run_dir={run_dir}", "progress=false"]))
    return run_dir


def package(game: str, config: str, run_dir: Path, result_file: str) -> dict:
    """Copy the run's policy into the package; its index entry."""
    from stonk_envs import champions
    from stonk_envs.configs import shipped_file
    from stonk_envs.policies.checkpoint import read_metadata
    from stonk_envs.training.config import load_config, load_saved_config, to_dict

    policy = run_dir / "policy.zip"
    meta = read_metadata(policy)
    if meta["game"] != game:
        raise SystemExit(f"error: {policy} is a policy for {meta['game']}, not {game}")
    trained = to_dict(load_saved_config(run_dir))
    changed = [f"{key}={json.dumps(value) if not isinstance(value, str) else value}"
               for key, value in differences(to_dict(load_config(shipped_file(config))), trained)
               if key not in RUN_ONLY and key != "seed"]
    seed = trained["seed"]
    final = json.loads((run_dir / "final_evaluation.json").read_text())
    source_commit = commit()  # before the copy changes the checkout
    target = champions.FOLDER / f"{game}.zip"
    shutil.copyfile(policy, target)
    sha = champions.file_sha256(target)
    return {
        "file": target.name,
        "sha256": sha,
        "num_players": [meta["num_players"]],
        "config": config,
        "seed": seed,
        "overrides": changed,
        "command": shlex.join(["stonk-envs", "train", "--config", config, f"seed={seed}", *changed]),
        "commit": source_commit,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "training": {"steps_trained": final["steps_trained"], "policy_step": final["policy_step"],
                     "against": {r["opponent"]: against(r["policy"]) for r in final["results"]}},
        "result": {"file": result_file, "seed": str(seed)},
        "measured": measured(ROOT / result_file, str(seed), sha),
        "weaknesses": [],
    }


def differences(shipped: dict, trained: dict, prefix: str = "") -> list[tuple[str, object]]:
    """``(dotted key, trained value)`` for every key whose value the run changed from the shipped config."""
    found = []
    for key, value in trained.items():
        if isinstance(value, dict) and isinstance(shipped.get(key), dict):
            found += differences(shipped[key], value, f"{prefix}{key}.")
        elif shipped.get(key) != value:
            found.append((f"{prefix}{key}", value))
    return found


def against(figures: dict) -> dict:
    """A final evaluation's figures against one opponent, as the result files give them: with the win share's
    95% interval."""
    from stonk_envs.evaluation.stats import share_interval

    kept = {key: figures[key] for key in ("games", "win_share", "win_rate", "ci_low", "ci_high")}
    return kept | {"share_ci": list(share_interval(figures["win_share"], figures["games"]))}


def measured(path: Path, seed: str, sha: str) -> dict | None:
    """The result file's figures of ``seed`` and its provenance, or None when it does not hold the seed yet."""
    if not path.is_file():
        return None
    result = json.loads(path.read_text())
    figures = result.get("seeds", {}).get(seed)
    if figures is None:
        return None
    if figures["policy_sha256"] != sha:
        raise SystemExit(f"error: {path} seed {seed} measured the policy {figures['policy_sha256'][:12]}, not this "
                         f"one ({sha[:12]}): package the measured run's policy (--run-dir)")
    return {key: result[key] for key in ("command", "commit", "date", "machine")} | {"figures": figures}


def read_champions(path: Path) -> dict:
    from stonk_envs import champions

    return champions.read_index(path) if path.exists() else {}


def commit() -> str:
    """The checkout's commit, marked when it has changes."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    return head.strip() + ("+changes" if dirty else "")


def write_docs(game: str) -> int:
    """Rewrite docs/champions.md's cards, and the leaderboard of ``game``."""
    spec = importlib.util.spec_from_file_location("write_champion_docs", ROOT / "scripts" / "write_champion_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(["--leaderboards", game])


if __name__ == "__main__":
    sys.exit(main())
