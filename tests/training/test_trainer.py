"""A tiny training run end to end: checkpoint with metadata, reload, resume, broken resumes."""

import json
import signal
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from stonk_envs.policies.checkpoint import load_policy, read_metadata
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config
from stonk_envs.training.run_loop import RunLoop
from stonk_envs.training.sb3_run import WinCounter
from stonk_envs.training.trainer import resume, train

TINY = [
    "trainer=sb3",
    "num_envs=4",
    "sb3.n_steps=32",
    "sb3.batch_size=64",
    "sb3.n_epochs=1",
    "sb3.net_arch=[32]",
    "league.snapshot_interval=128",
    "league.max_snapshots=2",
    "checkpoint_interval=128",
    "eval.interval=256",
    "eval.num_games=4",
    "eval.final_num_games=4",
    "eval.opponents=[random]",
    "eval.workers=1",
    "eval.keep_best=false",
    "progress=false",
]
"""128 learner steps per rollout; a snapshot and a checkpoint every rollout."""


def tiny_config(run_dir, total, *extra):
    return load_config(None, [*TINY, f"run_dir={run_dir}", f"total_timesteps={total}", *extra])


def weights(path):
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").policy.state_dict()


@pytest.fixture(scope="module")
def straight_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("straight")
    report = train(tiny_config(run_dir, 512))
    return run_dir, report


def test_run_writes_checkpoints_reports_and_a_loadable_policy(straight_run, capsys):
    run_dir, report = straight_run
    assert load_config(run_dir / "config.yaml").trainer == "sb3"
    assert report["steps_trained"] == 512
    assert sorted(p.name for p in (run_dir / "checkpoints").glob("policy_*.zip")) == [
        f"policy_{s:010d}.zip" for s in (128, 256, 384, 512)
    ]
    metadata = read_metadata(run_dir / "policy.zip")
    assert (metadata["game"], metadata["num_players"], metadata["num_actions"]) == ("stocks_and_bombs", 4, 149)
    assert metadata["observation_size"] == 854  # with the public memory
    assert metadata["extra"]["num_timesteps"] == 512
    assert metadata["extra"]["train_config"]["sb3"]["net_arch"] == [32]
    policy = load_policy(run_dir / "policy.zip", game="stocks_and_bombs", num_players=4)
    masks = np.zeros((2, 149), dtype=np.int8)
    masks[0, [0, 5]] = 1
    masks[1, 148] = 1
    actions = policy.act(np.zeros((2, 854), dtype=np.float32), masks, np.random.default_rng(0))
    assert actions[0] in (0, 5) and actions[1] == 148
    history = json.loads((run_dir / "evaluations.json").read_text())
    assert [point["step"] for point in history] == [256, 512]
    assert history[-1]["results"][0]["policy"]["games"] == 4
    final = json.loads((run_dir / "final_evaluation.json").read_text())
    assert (final["steps_trained"], final["policy_step"]) == (512, 512)
    assert final["results"][0]["opponent"] == "random"
    assert final["results"][0]["report"]["seed"] == 2  # fresh games: the periodic ones use seed + 1
    assert (run_dir / "learning_curve.png").stat().st_size > 0
    assert list((run_dir / "tb").iterdir())
    assert run_state.latest_checkpoint(run_dir)[0] == 512


def test_a_new_run_refuses_a_used_folder(straight_run):
    run_dir, _ = straight_run
    with pytest.raises(ValueError, match="already holds a run"):
        train(tiny_config(run_dir, 512))


def test_resume_continues_exactly_with_the_same_league(straight_run, tmp_path):
    straight_dir, _ = straight_run
    first = train(tiny_config(tmp_path, 256))
    assert first["steps_trained"] == 256
    state = run_state.load_state(run_state.latest_checkpoint(tmp_path)[2])
    assert state["step"] == 256
    assert state["league"]["snapshot_steps"] == [128]  # the snapshot due at 256 is taken on resume
    report = resume(tmp_path, ["total_timesteps=512"])
    assert report["steps_trained"] == 512
    resumed = run_state.load_state(run_state.latest_checkpoint(tmp_path)[2])
    straight = run_state.load_state(run_state.latest_checkpoint(straight_dir)[2])
    assert resumed["league"]["snapshot_steps"] == straight["league"]["snapshot_steps"] == [256, 384]
    for step in (256, 384):
        for name, tensor in resumed["league"]["snapshots"][step].items():
            torch.testing.assert_close(tensor, straight["league"]["snapshots"][step][name], rtol=0, atol=0)
    a, b = weights(tmp_path / "policy.zip"), weights(straight_dir / "policy.zip")
    for name in a:
        torch.testing.assert_close(a[name], b[name], rtol=0, atol=0)
    assert [p["step"] for p in json.loads((tmp_path / "evaluations.json").read_text())] == [256, 512]


def test_a_signal_stops_at_a_rollout_boundary_and_resume_finishes_identically(straight_run, tmp_path, monkeypatch):
    straight_dir, _ = straight_run
    original = WinCounter._on_step
    sent = []

    def on_step(callback):
        if callback.model.num_timesteps >= 160 and not sent:
            sent.append(callback.model.num_timesteps)
            signal.raise_signal(signal.SIGINT)
        return original(callback)

    monkeypatch.setattr(WinCounter, "_on_step", on_step)
    assert train(tiny_config(tmp_path, 512)) is None
    assert sent == [160]
    assert run_state.latest_checkpoint(tmp_path)[0] == 256
    assert not (tmp_path / "policy.zip").exists()
    monkeypatch.undo()
    assert resume(tmp_path)["steps_trained"] == 512
    a, b = weights(tmp_path / "policy.zip"), weights(straight_dir / "policy.zip")
    for name in a:
        torch.testing.assert_close(a[name], b[name], rtol=0, atol=0)


def test_resume_refuses_changes_that_would_make_another_run(straight_run):
    run_dir, _ = straight_run
    with pytest.raises(ValueError, match=r"cannot change \['num_envs'\] when resuming"):
        resume(run_dir, ["num_envs=8"])


def test_resume_needs_a_run_folder(tmp_path):
    with pytest.raises(ValueError, match="is not a training run folder"):
        resume(tmp_path / "missing")


def test_resume_needs_a_checkpoint(tmp_path):
    (tmp_path / "config.yaml").write_text("total_timesteps: 10\nsb3: {}\n")
    with pytest.raises(ValueError, match=r"has no checkpoints"):
        resume(tmp_path)


def test_the_kept_policy_is_the_best_evaluated_checkpoint():
    def point(step, random_share, heuristic_share):
        return {
            "step": step,
            "results": [
                {"opponent": "random", "policy": {"win_share": random_share}},
                {"opponent": "heuristic", "policy": {"win_share": heuristic_share}},
            ],
        }

    config = load_config(None, ["eval.opponents=[random,heuristic]"])
    run = SimpleNamespace(config=config, history=[point(100, 0.5, 0.9), point(200, 0.7, 0.1), point(300, 0.6, 0.5)])
    assert RunLoop.best_step(run) == 200
    run.history.append(point(400, 0.7, 0.0))
    assert RunLoop.best_step(run) == 400  # the later of equal win shares


def earlier_shape(saved: dict) -> dict:
    """A saved sb3 config as the config's earlier shape wrote it: the sb3 keys in ``ppo``, no ``trainer`` (the
    earlier default), and ``env_backend`` at the top."""
    earlier = {key: value for key, value in saved.items() if key not in ("trainer", "sb3", "ppo")}
    earlier["ppo"] = dict(saved["sb3"])
    earlier["env_backend"] = "engine"
    earlier["device"] = "auto"
    earlier["imitation"] = {"samples": 0}
    earlier["league"] = {**saved["league"], "pfsp_power": 0.0, "mix": "seat"}
    return earlier


def test_a_run_saved_in_the_earlier_config_shape_resumes_and_is_saved_in_todays(tmp_path):
    import yaml

    train(tiny_config(tmp_path, 256))
    config_file = tmp_path / "config.yaml"
    config_file.write_text(yaml.safe_dump(earlier_shape(yaml.safe_load(config_file.read_text()))))
    with pytest.raises(ValueError, match=r"env_backend is gone: the sb3 trainer's games always run on one batched"):
        load_config(config_file)
    assert resume(tmp_path, ["total_timesteps=384"])["steps_trained"] == 384
    config = load_config(config_file)
    assert (config.trainer, config.sb3.n_steps) == ("sb3", 32)


def test_a_run_that_played_on_pettingzoo_envs_is_refused_with_the_reason(tmp_path):
    import yaml

    train(tiny_config(tmp_path, 128))
    config_file = tmp_path / "config.yaml"
    saved = earlier_shape(yaml.safe_load(config_file.read_text()))
    del saved["env_backend"]  # saved before the key existed: the games ran on PettingZoo envs
    config_file.write_text(yaml.safe_dump(saved))
    with pytest.raises(ValueError, match=r"played its games on PettingZoo envs \(sb3.env_backend: pettingzoo\)"):
        resume(tmp_path, ["total_timesteps=256"])
    assert run_state.latest_checkpoint(tmp_path)[0] == 128


def test_the_printed_table_gives_the_win_share_with_its_interval():
    from stonk_envs.training.report import format_table

    entry = {"games": 1000, "wins": 283, "shared_wins": 11, "win_rate": 0.283, "ci_low": 0.256, "ci_high": 0.312,
             "win_share": 0.2775, "mean_reward": 0.073}
    row = format_table(5, [{"opponent": "heuristic", "policy": entry}], 1000).splitlines()[2]
    # the Wilson interval at the mean share: 0.2775 +- 1.96 sqrt(0.2775 * 0.7225 / 1000), centred a little inward
    assert row.split() == ["heuristic", "1000", "283", "11", "0.283", "[0.256,", "0.312]", "0.278", "[0.251,",
                           "0.306]", "0.073"]
