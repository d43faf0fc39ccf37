"""Saved policies: one file with its metadata (game, seat layout, spaces, config, versions).

- An SB3 / sb3-contrib model is its usual ``.zip`` with one extra member,
  ``stonk_envs_metadata.json``.
- A plain torch policy (:class:`~stonk_envs.policies.torch_policy.MaskedMLP`) is a
  ``torch.save`` file of ``{"metadata": {...}, "state_dict": {...}}``.
- An RLlib learner module is its checkpoint folder with ``stonk_envs_metadata.json`` in it
  (:mod:`stonk_envs.integrations.rllib_modules`; needs the ``rllib`` extra).

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

from stonk_envs.files import atomic_write
from stonk_envs.policies.base import Policy
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.sb3_policy import SB3Policy
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy
from stonk_envs.registry import GAME_MODULES, OBSERVATION_VERSION, env_id

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
        if not isinstance(metadata.get(key), kind):
            raise ValueError(f"{path}: metadata field {key!r} is missing or not a {kind.__name__}")
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
    """Save a :class:`MaskedMLP` with the metadata as one ``torch.save`` file."""
    if not isinstance(net, MaskedMLP):
        raise ValueError(f"save_torch saves a MaskedMLP, got {type(net).__name__}")
    metadata = {**_check_metadata(metadata, Path(path)), "architecture": dict(net.hparams)}
    payload = {"metadata": metadata, "state_dict": net.state_dict()}
    return atomic_write(Path(path), lambda temporary: torch.save(payload, temporary))


def _read(path: Path) -> tuple[dict, dict | None]:
    """``(metadata, state_dict)``; the state dict is None for an SB3 file or an RLlib folder."""
    if path.is_dir() and (path / METADATA_MEMBER).is_file():
        try:
            metadata = json.loads((path / METADATA_MEMBER).read_text())
        except ValueError as error:
            raise ValueError(f"{path}: unreadable {METADATA_MEMBER}: {error}") from None
        return _check_metadata(metadata, path), None
    if not path.is_file():
        raise ValueError(f"no policy file at {path}")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            if METADATA_MEMBER in archive.namelist():
                try:
                    metadata = json.loads(archive.read(METADATA_MEMBER))
                except (ValueError, zipfile.BadZipFile) as error:
                    raise ValueError(f"{path}: unreadable {METADATA_MEMBER}: {error}") from None
                return _check_metadata(metadata, path), None
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"{path} is not a stonk_envs policy file (corrupt or foreign): {reason}") from None
    if not isinstance(payload, dict) or not {"metadata", "state_dict"} <= set(payload):
        raise ValueError(f"{path} is not a stonk_envs policy file (no metadata and state_dict)")
    return _check_metadata(payload["metadata"], path), payload["state_dict"]


def read_metadata(path: str | os.PathLike) -> dict:
    """The metadata of a saved policy; ``ValueError`` for a missing, corrupt or foreign file."""
    return _read(Path(path))[0]


def _check_match(metadata: dict, path: Path, game: str | None, num_players: int | None) -> None:
    saved_version = metadata.get("observation_version", 0)  # files from before versioning are v0
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
    observation_size, num_actions = game_sizes(metadata["game"], metadata["num_players"], metadata["env_config"])
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


def _load_sb3(path: Path, metadata: dict, deterministic: bool) -> SB3Policy:
    algorithm = metadata.get("algorithm")
    if algorithm not in SB3_ALGORITHMS:
        raise ValueError(f"{path}: unknown SB3 algorithm {algorithm!r}; supported: {sorted(SB3_ALGORITHMS)}")
    cls = getattr(importlib.import_module(SB3_ALGORITHMS[algorithm]), algorithm)
    model = cls.load(path, device="cpu")
    space = model.observation_space
    obs_shape = space["observation"].shape if hasattr(space, "spaces") else space.shape
    if obs_shape != (metadata["observation_size"],) or getattr(model.action_space, "n", None) != metadata[
        "num_actions"
    ]:
        raise ValueError(
            f"{path}: the model's spaces ({obs_shape}, {model.action_space}) do not match its metadata "
            f"({metadata['observation_size']} observations, {metadata['num_actions']} actions)"
        )
    return SB3Policy(model, deterministic=deterministic, name=path.stem)


def _load_torch(path: Path, metadata: dict, state_dict: dict, deterministic: bool) -> TorchPolicy:
    architecture = metadata.get("architecture")
    if not isinstance(architecture, dict):
        raise ValueError(f"{path}: torch policy without an 'architecture' in its metadata")
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


def load_policy(
    path: str | os.PathLike,
    game: str | None = None,
    num_players: int | None = None,
    deterministic: bool = True,
) -> Policy:
    """Load a saved policy as a :class:`Policy`.

    Raises ``ValueError`` naming the mismatch when the file is for another game or player
    count, or its sizes do not match the game's observation and action spaces. The policy
    checks each batch's observation size (:meth:`Policy.fit_observations`): one trained with
    ``memory=False`` also plays games with the public memory on, reading the entries before it.
    """
    path = Path(path)
    metadata, state_dict = _read(path)
    _check_match(metadata, path, game, num_players)
    if metadata["kind"] == "rllib":
        from stonk_envs.policies.rllib_policy import load_rllib_policy

        policy = load_rllib_policy(path, metadata, deterministic)
    elif state_dict is None:
        policy = _load_sb3(path, metadata, deterministic)
    else:
        policy = _load_torch(path, metadata, state_dict, deterministic)
    policy.observation_size = metadata["observation_size"]
    policy.reads_prefix = metadata["env_config"].get("memory", True) is False
    return policy
