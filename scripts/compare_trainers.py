"""Training samples per second of the two trainers, side by side, on each game's shipped config.

For each game, the sb3-contrib trainer and then the batched ppo trainer each play and learn
a first rollout (warm-up: compiling, allocating), then ``--rollouts`` more that are timed:
samples (learner decisions) over seconds, PPO updates included, evaluation excluded.

    python scripts/compare_trainers.py --games stockpile stonk_market stocks_and_bombs
    python scripts/compare_trainers.py --games stockpile --ppo-set ppo.n_epochs=1 ppo.batch_size=2048
    python scripts/compare_trainers.py --sb3-set torch_threads=1
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from stonk_envs.configs import shipped_file
from stonk_envs.training.config import load_config

GAMES = ("stocks_and_bombs", "stonk_market", "stockpile")


def sb3_rate(config_file: Path, rollouts: int, run_dir: str, overrides: list[str]) -> float:
    from stonk_envs.training.sb3_run import SB3Run

    config = load_config(config_file, ["trainer=sb3", "eval.crossplay_games=0",
                                       "num_envs=16", "sb3.n_steps=128", "sb3.batch_size=512", "sb3.n_epochs=4",
                                       "sb3.learning_rate=0.0003", "sb3.net_arch=[128,128]", "league.current=0.4",
                                       "league.past=0.2", "league.heuristic=0.1", "league.random=0.3",
                                       f"run_dir={run_dir}", "progress=false", *overrides])
    run = SB3Run(config)
    run.new_model()
    per_rollout = config.num_envs * config.sb3.n_steps
    run.model.learn(per_rollout, reset_num_timesteps=False)
    started, before = time.perf_counter(), run.model.num_timesteps
    run.model.learn(per_rollout * rollouts, reset_num_timesteps=False)
    return (run.model.num_timesteps - before) / (time.perf_counter() - started)


def ppo_rate(config_file: Path, rollouts: int, run_dir: str, overrides: list[str]) -> float:
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    from stonk_envs.training.ppo.run import PPORun

    config = load_config(config_file, [f"run_dir={run_dir}", "progress=false", "ppo.device=cpu", *overrides])
    run = PPORun(config)
    run.new_model()
    run.writer, run.bar = SummaryWriter(run_dir), tqdm(disable=True)
    run._train_one_rollout()
    started, before = time.perf_counter(), run.step
    for _ in range(rollouts):
        run._train_one_rollout()
    return (run.step - before) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--rollouts", type=int, default=3, help="timed rollouts per trainer (default: 3)")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--ppo-set", nargs="*", default=[], metavar="KEY=VALUE",
                        help="overrides of the batched trainer's config, e.g. ppo.n_epochs=1 num_envs=1024")
    parser.add_argument("--sb3-set", nargs="*", default=[], metavar="KEY=VALUE",
                        help="overrides of the sb3 trainer's config, e.g. torch_threads=1")
    args = parser.parse_args()
    rows = []
    for game in args.games:
        config_file = shipped_file(game)
        with tempfile.TemporaryDirectory() as tmp:
            when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            sb3 = sb3_rate(config_file, args.rollouts, f"{tmp}/sb3", args.sb3_set)
            ppo = ppo_rate(config_file, args.rollouts, f"{tmp}/ppo", args.ppo_set)
        rows.append({"game": game, "started": when, "ppo_overrides": args.ppo_set, "sb3_overrides": args.sb3_set,
                     "sb3_samples_per_s": sb3,
                     "ppo_samples_per_s": ppo, "ratio": ppo / sb3})
        print(f"{game:<18} sb3 {sb3:>9,.0f}/s   ppo {ppo:>9,.0f}/s   ppo/sb3 {ppo / sb3:5.1f}x   ({when})", flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
