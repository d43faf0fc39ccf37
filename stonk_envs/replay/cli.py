"""Replay a game record: step through it in the terminal, or export it as GIF, MP4 or an HTML page.

The record is played again through the rules and checked against its own results first; a
damaged record, or one from another version or config, fails with an error naming the problem.
"""

from __future__ import annotations

import argparse
import sys
import time

from stonk_envs.cli_args import input_file, output_file


def seat_option(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"a seat is a number 0, 1, ..., got {text!r}")
    return int(text)


def positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"expected a number of frames per second in (0, 60], got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=input_file, help="a game record (.json), from stonk-envs play, evaluate or an env")
    parser.add_argument(
        "--seat", type=seat_option, default=None, help="show the table as this seat sees it (default: everything)"
    )
    parser.add_argument("--gif", type=output_file, default=None, help="write an animated GIF here")
    parser.add_argument("--mp4", type=output_file, default=None, help="write an MP4 video here (needs the video extra)")
    parser.add_argument(
        "--html", type=output_file, default=None, help="write a self-contained HTML page (pictures, slider, moves) here"
    )
    parser.add_argument("--fps", type=positive_float, default=4.0, help="frames a second in GIF and MP4 (default: 4)")
    parser.add_argument("--stride", type=positive_int, default=1, help="show every Nth step (default: 1)")
    parser.add_argument("--skip-quiet", action="store_true", help="leave out steps in which everyone only waited")
    parser.add_argument(
        "--any-version",
        action="store_true",
        help="replay a record written by another stonk_envs version (still checked against its results)",
    )


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from stonk_envs.records import GameRecord, RecordError
    from stonk_envs.replay import export
    from stonk_envs.replay.terminal import step_through
    from stonk_envs.replay.timeline import choose, timeline

    try:
        outputs = {kind: getattr(args, kind) for kind in export.EXPORT_SUFFIXES if getattr(args, kind) is not None}
        for kind, path in outputs.items():
            export.check_output(path, kind)
        record = GameRecord.load(args.file)
        if args.seat is not None and args.seat >= record.num_players:
            raise ValueError(f"--seat {args.seat}: the game has seats 0..{record.num_players - 1}")
        game, moments = timeline(record, allow_other_version=args.any_version, viewer=args.seat)
        shown = choose(moments, args.stride, args.skip_quiet)
    except (RecordError, ValueError) as error:
        print(f"stonk-envs replay: error: {error}", file=sys.stderr)
        return 2
    total = len(record.actions)
    if not outputs:
        step_through(Console(), game, shown, total, args.seat, record.players)
        return 0
    started = time.perf_counter()
    pictures = export.frames(game, shown, args.seat)
    drawn = time.perf_counter() - started
    print(f"{len(pictures)} pictures of {total} steps drawn in {drawn:.2f} s")
    view = "everything" if args.seat is None else f"player_{args.seat}"
    try:
        for kind, path in outputs.items():
            started = time.perf_counter()
            if kind == "gif":
                export.write_gif(path, pictures, args.fps)
            elif kind == "mp4":
                export.write_mp4(path, pictures, args.fps)
            else:
                export.write_html(
                    path, f"{record.game}: {args.file.name} ({view})", shown, pictures, total, record.players
                )
            print(f"{kind}: {path} ({path.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - started:.2f} s)")
    except ValueError as error:
        print(f"stonk-envs replay: error: {error}", file=sys.stderr)
        return 2
    return 0
