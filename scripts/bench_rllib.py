"""RLlib PPO on the batched engine against the batched trainer, in training samples per second, in one run.

    python scripts/bench_rllib.py --rounds 1 --iterations 12 --samples 200000

Each round runs, one after the other in fresh processes:

- ``stonk-envs train-rllib --config rllib_stocks_and_bombs`` (the vector path: no remote env
  runner, the local one stepping its ``num_envs_per_env_runner`` games at once), whose figure
  is the learner decisions sampled and learned from over the seconds of its iterations after
  the first (a warm-up), read from its ``metrics.jsonl``;
- ``stonk-envs train --config stocks_and_bombs`` with the warm start and evaluations off
  (:data:`stonk_envs.bench.shared.QUIET_OVERRIDES`) and the RLlib config's game options (so both
  play the same game: the RLlib config has no public memory), whose figure is its own samples/s.

A sample is one decision of a seat the learner holds, in both. Prints each round's figures,
the medians, and the median over rounds of RLlib's share of the trainer's figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

from stonk_envs.bench.shared import train_samples_per_second
from stonk_envs.integrations.rllib_config import load_rllib_config

START_ATTEMPTS = 3
"""Tries of each RLlib run: on a loaded machine Ray's start-up can time out (it waits 30 s for its node)."""


def rllib_samples_per_second(config: str, iterations: int, overrides: list[str]) -> dict:
    """One ``stonk-envs train-rllib`` run in a fresh folder: its samples/s over the iterations after the first."""
    if iterations < 2:
        raise ValueError("the RLlib run needs at least 2 iterations (the first is a warm-up)")
    with tempfile.TemporaryDirectory(prefix="stonk-bench-rllib-") as folder:
        command = [sys.executable, "-m", "stonk_envs.cli", "train-rllib", "--config", config,
                   f"iterations={iterations}", "num_env_runners=0", f"run_dir={folder}/run", *overrides]
        for _ in range(START_ATTEMPTS):
            done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
            if "timed out during startup" not in done.stderr:
                break
        if done.returncode != 0:
            raise RuntimeError(f"train-rllib failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
        lines = [json.loads(line) for line in (Path(folder) / "run" / "metrics.jsonl").read_text().splitlines()]
    timed = lines[1:]
    samples = sum(line["env_steps"] for line in timed)
    seconds = sum(line["seconds"] for line in timed)
    return {"samples_per_second": samples / seconds, "samples": samples, "seconds": seconds,
            "learner_win_rate": lines[-1]["learner_win_rate"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rllib-config", default="rllib_stocks_and_bombs", help="default: %(default)s")
    parser.add_argument("--trainer-config", default="stocks_and_bombs", help="default: %(default)s")
    parser.add_argument("--iterations", type=int, default=12, help="RLlib iterations per run (default: %(default)s)")
    parser.add_argument("--samples", type=int, default=200_000, help="trainer samples per run (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds, each running both (default: %(default)s)")
    parser.add_argument("--rllib", action="append", default=[], metavar="KEY=VALUE",
                        help="an override of the RLlib config (repeatable)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    # the trainer plays the game as RLlib's config sets it (the memory, the reward)
    same_game = [f"env_config.{key}={json.dumps(value)}"
                 for key, value in load_rllib_config(args.rllib_config, args.rllib).env_config.items()]
    rounds = []
    for index in range(args.rounds):
        rllib = rllib_samples_per_second(args.rllib_config, args.iterations, args.rllib)
        trainer = train_samples_per_second(args.trainer_config, [f"total_timesteps={args.samples}", *same_game])
        rounds.append({"rllib": rllib, "trainer": trainer, "ratio": rllib["samples_per_second"] / trainer})
        print(f"round {index + 1}/{args.rounds}: RLlib {rllib['samples_per_second']:,.0f} samples/s "
              f"({rllib['samples']:,.0f} in {rllib['seconds']:.1f} s), trainer {trainer:,.0f} samples/s, "
              f"ratio {rounds[-1]['ratio']:.0%}", flush=True)
    result = {
        "rllib_config": args.rllib_config, "rllib_overrides": args.rllib, "trainer_config": args.trainer_config,
        "cpus": len(os.sched_getaffinity(0)), "load_after": os.getloadavg(), "rounds": rounds,
        "rllib_samples_per_second": median(r["rllib"]["samples_per_second"] for r in rounds),
        "trainer_samples_per_second": median(r["trainer"] for r in rounds),
        "ratio": median(r["ratio"] for r in rounds),
    }
    print(f"| path | samples/s |\n|---|---|\n| RLlib PPO, vector path | {result['rllib_samples_per_second']:,.0f} |\n"
          f"| batched trainer | {result['trainer_samples_per_second']:,.0f} |\n"
          f"RLlib / trainer: {result['ratio']:.0%} (median over {args.rounds} round(s))")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
