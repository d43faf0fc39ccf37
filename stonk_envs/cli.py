"""The ``stonk-envs`` command: one subcommand per job, each in its own module.

Each module named in ``SUBCOMMANDS`` has a docstring (its help, shown as plain text: code marks
are dropped, paragraphs kept), ``add_arguments(parser)`` and ``run(args) -> int``, and may name the
extra it needs as ``EXTRA``. Its module level imports nothing from an extra, so the help works on
the base install; a module ``run`` misses is reported as the extra to install (exit 2).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

from stonk_envs import __version__
from stonk_envs.extras import extra_for, needs_extra_message

SUBCOMMANDS = {
    "bench": "stonk_envs.bench.cli",
    "card": "stonk_envs.evaluation.card_cli",
    "configs": "stonk_envs.configs_cli",
    "convert": "stonk_envs.convert",
    "crossplay": "stonk_envs.evaluation.crossplay_cli",
    "demo": "stonk_envs.demo",
    "evaluate": "stonk_envs.evaluation.cli",
    "exploit": "stonk_envs.training.exploit_cli",
    "leaderboard": "stonk_envs.evaluation.leaderboard_cli",
    "liveliness": "stonk_envs.evaluation.liveliness_cli",
    "play": "stonk_envs.play.cli",
    "replay": "stonk_envs.replay.cli",
    "serve": "stonk_envs.serve.cli",
    "soak": "stonk_envs.soak.cli",
    "train": "stonk_envs.training.cli",
    "train-rllib": "stonk_envs.integrations.rllib_train",
}


def plain(text: str) -> str:
    """A docstring as help text: ``code`` and roles such as :class:`~a.B` (shown as ``B``) without their marks."""
    text = re.sub(r":\w+:`~[\w.]*?(\w+)`", r"\1", text)
    return re.sub(r":\w+:`([^`]*)`", r"\1", text).replace("``", "")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stonk-envs", description=plain(__doc__).splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        text = plain(module.__doc__ or name).strip()
        command = sub.add_parser(name, help=text.splitlines()[0].replace("%", "%%"), description=text,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(command)
        command.set_defaults(run=module.run, extra=getattr(module, "EXTRA", None))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; a bad value it finds, or an extra it needs, is reported as
    ``stonk-envs <cmd>: error: ...`` (exit 2)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ModuleNotFoundError as err:
        extra = extra_for(err, args.extra)
        if extra is None:
            raise
        print(f"stonk-envs {args.command}: error: {needs_extra_message(extra)}", file=sys.stderr)
        return 2
    except (ValueError, TypeError) as err:
        print(f"stonk-envs {args.command}: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # a file system refusal found during the work (disk full, permissions)
        print(f"stonk-envs {args.command}: error: {err.strerror or err}: {err.filename or ''}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
