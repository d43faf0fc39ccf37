"""Self-play with sb3-contrib's MaskablePPO, as a script to read and copy.

    python training/sb3_selfplay.py --config stocks_and_bombs total_timesteps=200000

The learner holds one seat of each of ``num_envs`` games; the league (its past selves, the
heuristic and random players) holds the others. The config keys are documented in
docs/training.md; any of them can follow as ``KEY=VALUE``.
"""

import argparse

from stonk_envs.training.config import load_config
from stonk_envs.training.trainer import train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="a shipped config's name (stonk-envs configs lists them) or a YAML file")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides")
    args = parser.parse_args()
    config = load_config(args.config, [*args.overrides, "trainer=sb3"])
    train(config)


if __name__ == "__main__":
    main()
