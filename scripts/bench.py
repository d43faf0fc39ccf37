"""Run the benchmark (the same as ``stonk-envs bench``); arguments as for that command."""

import sys

from stonk_envs.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
