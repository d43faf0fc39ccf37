"""Measure a training config over seeds: train each seed, then evaluate, rate its liveliness and exploit it.

    python scripts/measure_config.py --config stocks_and_bombs --seeds 0 1 2 [--name NAME] [KEY=VALUE ...]

For each seed the config (with the overrides) trains in ``runs/measure/<name>/seed_<seed>`` (a seed
whose run has finished is not trained again), and the kept policy is measured:

- against 3 random and 3 heuristic players: the run's final evaluation (fresh games);
- liveliness: points per game and decided games at a table of its copies, beside the heuristic's;
- exploitability: ``stonk-envs exploit``'s best responses at ``--budgets``, both starts, at the
  table of copies and at the mixed table, with seeds that chose no checkpoint of the run.

The figures of every seed go into ``results/<name>.json`` with the command, commit, date and
machine; ``scripts/write_results_tables.py`` writes the docs' tables from it.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIVELINESS_SEED, EXPLOIT_SEED = 1000, 2000
"""Seeds of the measures are these plus the training seed: none chose anything in the run."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a shipped config's name or a YAML file")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--name", default=None, help="the result's name (default: the config's)")
    parser.add_argument("--budgets", type=int, nargs="+", default=[8_000_000],
                        help="best-response budgets (default: %(default)s)")
    parser.add_argument("--eval-games", type=int, default=2000, help="games per best response (default: %(default)s)")
    parser.add_argument("--liveliness-games", type=int, default=500)
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    name = args.name or Path(args.config).stem
    path = ROOT / "results" / f"{name}.json"
    result = json.loads(path.read_text()) if path.exists() else {"name": name, "seeds": {}}
    for seed in args.seeds:
        result["seeds"][str(seed)] = measure_seed(args, name, seed)
        result.update(provenance(args))
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n")
        print(f"{path}: seed {seed} written")
    return 0


def measure_seed(args: argparse.Namespace, name: str, seed: int) -> dict:
    from stonk_envs.configs import shipped_file
    from stonk_envs.evaluation.liveliness import compare
    from stonk_envs.training.config import load_config
    from stonk_envs.training.exploit import exploit
    from stonk_envs.training.exploit_budget import Budget
    from stonk_envs.training.exploit_target import check_fresh_seed, resolve_target
    from stonk_envs.training.trainer import train

    run_dir = ROOT / "runs" / "measure" / name / f"seed_{seed}"
    source = args.config if Path(args.config).is_file() else shipped_file(args.config)
    final_file = run_dir / "final_evaluation.json"
    if not final_file.exists():
        train(load_config(source, [*args.overrides, f"seed={seed}", f"run_dir={run_dir}", "progress=false"]))
    final = json.loads(final_file.read_text())
    policy = run_dir / "policy.zip"
    target = resolve_target(str(policy))
    check_fresh_seed(target, EXPLOIT_SEED + seed)
    alive = compare(target.game, str(policy), args.liveliness_games, target.num_players, target.env_config,
                    LIVELINESS_SEED + seed)
    budget = Budget(budgets=tuple(args.budgets), eval_games=args.eval_games)
    exploited = exploit(target, budget, run_dir / "exploit", EXPLOIT_SEED + seed, progress=False)
    return {
        "policy_sha256": hashlib.sha256(policy.read_bytes()).hexdigest(),
        "steps_trained": final["steps_trained"],
        "policy_step": final["policy_step"],
        "training_seconds": final["training_seconds"],
        "against": {r["opponent"]: {k: r["policy"][k] for k in ("games", "win_share", "win_rate", "ci_low", "ci_high")}
                    | {"share_ci": share_ci(r["policy"])} for r in final["results"]},
        "liveliness": {"points_per_game": alive["player"]["points_per_game"],
                       "decided_share": alive["player"]["decided_share"],
                       "heuristic_points_per_game": alive["reference"]["points_per_game"],
                       "points_ratio": alive["points_ratio"], "games": args.liveliness_games,
                       "seed": LIVELINESS_SEED + seed},
        "exploit": {table["table"]: [{k: point[k] for k in ("budget", "timesteps", "win_share", "share_ci_low",
                                                             "share_ci_high", "best_start", "games")}
                                     | {"starts": {r["start"]: r["win_share"] for r in point["starts"]}}
                                     for point in table["curve"]]
                    for table in exploited["tables"]},
        "exploit_seed": EXPLOIT_SEED + seed,
    }


def share_ci(figures: dict) -> list[float]:
    """The win share's 95% interval (Wilson's at the observed share, as ``exploit`` gives it)."""
    from stonk_envs.evaluation.stats import share_interval

    return list(share_interval(figures["win_share"], figures["games"]))


def provenance(args: argparse.Namespace) -> dict:
    """The command, commit, date and machine of a measurement."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    return {
        "command": " ".join(["python scripts/measure_config.py", *sys.argv[1:]]),
        "config": args.config,
        "overrides": args.overrides,
        "commit": commit.strip() + ("+changes" if dirty else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "machine": f"{cpu_model()}, {os.cpu_count()} cores",
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


if __name__ == "__main__":
    sys.exit(main())
