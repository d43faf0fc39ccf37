"""Train a self-play policy (batched PPO or MaskablePPO): ``stonk-envs train --config <game>``.

``--config`` takes a shipped config's name (``stonk-envs configs`` lists them) or a YAML file.
Overrides follow as ``KEY=VALUE``, e.g.
``total_timesteps=500000 ppo.learning_rate=1e-3 league.random=0.5``. ``--resume RUN_DIR``
continues a stopped run from its newest checkpoint.
"""

from __future__ import annotations

import argparse
import sys

from stonk_envs import cli_args

EXTRA = "training"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=cli_args.config, help=cli_args.CONFIG_HELP)
    parser.add_argument("--resume", type=cli_args.input_dir, metavar="RUN_DIR",
                        help="continue the run in RUN_DIR from its newest checkpoint")
    cli_args.add_trust_file(parser)
    cli_args.add_overrides(parser, "total_timesteps=500000 ppo.learning_rate=1e-3")


def run(args: argparse.Namespace) -> int:
    from stonk_envs.training.config import load_config
    from stonk_envs.training.trainer import resume, train

    try:
        if args.resume is not None:
            if args.config:
                raise ValueError("--resume uses the run's own config.yaml; give overrides instead of --config")
            resume(args.resume, args.overrides)
        else:
            train(load_config(args.config, args.overrides))
    except ValueError as err:
        print(f"stonk-envs train: error: {err}", file=sys.stderr)
        return 2
    return 0
