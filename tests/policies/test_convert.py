"""``stonk-envs convert``: a policy that needs trust becomes a torch file that plays the same without it."""

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.torch_layers import FlattenExtractor

from stonk_envs.cli import main
from stonk_envs.policies.checkpoint import load_policy, read_metadata, save_sb3
from stonk_envs.policies.sb3_features import BoundsScaler
from stonk_envs.policies.sb3_policy import SB3Policy
from stonk_envs.policies.torch_policy import TorchPolicy
from stonk_envs.safe_load import TRUST_ENV, UntrustedFileError
from tests.policies.test_checkpoint import Flat, metadata, table_batch


class CustomFlatten(FlattenExtractor):
    """A features extractor this package does not know (so the zip needs trust)."""


def sb3_file(path, extractor):
    model = MaskablePPO("MlpPolicy", Flat(), n_steps=16, batch_size=16, seed=0,
                        policy_kwargs={"net_arch": [16, 8], "features_extractor_class": extractor})
    return save_sb3(model, path, metadata(kind="sb3"))


def same_play(source, converted):
    obs, masks = table_batch()
    rng = np.random.default_rng(0)
    assert np.array_equal(source.act(obs, masks, rng), converted.act(obs, masks, rng))


def test_a_safe_sb3_zip_converts_to_a_torch_file_that_plays_the_same(tmp_path, capsys):
    path = sb3_file(tmp_path / "policy.zip", BoundsScaler)
    assert main(["convert", str(path), str(tmp_path / "policy.pt")]) == 0
    converted = load_policy(tmp_path / "policy.pt")
    assert isinstance(converted, TorchPolicy)
    assert read_metadata(tmp_path / "policy.pt")["extra"]["converted_from"] == {"kind": "sb3", "file": "policy.zip"}
    same_play(load_policy(path), converted)


def test_a_zip_with_a_custom_class_needs_trust_once_and_then_never(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(TRUST_ENV, "0")  # restored after the test: --trust-file sets it for the process
    path = sb3_file(tmp_path / "custom.zip", CustomFlatten)
    with pytest.raises(UntrustedFileError, match="--trust-file"):
        load_policy(path)
    assert main(["convert", str(path), str(tmp_path / "out.pt")]) == 2
    assert "--trust-file" in capsys.readouterr().err and not (tmp_path / "out.pt").exists()
    trusted = load_policy(path, trust=True)
    assert isinstance(trusted, SB3Policy)
    assert main(["convert", str(path), str(tmp_path / "out.pt"), "--trust-file"]) == 0
    monkeypatch.setenv(TRUST_ENV, "0")
    same_play(trusted, load_policy(tmp_path / "out.pt"))


def test_a_network_that_is_not_a_tanh_mlp_is_not_converted(tmp_path):
    model = MaskablePPO("MlpPolicy", Flat(), n_steps=16, batch_size=16, seed=0,
                        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.ReLU})
    path = save_sb3(model, tmp_path / "relu.zip", metadata(kind="sb3"))
    from stonk_envs.policies.convert import convert

    with pytest.raises(ValueError, match="not a tanh MLP"):
        convert(path, tmp_path / "out.pt")
    assert not (tmp_path / "out.pt").exists()
