"""The shipped training configs (package data): one YAML file per game and trainer.

``stocks_and_bombs``, ``stockpile`` and ``stonk_market`` are for ``stonk-envs train``;
``rllib_<game>`` for ``stonk-envs train-rllib``. Wherever a config file is asked for, a shipped
config's name will do: :func:`config_file` turns a name into its file, and a path stays a path.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

SUFFIX = ".yaml"
RLLIB_PREFIX = "rllib_"


def _folder() -> Path:
    return Path(str(files(__name__)))


def names() -> list[str]:
    """The names of the shipped configs, sorted."""
    return sorted(path.stem for path in _folder().glob(f"*{SUFFIX}"))


def command_of(name: str) -> str:
    """The ``stonk-envs`` subcommand that takes the shipped config ``name``."""
    return "train-rllib" if name.startswith(RLLIB_PREFIX) else "train"


def summary(name: str) -> str:
    """The opening clause of the shipped config's header comment (up to its first ``.`` or ``:``)."""
    header = []
    for line in (_folder() / f"{name}{SUFFIX}").read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        header.append(line.lstrip("#").strip())
    return re.split(r"[.:](?:\s|$)", " ".join(header), maxsplit=1)[0]


def shipped_file(name: str) -> Path:
    """The file of the shipped config ``name`` (``.yaml`` may be given); ``ValueError`` if none."""
    stem = name.removesuffix(SUFFIX)
    if stem not in names():
        raise ValueError(f"no shipped config named {name!r}; shipped: {', '.join(names())}")
    return _folder() / f"{stem}{SUFFIX}"


def config_file(spec: str | Path) -> Path:
    """The config file ``spec`` names: an existing file, else a shipped config's name.

    Raises ``ValueError`` when ``spec`` is neither.
    """
    path = Path(spec)
    if path.is_file():
        return path
    if path.name == str(spec) and path.name.removesuffix(SUFFIX) in names():
        return shipped_file(path.name)
    raise ValueError(f"config file {str(spec)!r} does not exist, and no shipped config has that name "
                     f"(shipped: {', '.join(names())})")
