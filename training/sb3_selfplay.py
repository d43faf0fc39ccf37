"""Self-play with sb3-contrib's MaskablePPO, as a script to read and copy.

    python training/sb3_selfplay.py total_timesteps=200000 game=stonk_market

The learner holds one seat of each of ``num_envs`` games; the league (its past selves, the
heuristic and random players) holds the others. Without ``--config`` the run starts from the
schema's defaults; this trainer's own keys are in the config's ``sb3`` section (docs/training.md).
Any config key can follow as ``KEY=VALUE``.
"""

import argparse

from stonk_envs.training.config import load_config
from stonk_envs.training.trainer import train


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="a YAML file with sb3 settings (default: the schema's defaults)")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config, [*args.overrides, "trainer=sb3"])
    except ValueError as err:
        parser.error(str(err))
    train(config)


if __name__ == "__main__":
    main()
