"""The shipped training configs (package data): one YAML file per game and trainer.

``stocks_and_bombs``, ``stockpile`` and ``stonk_market`` are for ``stonk-envs train``;
``rllib_<game>`` for ``stonk-envs train-rllib``. Wherever a config file is asked for, a shipped
config's name will do: :func:`config_file` turns a name into its file, and a path stays a path.
"""

from __future__ import annotations

import io
import re
from importlib.resources import files
from pathlib import Path

SUFFIX = ".yaml"
RLLIB_PREFIX = "rllib_"
MAX_CONFIG_BYTES = 2**20
"""The largest config file read: 1 MiB (the shipped ones are about 2 KiB)."""


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


def load_yaml(spec: str | Path):
    """The ``key: value`` mapping (an OmegaConf ``DictConfig``) of the config file ``spec`` names.

    Read as plain YAML (no tags that build objects), within :data:`MAX_CONFIG_BYTES`;
    ``ValueError`` naming the file when it is not a regular file, not valid YAML, or holds a
    scalar or a list instead of a mapping.
    """
    import yaml
    from omegaconf import DictConfig, OmegaConf

    from stonk_envs.safe_load import read_file

    path = config_file(spec)
    data = read_file(path, MAX_CONFIG_BYTES, "config file")
    try:
        layer = OmegaConf.load(io.BytesIO(data))
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise ValueError(f"config file {str(path)!r} is not valid YAML: {_first_line(err)}") from None
    except OSError:  # OmegaConf's word for a file holding a scalar ("Invalid loaded object type")
        raise ValueError(f"config file {str(path)!r} must hold key: value pairs, not a single value") from None
    if not isinstance(layer, DictConfig):
        raise ValueError(f"config file {str(path)!r} must hold key: value pairs, not a list")
    return layer


def keys_set(mapping: dict, renames: dict[str, str]) -> dict[str, str]:
    """The dotted keys of ``renames`` that the plain nested ``mapping`` sets, each with its new name."""
    found = {}
    for old, new in renames.items():
        node = mapping
        for part in old.split("."):
            node = node.get(part, _ABSENT) if isinstance(node, dict) else _ABSENT
        if node is not _ABSENT:
            found[old] = new
    return found


_ABSENT = object()


def merge(schema, *layers):
    """``OmegaConf.merge(schema, *layers)``; ``ValueError`` naming the top-level key where a list meets a mapping,
    and the key given no value (``run_dir=``, ``run_dir:``) where the schema needs one."""
    from omegaconf import OmegaConf
    from omegaconf.errors import ValidationError

    try:
        return OmegaConf.merge(schema, *layers)
    except ValidationError as err:
        key = getattr(err, "full_key", None)
        if key and _given_empty(key, layers):
            raise ValueError(f"invalid config: {key} must not be empty") from None
        raise
    except TypeError:  # OmegaConf's word for a list given where the schema has a mapping, or the reverse
        for layer in layers:
            for key in layer:
                try:
                    OmegaConf.merge(schema, OmegaConf.masked_copy(layer, [key]))
                except TypeError:
                    raise ValueError(f"invalid config: {key!r} holds a list where a mapping belongs, or a "
                                     "mapping where a list belongs") from None
        raise


def _given_empty(key: str, layers) -> bool:
    """Whether the last of ``layers`` that sets ``key`` sets it to nothing (null)."""
    from omegaconf import OmegaConf

    absent = object()
    given = [value for layer in layers if (value := OmegaConf.select(layer, key, default=absent)) is not absent]
    return bool(given) and given[-1] is None


def _first_line(err: Exception) -> str:
    return " ".join(str(err).split())[:300]
