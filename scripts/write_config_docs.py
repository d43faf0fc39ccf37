"""Write docs/config_keys.md: every key of the training and RLlib configs, from their schemas' docstrings.

    python scripts/write_config_docs.py [--check]

``--check`` writes nothing and fails when the page differs from what the schemas give (as the
docs test does).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stonk_envs.configs.keys import key_tables

PAGE = Path(__file__).resolve().parents[1] / "docs" / "config_keys.md"
INTRO = """# Config keys

Every key of the two training configs, with its default and meaning. This page is written from the
schemas' field docstrings (`stonk_envs/training/config.py`, `stonk_envs/integrations/rllib_config.py`)
by `python scripts/write_config_docs.py`, and a docs test fails when it and the schemas disagree.
Give a key in a YAML file (`section:` then `key:` indented) or as an override, `section.key=value`
([training.md](training.md#configs)).

## `stonk-envs train`

The common keys, then each trainer's own section: `ppo` for the batched trainer (`trainer: ppo`, the
default), `sb3` for sb3-contrib's MaskablePPO (`trainer: sb3`). A trainer reads the common keys and its
own section; the other section is checked but unused. Both sections take the same PPO
hyperparameters, under the same names; a key the earlier config shape kept elsewhere is refused with
its new name, and `--resume` translates a run folder saved in that shape."""
RLLIB = """## `stonk-envs train-rllib`

RLlib's PPO ([integrations.md](integrations.md#self-play-on-rllib)). Where an idea is the same as the
training config's, so is the name (`learning_rate`, `batch_size`, `n_epochs`, `ent_coef`, `net_arch`,
`league.current`, `league.past`); RLlib's own name is given in the meaning."""


def page() -> str:
    """The page's Markdown, from the schemas."""
    from stonk_envs.integrations.rllib_config import RLlibConfig
    from stonk_envs.training.config import TrainConfig

    return f"{INTRO}\n\n{key_tables(TrainConfig)}\n\n{RLLIB}\n\n{key_tables(RLlibConfig)}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the page is out of date; write nothing")
    args = parser.parse_args()
    text = page()
    if args.check:
        if PAGE.read_text() != text:
            print(f"{PAGE} differs from the schemas; run python scripts/write_config_docs.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
