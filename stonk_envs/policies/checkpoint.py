"""Saved policies: one file with its metadata (game, seat layout, spaces, config, versions).

- An SB3 / sb3-contrib model is its usual ``.zip`` with one extra member,
  ``stonk_envs_metadata.json``.
- A plain torch policy (:class:`~stonk_envs.policies.torch_policy.MaskedMLP`) is a
  ``torch.save`` file of ``{"metadata": {...}, "state_dict": {...}}``.
- An RLlib learner module is its checkpoint folder with ``stonk_envs_metadata.json`` in it
  (:mod:`stonk_envs.integrations.rllib_modules`; needs the ``rllib`` extra). RLlib reads it
  by unpickling, so it loads only when trusted; ``stonk-envs convert`` turns it into a torch file.

Loading runs no code from the file (:mod:`stonk_envs.safe_load`): an SB3 zip's policy is
rebuilt from its readable parts (:mod:`stonk_envs.policies.sb3_zip`), a torch file is read
with ``weights_only=True``.

Files are written atomically (:func:`stonk_envs.files.atomic_write`, with the user's umask), and
:func:`load_policy` refuses a file made for another game, player count, observation version
(:data:`stonk_envs.registry.OBSERVATION_VERSION`), or space size.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import zipfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import torch

from stonk_envs.files import atomic_write, atomic_write_bytes
from stonk_envs.policies.base import Policy
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.sb3_policy import SB3Policy
from stonk_envs.policies.sb3_zip import SB3Zip
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy
from stonk_envs.policies.weights import check_architecture_fits, check_finite, mlp_parameters
from stonk_envs.registry import GAME_MODULES, OBSERVATION_VERSION, env_id
from stonk_envs.safe_load import (
    MAX_JSON_BYTES,
    TRUST_HINT,
    UntrustedFileError,
    check_archive,
    check_regular_file,
    load_tensors,
    parse_json,
    read_json,
    read_member,
    trusted,
)

FORMAT = "stonk_envs.policy/1"
METADATA_MEMBER = "stonk_envs_metadata.json"
SB3_ALGORITHMS = {
    "MaskablePPO": "sb3_contrib",
    "PPO": "stable_baselines3",
    "A2C": "stable_baselines3",
}
"""The SB3 classes a saved model may be, and the package each comes from."""
REQUIRED = {
    "format": str,
    "game": str,
    "num_players": int,
    "observation_size": int,
    "num_actions": int,
    "env_config": dict,
    "kind": str,
}


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def make_metadata(
    game: str,
    num_players: int,
    observation_size: int,
    num_actions: int,
    env_config: dict,
    kind: str,
    extra: dict | None = None,
) -> dict:
    """The metadata of a saved policy, with a format tag and the versions it was made with."""
    if game not in GAME_MODULES:
        raise ValueError(f"unknown game {game!r}; choose one of {sorted(GAME_MODULES)}")
    for name, value in (
        ("num_players", num_players),
        ("observation_size", observation_size),
        ("num_actions", num_actions),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    metadata = {
        "format": FORMAT,
        "game": game,
        "num_players": num_players,
        "observation_size": observation_size,
        "num_actions": num_actions,
        "env_config": dict(env_config),
        "kind": str(kind),
        "observation_version": OBSERVATION_VERSION,
        "extra": dict(extra or {}),
        "versions": {
            "stonk_envs": _version("stonk_envs"),
            "python": platform.python_version(),
            "numpy": _version("numpy"),
            "torch": _version("torch"),
            "stable-baselines3": _version("stable-baselines3"),
            "sb3-contrib": _version("sb3-contrib"),
        },
    }
    try:
        json.dumps(metadata)
    except TypeError as error:
        raise ValueError(f"metadata must be JSON-serialisable (env_config and extra): {error}") from None
    return metadata


def _check_metadata(metadata: Any, path: Path) -> dict:
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise ValueError(f"{path} is not a stonk_envs policy file (no {FORMAT!r} metadata)")
    for key, kind in REQUIRED.items():
        value = metadata.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{path}: metadata field {key!r} is missing or not a {kind.__name__}, got {value!r:.80}")
    return metadata


def save_sb3(model, path: str | os.PathLike, metadata: dict) -> Path:
    """Save an SB3 model as its ``.zip`` (suffix added if missing) with the metadata member."""
    algorithm = type(model).__name__
    if algorithm not in SB3_ALGORITHMS:
        raise ValueError(f"cannot save a {algorithm}; supported SB3 classes: {sorted(SB3_ALGORITHMS)}")
    metadata = {**_check_metadata(metadata, Path(path)), "algorithm": algorithm}
    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_name(path.name + ".zip")

    def write(temporary: Path) -> None:
        with open(temporary, "wb") as file:
            model.save(file)
        with zipfile.ZipFile(temporary, "a") as archive:
            archive.writestr(METADATA_MEMBER, json.dumps(metadata, indent=2))

    return atomic_write(path, write)


def save_torch(net: MaskedMLP, path: str | os.PathLike, metadata: dict) -> Path:
    """Save a :class:`MaskedMLP` with the metadata as one ``torch.save`` file.

    Written through an open handle, so the archive's inner folder is ``archive`` rather than the
    temporary file's random name: the same network and metadata give the same bytes.
    """
    if not isinstance(net, MaskedMLP):
        raise ValueError(f"save_torch saves a MaskedMLP, got {type(net).__name__}")
    metadata = {**_check_metadata(metadata, Path(path)), "architecture": dict(net.hparams)}
    payload = {"metadata": metadata, "state_dict": net.state_dict()}
    return atomic_write_bytes(Path(path), lambda handle: torch.save(payload, handle))


def _read(path: Path, trust: bool = False) -> tuple[dict, dict | None]:
    """``(metadata, state_dict)``; the state dict is None for an SB3 file or an RLlib folder.

    Only JSON and tensors are read (:mod:`stonk_envs.safe_load`), within its size limits.
    """
    if path.is_dir() and (path / METADATA_MEMBER).is_file():
        metadata = read_json(path / METADATA_MEMBER, "policy metadata")
        return _check_metadata(metadata, path), None
    if path.is_dir():
        raise ValueError(f"{path} is a folder without {METADATA_MEMBER}, not a policy")
    if not path.exists():
        raise ValueError(f"no policy file at {path}")
    check_regular_file(path, "policy file")
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                check_archive(archive, str(path))
                has_metadata = METADATA_MEMBER in archive.namelist()
                if has_metadata:
                    text = read_member(archive, METADATA_MEMBER, MAX_JSON_BYTES, str(path))
        except zipfile.BadZipFile as error:
            raise ValueError(f"{path}: damaged zip: {error}") from None
        if has_metadata:
            metadata = parse_json(text, f"{path}: {METADATA_MEMBER}")
            return _check_metadata(metadata, path), None
    try:
        payload = load_tensors(path, str(path), trust=trust)
    except UntrustedFileError:
        raise
    except ValueError as error:
        raise ValueError(f"{path} is not a stonk_envs policy file (corrupt or foreign): {error}") from None
    if not isinstance(payload, dict) or not {"metadata", "state_dict"} <= set(payload):
        raise ValueError(f"{path} is not a stonk_envs policy file (no metadata and state_dict)")
    return _check_metadata(payload["metadata"], path), payload["state_dict"]


def read_metadata(path: str | os.PathLike) -> dict:
    """The metadata of a saved policy; ``ValueError`` for a missing, corrupt or foreign file."""
    return _read(Path(path))[0]


def _check_match(metadata: dict, path: Path, game: str | None, num_players: int | None) -> None:
    saved_version = metadata.get("observation_version", 0)  # files from before versioning are v0
    if isinstance(saved_version, bool) or not isinstance(saved_version, int) or saved_version < 0:
        raise ValueError(f"{path}: metadata field 'observation_version' is not a version number, "
                         f"got {saved_version!r:.80}")
    if saved_version != OBSERVATION_VERSION:
        raise ValueError(
            f"{path} was saved for {env_id(metadata['game'], saved_version)} observations, and this "
            f"stonk_envs has {env_id(metadata['game'])}; a policy cannot play another observation "
            "version: retrain it"
        )
    if game is not None and metadata["game"] != game:
        raise ValueError(f"{path} is a policy for {metadata['game']!r}, not for {game!r}")
    if num_players is not None and metadata["num_players"] != num_players:
        raise ValueError(
            f"{path} was made for {metadata['num_players']} players (its seat layout), not {num_players}"
        )
    try:
        observation_size, num_actions = game_sizes(metadata["game"], metadata["num_players"], metadata["env_config"])
    except ValueError as error:
        raise ValueError(f"{path}: its metadata's game settings are not valid here: {error}") from None
    if metadata["observation_size"] != observation_size:
        raise ValueError(
            f"{path}: observation size {metadata['observation_size']} does not match "
            f"{metadata['game']} at {metadata['num_players']} players ({observation_size})"
        )
    if metadata["num_actions"] != num_actions:
        raise ValueError(
            f"{path}: action count {metadata['num_actions']} does not match "
            f"{metadata['game']} at {metadata['num_players']} players ({num_actions})"
        )


def _load_sb3(path: Path, metadata: dict, deterministic: bool, trust: bool) -> SB3Policy:
    """The policy network of an SB3 zip, rebuilt without unpickling (:mod:`stonk_envs.policies.sb3_zip`).

    A zip this package cannot rebuild that way is loaded by SB3 itself (unpickling) only when trusted.
    """
    algorithm = metadata.get("algorithm")
    if algorithm is None:
        raise ValueError(f"{path}: its metadata names no SB3 algorithm (its 'algorithm' field is missing or null); "
                         f"supported: {sorted(SB3_ALGORITHMS)}")
    if algorithm not in SB3_ALGORITHMS:
        raise ValueError(f"{path}: unknown SB3 algorithm {algorithm!r:.80}; supported: {sorted(SB3_ALGORITHMS)}")
    try:
        network = SB3Zip(path).policy(algorithm, metadata["observation_size"], metadata["num_actions"])
    except UntrustedFileError:
        if not trusted(trust):
            raise
        cls = getattr(importlib.import_module(SB3_ALGORITHMS[algorithm]), algorithm)
        network = cls.load(path, device="cpu").policy
    space = network.observation_space
    obs_shape = space["observation"].shape if hasattr(space, "spaces") else space.shape
    if obs_shape != (metadata["observation_size"],) or getattr(network.action_space, "n", None) != metadata[
        "num_actions"
    ]:
        raise ValueError(
            f"{path}: the model's spaces ({obs_shape}, {network.action_space}) do not match its metadata "
            f"({metadata['observation_size']} observations, {metadata['num_actions']} actions)"
        )
    return SB3Policy(network, deterministic=deterministic, name=path.stem)


def _load_torch(path: Path, metadata: dict, state_dict: dict, deterministic: bool) -> TorchPolicy:
    architecture = metadata.get("architecture")
    if not isinstance(architecture, dict):
        raise ValueError(f"{path}: torch policy without an 'architecture' in its metadata")
    if not isinstance(state_dict, dict) or not all(isinstance(v, torch.Tensor) for v in state_dict.values()):
        raise ValueError(f"{path}: its state_dict is not a mapping of tensors")
    hidden = architecture.get("hidden", [128, 128])
    if set(architecture) - {"observation_size", "num_actions", "hidden", "normalise"} or not (
        isinstance(hidden, list) and all(_is_size(h) for h in hidden)
        and all(_is_size(architecture.get(key)) for key in ("observation_size", "num_actions"))
        and architecture.get("normalise", False) in (True, False)
    ):
        raise ValueError(f"{path}: its architecture {architecture!r:.200} is not sizes of a MaskedMLP")
    check_finite(state_dict, str(path))
    check_architecture_fits(
        mlp_parameters(architecture["observation_size"], hidden, architecture["num_actions"]), state_dict, str(path)
    )
    net = MaskedMLP(**architecture)
    if (net.hparams["observation_size"], net.hparams["num_actions"]) != (
        metadata["observation_size"],
        metadata["num_actions"],
    ):
        raise ValueError(f"{path}: the network's sizes do not match its metadata")
    try:
        net.load_state_dict(state_dict)
    except RuntimeError as error:
        raise ValueError(f"{path}: the weights do not fit the network: {error}") from None
    return TorchPolicy(net, deterministic=deterministic, name=path.stem)


def _is_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def load_policy(
    path: str | os.PathLike,
    game: str | None = None,
    num_players: int | None = None,
    deterministic: bool = True,
    trust: bool = False,
) -> Policy:
    """Load a saved policy as a :class:`Policy`, running no code from the file unless ``trust``.

    An RLlib checkpoint, an SB3 zip with custom objects or a torch file with pickled objects
    can only be read by unpickling: without ``trust`` (or ``--trust-file``,
    :data:`stonk_envs.safe_load.TRUST_ENV`) it is refused with
    :class:`~stonk_envs.safe_load.UntrustedFileError`. Weights with NaN or infinite values are refused.

    Raises ``ValueError`` naming the mismatch when the file is for another game or player
    count, or its sizes do not match the game's observation and action spaces. The policy
    checks each batch's observation size (:meth:`Policy.fit_observations`): one trained with
    ``memory=False`` also plays games with the public memory on, reading the entries before it.
    """
    path = Path(path)
    metadata, state_dict = _read(path, trust)
    _check_match(metadata, path, game, num_players)
    if metadata["kind"] == "rllib":
        if not trusted(trust):
            raise UntrustedFileError(f"{path}: refused: an RLlib checkpoint; {TRUST_HINT}")
        from stonk_envs.policies.rllib_policy import load_rllib_policy

        policy = load_rllib_policy(path, metadata, deterministic)
    elif state_dict is None:
        policy = _load_sb3(path, metadata, deterministic, trust)
    else:
        policy = _load_torch(path, metadata, state_dict, deterministic)
    policy.observation_size = metadata["observation_size"]
    policy.reads_prefix = metadata["env_config"].get("memory", True) is False
    return policy
