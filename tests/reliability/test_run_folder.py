"""One run folder, one trainer: the lock, a killed evaluation redone on resume, leftovers cleaned."""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
import torch

from stonk_envs import cli
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config, to_yaml
from stonk_envs.training.trainer import resume, train
from tests.training.test_ppo import TINY


def tiny(run_dir, total, *extra):
    return load_config(None, [*TINY, f"run_dir={run_dir}", f"total_timesteps={total}", *extra])


def hold_lock(run_dir):
    """A process that takes the run folder's lock and waits; it prints READY once it holds it."""
    code = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from stonk_envs.training import run_state
        with run_state.locked(Path({str(run_dir)!r})):
            print("READY", flush=True)
            time.sleep(600)
    """)
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert holder.stdout.readline().strip() == "READY"
    return holder


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_a_device_the_machine_lacks_is_refused_before_the_run_folder_is_made(tmp_path, capsys):
    with pytest.raises(ValueError, match=r"ppo\.device=cuda, but torch sees no CUDA device"):
        train(tiny(tmp_path / "run", 600, "ppo.device=cuda"))
    assert cli.main(["train", *TINY, f"run_dir={tmp_path / 'run'}", "total_timesteps=600", "ppo.device=cuda"]) == 2
    assert "ppo.device=cuda, but torch sees no CUDA device" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_second_trainer_is_refused_with_the_pid_of_the_first_and_the_lock_dies_with_it(tmp_path):
    holder = hold_lock(tmp_path)
    try:
        with pytest.raises(run_state.RunFolderBusy, match=f"in use by another trainer \\(process {holder.pid}\\)"):
            train(tiny(tmp_path, 100))
        assert not (tmp_path / "config.yaml").exists()  # the refused trainer wrote nothing
    finally:
        holder.kill()
        holder.wait()
    with run_state.locked(tmp_path):  # the killed holder left no stale lock
        assert (tmp_path / run_state.LOCK).read_text().strip() == str(os.getpid())


def test_a_second_trainer_on_a_live_run_with_checkpoints_is_told_the_pid(tmp_path):
    (tmp_path / run_state.LATEST).write_text('{"step": 150}')
    holder = hold_lock(tmp_path)
    try:
        with pytest.raises(run_state.RunFolderBusy, match=f"process {holder.pid}"):
            train(tiny(tmp_path, 100))
    finally:
        holder.kill()
        holder.wait()
    with pytest.raises(ValueError, match="already holds a run; resume it with --resume"):
        train(tiny(tmp_path, 100))  # once the trainer is gone


def test_resume_while_the_run_is_alive_is_refused(tmp_path):
    (tmp_path / "config.yaml").write_text(to_yaml(tiny(tmp_path, 100)))
    holder = hold_lock(tmp_path)
    try:
        with pytest.raises(run_state.RunFolderBusy, match=str(holder.pid)):
            resume(tmp_path)
    finally:
        holder.kill()
        holder.wait()


def test_the_train_command_is_refused_while_another_holds_the_folder(tmp_path):
    holder = hold_lock(tmp_path)
    try:
        done = subprocess.run([sys.executable, "-m", "stonk_envs.cli", "train", f"run_dir={tmp_path}",
                               "total_timesteps=100"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=600)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 2
    assert f"process {holder.pid}" in done.stderr and "Traceback" not in done.stderr


KILL_AT_EVALUATION = """
import os, signal, sys
from stonk_envs.training.ppo.run import PPORun
from stonk_envs.training.trainer import train
from stonk_envs.training.config import load_config

def killed(run, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # the process dies in the middle of the periodic evaluation

PPORun.evaluate = killed
train(load_config(None, sys.argv[1:]))
"""


@pytest.mark.slow
def test_an_evaluation_cut_off_by_a_kill_is_redone_on_resume_and_leftovers_are_removed(tmp_path):
    config = [*TINY, f"run_dir={tmp_path}", "total_timesteps=450"]
    died = subprocess.run([sys.executable, "-c", KILL_AT_EVALUATION, *config], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=900)
    assert died.returncode == -signal.SIGKILL, died.stderr[-2000:]
    step = run_state.latest_checkpoint(tmp_path)[0]
    assert step >= 300  # eval.interval=300: the kill came in the first periodic evaluation
    assert not (tmp_path / "evaluations.json").exists()
    leftover = tmp_path / "checkpoints" / ".policy_0000000450.zip.k3x_9a.tmp"
    leftover.write_bytes(b"half a file")
    resume(tmp_path)
    history = json.loads((tmp_path / "evaluations.json").read_text())
    assert step in [point["step"] for point in history]
    assert not leftover.exists()
