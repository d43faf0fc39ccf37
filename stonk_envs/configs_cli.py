"""List the shipped training configs, print them, or copy them into a folder to edit.

With no NAME, lists them; with NAMEs, prints those; with --copy DIR, copies them (all, or the
NAMEs) into DIR. The --config of train and train-rllib takes a shipped config's name
(stonk-envs train --config stocks_and_bombs) or the path of a YAML file, such as a copy made here.
"""

from __future__ import annotations

import argparse
import shutil

from stonk_envs import cli_args, configs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="shipped configs to print, or to copy with --copy (default: all of them)")
    parser.add_argument("--copy", type=cli_args.output_dir, default=None, metavar="DIR",
                        help="copy the configs into DIR as NAME.yaml (existing files are left alone: error)")


def run(args: argparse.Namespace) -> int:
    chosen = args.names or configs.names()
    sources = [configs.shipped_file(name) for name in chosen]  # ValueError names an unknown one
    if args.copy is None:
        if args.names:
            print("\n".join(source.read_text(encoding="utf-8") for source in sources), end="")
            return 0
        width = max(map(len, chosen))
        for name in chosen:
            print(f"{name:<{width}}  stonk-envs {configs.command_of(name)}: {configs.summary(name)}")
        return 0
    targets = [args.copy / source.name for source in sources]
    taken = [str(target) for target in targets if target.exists()]
    if taken:
        raise ValueError(f"--copy: would overwrite {', '.join(taken)}")
    args.copy.mkdir(parents=True, exist_ok=True)
    for source, target in zip(sources, targets, strict=True):
        shutil.copyfile(source, target)
        print(target)
    return 0
