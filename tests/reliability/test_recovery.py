"""--resume falls back to the newest intact checkpoint; files are written with the user's umask."""

import json
import os
import stat

import pytest
import torch

from stonk_envs.files import atomic_write_text
from stonk_envs.policies.checkpoint import make_metadata, save_torch
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.training import run_state

STEPS = (100, 200, 300)


def save_checkpoint(run_dir, step, state_step=None, policy_step=None):
    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    metadata = make_metadata("stocks_and_bombs", 4, obs, actions, {}, "test",
                             extra={"num_timesteps": step if policy_step is None else policy_step})
    save_torch(MaskedMLP(obs, actions, (8,)), run_state.policy_path(run_dir, step), metadata)
    run_state.save_state(run_dir, step, {"step": step if state_step is None else state_step, "league": {}})


@pytest.fixture
def run_dir(tmp_path):
    for step in STEPS:
        save_checkpoint(tmp_path, step)
    return tmp_path


def truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path):
    path.write_bytes(os.urandom(path.stat().st_size))


DAMAGE = {
    "truncated policy": lambda d: truncate(run_state.policy_path(d, 300)),
    "truncated state": lambda d: truncate(run_state.state_path(d, 300)),
    "garbage policy": lambda d: garbage(run_state.policy_path(d, 300)),
    "garbage state": lambda d: garbage(run_state.state_path(d, 300)),
    "empty state": lambda d: run_state.state_path(d, 300).write_bytes(b""),
    "missing state": lambda d: run_state.state_path(d, 300).unlink(),
    "missing policy": lambda d: run_state.policy_path(d, 300).unlink(),
    "state of another step": lambda d: save_checkpoint(d, 300, state_step=250),
    "policy of another step": lambda d: save_checkpoint(d, 300, policy_step=150),
    "state not a dict": lambda d: torch.save([1, 2], run_state.state_path(d, 300)),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_newest_checkpoint_falls_back_to_the_one_before(run_dir, damage):
    DAMAGE[damage](run_dir)
    said = []
    step, policy, state = run_state.latest_checkpoint(run_dir, said.append)
    assert (step, policy, state) == (200, run_state.policy_path(run_dir, 200), run_state.state_path(run_dir, 200))
    assert len(said) == 1 and "step 300:" in said[0]
    assert "resuming from the newest intact checkpoint, step 200" in said[0]


@pytest.mark.parametrize("pointer", ["missing", "garbage", "wrong keys", "a step with no files"])
def test_a_bad_latest_json_is_passed_over(run_dir, pointer):
    path = run_dir / run_state.LATEST
    {
        "missing": path.unlink,
        "garbage": lambda: path.write_bytes(b"\xff\x00{"),
        "wrong keys": lambda: path.write_text(json.dumps({"steps": 1})),
        "a step with no files": lambda: path.write_text(json.dumps({"step": 400})),
    }[pointer]()
    said = []
    assert run_state.latest_checkpoint(run_dir, said.append)[0] == 300
    assert len(said) == 1


def test_an_intact_newest_checkpoint_is_used_without_a_word(run_dir):
    said = []
    assert run_state.latest_checkpoint(run_dir, said.append)[0] == 300 and said == []


def test_no_intact_checkpoint_names_every_problem(run_dir):
    for step in STEPS:
        truncate(run_state.state_path(run_dir, step))
    with pytest.raises(ValueError, match=r"no intact checkpoint: step 300: cannot read .*; step 200: .*; step 100"):
        run_state.latest_checkpoint(run_dir)


def test_files_get_the_umask_not_0600(tmp_path):
    old = os.umask(0o002)
    try:
        atomic_write_text(tmp_path / "shared.txt", "x")
        save_checkpoint(tmp_path, 1)
        os.umask(0o077)
        atomic_write_text(tmp_path / "private.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "shared.txt").stat().st_mode) == 0o664
    for path in (run_state.policy_path(tmp_path, 1), run_state.state_path(tmp_path, 1), tmp_path / run_state.LATEST):
        assert stat.S_IMODE(path.stat().st_mode) == 0o664, path
    assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "report.json"
    atomic_write_text(target, "old")

    def explode(handle):
        handle.write(b"half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        run_state.atomic_write_bytes(target, explode)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_resume_of_a_real_run_continues_from_the_newest_intact_checkpoint(tmp_path, capsys):
    from stonk_envs.training.trainer import resume, train
    from tests.training.test_trainer import tiny_config

    train(tiny_config(tmp_path, 256, "eval.interval=0"))
    truncate(run_state.policy_path(tmp_path, 256))
    capsys.readouterr()
    report = resume(tmp_path, ["total_timesteps=384"])
    out = capsys.readouterr().out
    assert "policy_0000000256.zip is unreadable" in out
    assert "resuming from the newest intact checkpoint, step 128" in out and "resuming" in out
    assert report["steps_trained"] == 384
    assert run_state.latest_checkpoint(tmp_path)[0] == 384


def test_resume_of_a_batched_trainer_run_falls_back_to_the_newest_intact_checkpoint(tmp_path, capsys):
    from stonk_envs.training.trainer import resume, train
    from tests.training.test_ppo import tiny_config

    train(tiny_config(tmp_path, 600))
    newest = run_state.latest_checkpoint(tmp_path)[0]
    truncate(run_state.policy_path(tmp_path, newest))
    capsys.readouterr()
    resume(tmp_path, ["total_timesteps=900"])
    out = capsys.readouterr().out
    assert f"policy_{newest:010d}.zip is unreadable" in out
    assert "resuming from the newest intact checkpoint" in out
    assert run_state.latest_checkpoint(tmp_path)[0] >= 900
