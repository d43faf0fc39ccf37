"""Self-play with the batched PPO trainer, as a script to read and copy.

    python training/ppo_selfplay.py --config stocks_and_bombs total_timesteps=500000

One shared policy plays every seat it holds in every game of a batched engine; each of those
decisions is a training sample. The config keys are documented in docs/training.md; any of them
can follow as ``KEY=VALUE``. The run folder (``run_dir``) gets checkpoints, curves and the policy.
"""

import argparse

from stonk_envs.training.config import load_config
from stonk_envs.training.trainer import train


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="a shipped config's name (stonk-envs configs lists them) or a YAML file")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config, [*args.overrides, "trainer=ppo"])
    except ValueError as err:
        parser.error(str(err))
    train(config)


if __name__ == "__main__":
    main()
