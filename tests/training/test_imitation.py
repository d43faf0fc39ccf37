"""The imitation warm start of the batched trainer: teacher rollouts, fitting, resume, signals, config."""

import signal

import numpy as np
import pytest
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from stonk_envs.policies import make_player
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config
from stonk_envs.training.ppo.network import legal_actions
from stonk_envs.training.ppo.run import PPORun
from stonk_envs.training.trainer import resume, train

from .test_ppo import TINY, assert_same_weights, make_rollouts, state_of

IMITATE = ["ppo.imitation.samples=3000", "ppo.imitation.epochs=4"]


def agreement_with_teacher(run: PPORun, teacher, steps: int = 30) -> tuple[float, float]:
    """How often the actor's most likely action is the teacher's, and the teacher's most common action's share."""
    e, rng = run.engine, np.random.default_rng(5)
    agree, chosen = [], []
    for _ in range(steps):
        acting = e.actors
        obs, masks = e.obs[acting], e.masks[acting]
        actions = teacher.act(obs, masks, rng)
        with torch.no_grad():
            logp, _ = run.net(torch.from_numpy(obs), legal_actions(torch.from_numpy(masks))[1])
        agree.extend(logp.argmax(dim=1).numpy() == actions)
        chosen.extend(actions)
        joint = np.full(acting.shape, -1, np.int64)
        joint[acting] = actions
        e.step(joint)
    return float(np.mean(agree)), float(np.unique(chosen, return_counts=True)[1].max() / len(chosen))


def test_a_teacher_rollout_records_the_teachers_actions_as_the_samples():
    rollouts = make_rollouts("stonk_market", {"current": 0.7, "random": 0.3})
    teacher = make_player("heuristic", "stonk_market", 4)
    chosen = []

    class Recording:
        def act(self, obs, masks, rng):
            actions = teacher.act(obs, masks, rng)
            chosen.append(actions)
            return actions

    table, decisions = rollouts.collect(20, teacher=Recording())
    assert decisions == sum(len(a) for a in chosen) > 0
    np.testing.assert_array_equal(table["actions"], np.concatenate(chosen))


def test_the_warm_start_makes_the_actor_play_like_the_teacher(tmp_path):
    teacher = make_player("heuristic", "stocks_and_bombs", 4)
    runs = {}
    for samples in (0, 3000):
        config = load_config(None, [*TINY, f"run_dir={tmp_path / str(samples)}", "total_timesteps=10",
                                    "ppo.net_arch=[64]", f"ppo.imitation.samples={samples}", "ppo.imitation.epochs=4"])
        runs[samples] = PPORun(config)
        runs[samples].new_model()
    imitated = runs[3000]
    imitated.writer, imitated.bar = SummaryWriter(str(tmp_path / "tb")), tqdm(disable=True)  # as learn() opens them
    imitated._imitate()
    before, _ = agreement_with_teacher(runs[0], teacher)
    after, most_common = agreement_with_teacher(imitated, teacher)
    assert before < 0.2
    assert after > 0.5 and after > 3 * most_common  # not just the teacher's favourite action
    assert imitated.imitation["samples"] >= 3000 and imitated.imitation["teacher"] == "heuristic"
    assert run_state.latest_checkpoint(tmp_path / "3000")[0] == 0  # the warm start is saved at step 0


class LastLegal:
    """A labeler that always names the highest legal action."""

    def act(self, obs, masks, rng):
        return masks.shape[1] - 1 - np.argmax(masks[:, ::-1] != 0, axis=1)


def test_a_labelers_choices_are_kept_beside_the_learners_own():
    rollouts = make_rollouts("stonk_market", {"current": 0.7, "random": 0.3})
    table, decisions = rollouts.collect(12, labeler=LastLegal())
    assert decisions > 0
    np.testing.assert_array_equal(table["labels"], LastLegal().act(None, table["masks"], None))
    assert (table["actions"] != table["labels"]).any()  # the learner still chose its own actions
    unlabelled, _ = rollouts.collect(4)
    carried = len(rollouts.carried["columns"])
    assert (unlabelled["labels"][carried:] == -1).all()


def test_the_teacher_term_pulls_ppo_towards_the_teachers_choices(tmp_path):
    teacher = make_player("heuristic", "stocks_and_bombs", 4)
    agreement = {}
    for coef in (0, 5):
        config = load_config(None, [*TINY, f"run_dir={tmp_path / str(coef)}", "total_timesteps=10", "ppo.net_arch=[64]",
                                    "ppo.learning_rate=0.003", f"ppo.imitation.ppo_coef={coef}"])
        run = PPORun(config)
        run.new_model()
        run.writer, run.bar = SummaryWriter(str(tmp_path / f"tb{coef}")), tqdm(disable=True)
        for _ in range(12):
            run._train_one_rollout()
        agreement[coef] = agreement_with_teacher(run, teacher)[0]
    assert agreement[5] > agreement[0] + 0.2


def test_a_resumed_run_with_the_teacher_term_ends_with_the_weights_of_an_unbroken_one(tmp_path):
    term = ["ppo.imitation.ppo_coef=0.5", "eval.interval=0", "eval.crossplay_games=0"]
    train(load_config(None, [*TINY, *term, f"run_dir={tmp_path / 'straight'}", "total_timesteps=450"]))
    train(load_config(None, [*TINY, *term, f"run_dir={tmp_path / 'resumed'}", "total_timesteps=150"]))
    resume(tmp_path / "resumed", ["total_timesteps=450"])
    assert_same_weights(state_of(tmp_path / "resumed")["net"], state_of(tmp_path / "straight")["net"])


@pytest.fixture(scope="module")
def straight_imitation_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("imitation_straight")
    report = train(load_config(None, [*TINY, *IMITATE, f"run_dir={run_dir}", "total_timesteps=600"]))
    return run_dir, report


def test_the_report_and_state_hold_the_warm_start(straight_imitation_run):
    run_dir, report = straight_imitation_run
    assert report["imitation"]["samples"] >= 3000
    assert 0.0 <= report["imitation"]["accuracy"] <= 1.0
    assert state_of(run_dir)["imitation"] == report["imitation"]
    assert report["steps_trained"] >= 600  # the teacher's decisions are not counted as training samples


def test_a_resumed_imitation_run_ends_with_the_weights_of_an_unbroken_one(straight_imitation_run, tmp_path):
    straight_dir, _ = straight_imitation_run
    train(load_config(None, [*TINY, *IMITATE, f"run_dir={tmp_path}", "total_timesteps=300"]))
    resume(tmp_path, ["total_timesteps=600"])
    assert_same_weights(state_of(tmp_path)["net"], state_of(straight_dir)["net"])


def test_a_signal_during_the_warm_start_stops_after_it_and_resume_finishes_identically(
    straight_imitation_run, tmp_path, monkeypatch
):
    straight_dir, _ = straight_imitation_run
    original = PPORun._one_rollout
    sent = []

    def one_rollout(run, fit, teacher=None, labeler=None):
        out = original(run, fit, teacher, labeler)
        if teacher is not None and not sent:
            sent.append(True)
            signal.raise_signal(signal.SIGINT)
        return out

    monkeypatch.setattr(PPORun, "_one_rollout", one_rollout)
    assert train(load_config(None, [*TINY, *IMITATE, f"run_dir={tmp_path}", "total_timesteps=600"])) is None
    assert run_state.latest_checkpoint(tmp_path)[0] == 0
    assert state_of(tmp_path)["imitation"]["samples"] >= 3000  # the warm start ran to its end
    monkeypatch.undo()
    resume(tmp_path)
    assert_same_weights(state_of(tmp_path)["net"], state_of(straight_dir)["net"])


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["imitation.samples=1000"], "imitation is now ppo.imitation"),
        (["trainer=ppo", "ppo.imitation.samples=1000", "ppo.imitation.teacher=grandmaster"],
         r"ppo.imitation.teacher: 'grandmaster' is not a built-in stocks_and_bombs player; choose one of"),
        (["trainer=ppo", "ppo.imitation.samples=-1"], r"ppo.imitation.samples must be"),
        (["trainer=ppo", "ppo.imitation.learning_rate=0"], r"ppo.imitation.learning_rate must be"),
        (["trainer=ppo", "ppo.imitation.ppo_coef=-1"], r"ppo.imitation.ppo_coef must be"),
        (["trainer=ppo", "ppo.imitation.ppo_coef=0.5", "ppo.imitation.teacher=grandmaster"],
         r"ppo.imitation.teacher: 'grandmaster' is not a built-in"),
    ],
)
def test_imitation_config_errors_name_the_key(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, overrides)
