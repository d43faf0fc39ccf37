"""The batched trainer's samples/s alone and beside one and two busy processes, in one run.

    python scripts/bench_shared.py --config stocks_and_bombs --rounds 3 \\
        --variant "fixed 2=torch_threads=2" --variant "free cores=torch_threads=0"

Each ``--variant NAME=KEY=VALUE[,KEY=VALUE...]`` adds config overrides to its runs; see
``stonk_envs/bench/shared.py`` for what is measured.
"""

import argparse
import json
import sys
from pathlib import Path

from stonk_envs.bench.shared import run_shared_bench, table


def variant(text: str) -> tuple[str, dict]:
    name, sep, overrides = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a variant is NAME=KEY=VALUE[,KEY=VALUE...], got {text!r}")
    return name, {"overrides": [item for item in overrides.split(",") if item]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="stocks_and_bombs", help="training config (default: %(default)s)")
    parser.add_argument("--samples", type=int, default=200_000, help="samples per run (default: %(default)s)")
    parser.add_argument("--busy", type=int, nargs="+", default=[1, 2], help="busy process counts (default: 1 2)")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (default: %(default)s)")
    parser.add_argument("--variant", type=variant, action="append", help="NAME=overrides (repeatable)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    result = run_shared_bench(args.config, [f"total_timesteps={args.samples}"], args.busy, args.rounds,
                              dict(args.variant) if args.variant else None)
    print(table(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
