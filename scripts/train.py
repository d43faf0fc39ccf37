"""Self-play training without the console entry point: ``python scripts/train.py --config <game>``.

Takes the same arguments as ``stonk-envs train``.
"""

import sys

from stonk_envs.cli import main

if __name__ == "__main__":
    sys.exit(main(["train", *sys.argv[1:]]))
