"""Convert a saved policy once into the safe torch format: ``stonk-envs convert SOURCE OUT [--trust-file]``.

SOURCE is any policy file or folder ``load_policy`` reads: an SB3 zip (also one with custom
objects), an RLlib checkpoint folder or a torch policy file. Files that can only be read by
unpickling them (which runs their code) need ``--trust-file``: do it once, for a file from
someone you trust, and share the converted file. OUT is a torch policy file
(``{"metadata", "state_dict"}``, read back with ``weights_only=True``) whose network is a
:class:`~stonk_envs.policies.torch_policy.MaskedMLP`; the conversion is checked by comparing
the logits of both on random observations, and refused when the network is not a tanh MLP.
"""

from __future__ import annotations

import argparse

from stonk_envs import cli_args

EXTRA = "training"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", type=cli_args.player, help="the policy file or folder to convert")
    parser.add_argument("out", type=cli_args.output_file, help="the torch policy file to write")
    cli_args.add_trust_file(parser)


def run(args: argparse.Namespace) -> int:
    from stonk_envs.policies.convert import convert

    path = convert(args.source, args.out, trust=args.trust_file)
    print(f"wrote {path}; it loads without --trust-file")
    return 0
