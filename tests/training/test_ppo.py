"""The batched PPO trainer: per-seat advantages, masking, league seats, resume, signals, saved policy."""

import json
import signal

import numpy as np
import pytest
import torch

from stonk_envs import vector
from stonk_envs.evaluation import evaluate
from stonk_envs.policies.checkpoint import load_policy, read_metadata
from stonk_envs.policies.seats import LEARNER, built_in_codes
from stonk_envs.policies.stocks_and_bombs_heuristic import StocksAndBombsHeuristic
from stonk_envs.policies.stocks_and_bombs_trader import StocksAndBombsAggressive
from stonk_envs.policies.torch_policy import NORMALISED_CLIP, TorchPolicy
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config
from stonk_envs.training.league.draw import SeatDraw
from stonk_envs.training.league.snapshots import Snapshots
from stonk_envs.training.ppo.gae import per_seat_gae
from stonk_envs.training.ppo.network import ActorCritic
from stonk_envs.training.ppo.rollout import Rollouts
from stonk_envs.training.ppo.run import PPORun
from stonk_envs.training.trainer import resume, train

TINY = [
    "trainer=ppo",
    "ppo.device=cpu",
    "num_envs=8",
    "ppo.n_steps=8",
    "ppo.batch_size=64",
    "ppo.n_epochs=2",
    "ppo.net_arch=[16]",
    "league.current=0.6",
    "league.past=0.2",
    "league.heuristic=0.1",
    "league.random=0.1",
    "league.snapshot_interval=150",
    "league.max_snapshots=2",
    "checkpoint_interval=150",
    "eval.interval=300",
    "eval.num_games=4",
    "eval.final_num_games=4",
    "eval.opponents=[random]",
    "eval.workers=1",
    "progress=false",
]


SCALE_RANGE = r"ppo.memory_scale must be a finite number \(> 0.0 and <= 1.0\)"


def tiny_config(run_dir, total, *extra):
    return load_config(None, [*TINY, f"run_dir={run_dir}", f"total_timesteps={total}", *extra])


def test_gae_per_seat_over_irregular_turns_matches_a_hand_computation():
    # column 0 decides at rows 0, 2, 3 (its game ends after row 3) and 4 (a new game, still open);
    # column 1 decides at rows 1 and 4 (open). Rewards are what each seat got until its next decision.
    valid = np.array([[1, 0], [0, 1], [1, 0], [1, 0], [1, 1]], bool)
    done = np.array([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0]], bool)
    rewards = np.array([[0.5, 0], [0, -0.5], [0, 0], [1.0, 0], [0, 0]], np.float32)
    values = np.array([[0.1, 0], [0, 0.05], [0.2, 0], [0.3, 0], [0.4, 0.6]], np.float32)
    advantages, returns, trainable = per_seat_gae(rewards, values, valid, done, gamma=0.9, lam=0.8)
    assert trainable.tolist() == [[True, False], [False, True], [True, False], [True, False], [False, False]]
    # row 3 ends the game: A = 1.0 - 0.3
    # row 2: delta = 0 + 0.9 * 0.3 - 0.2 = 0.07;  A = 0.07 + 0.72 * 0.7 = 0.574
    # row 0: delta = 0.5 + 0.9 * 0.2 - 0.1 = 0.58;  A = 0.58 + 0.72 * 0.574 = 0.99328
    # column 1, row 1: its next decision (row 4) is open: delta = -0.5 + 0.9 * 0.6 - 0.05 = -0.01, A = delta
    expected = {(0, 0): 0.99328, (2, 0): 0.574, (3, 0): 0.7, (1, 1): -0.01}
    for (t, s), value in expected.items():
        assert advantages[t, s] == pytest.approx(value, abs=1e-6)
        assert returns[t, s] == pytest.approx(value + values[t, s], abs=1e-6)
    assert advantages[~trainable].tolist() == [0.0] * int((~trainable).sum())


def make_rollouts(game, weights, num_envs=8, seed=0, mix="seat", heuristic_players=("heuristic",)):
    engine = vector.make(game, num_envs, num_players=4, observe="actors", parallel=False)
    torch.manual_seed(seed)
    net = ActorCritic(engine.obs_size, engine.num_actions, [16], None)
    rng = np.random.default_rng(seed)
    seats = SeatDraw(weights, Snapshots(2), game, 4, rng, mix, heuristic_players)
    rollouts = Rollouts(engine, net, seats, rng, torch.Generator().manual_seed(seed), torch.device("cpu"))
    rollouts.deal(seed)
    return rollouts


def test_stockpile_rewards_between_a_seats_decisions_are_summed_into_its_transition():
    rollouts = make_rollouts("stockpile", {"current": 1.0}, num_envs=4)
    engine = rollouts.engine
    booked = np.zeros(rollouts.num_columns)
    original = engine.step

    def step(actions, active=None):
        out = original(actions, active)
        booked[:] += np.where(rollouts.pending >= 0, engine.rewards.reshape(-1), 0.0)
        return out

    engine.step = step
    table, decisions = rollouts.collect(400)
    assert decisions == int(table["valid"][1:].sum())
    per_row = table["valid"].sum(axis=1)
    assert per_row.min() == 0 and per_row.max() >= 1  # turns: rows where a seat decides and rows where none does
    np.testing.assert_allclose(table["rewards"].sum(axis=0), booked, atol=1e-5)
    assert table["done"].any()  # some games ended inside the rollout
    assert (table["rewards"][~table["valid"]] == 0).all()


def test_masked_sampling_never_picks_an_illegal_action():
    rollouts = make_rollouts("stocks_and_bombs", {"current": 1.0})
    with torch.no_grad():  # make the illegal actions the most attractive by far
        rollouts.net.actor.body[-1].bias.fill_(0.0)
        rollouts.net.actor.body[-1].bias[: rollouts.engine.num_actions // 2] = 50.0
    rng = np.random.default_rng(1)
    masks = np.zeros((4000, rollouts.engine.num_actions), np.int8)
    masks[np.arange(4000), rng.integers(rollouts.engine.num_actions // 2, rollouts.engine.num_actions, 4000)] = 1
    masks[np.arange(0, 4000, 2), rng.integers(rollouts.engine.num_actions // 2, rollouts.engine.num_actions, 2000)] = 1
    obs = rng.normal(size=(4000, rollouts.engine.obs_size)).astype(np.float32)
    actions, logp, _ = rollouts._act(obs, masks)
    assert (masks[np.arange(4000), actions] == 1).all()
    assert np.isfinite(logp).all()


def test_league_seats_play_but_are_never_samples():
    rollouts = make_rollouts("stonk_market", {"current": 0.5, "random": 0.3, "heuristic": 0.2})
    member_seats = []
    original = rollouts._members_act

    def members_act(joint):
        member_seats.append((rollouts.engine.actors & (rollouts.holder != LEARNER)).reshape(-1).copy())
        original(joint)

    rollouts._members_act = members_act
    table, _ = rollouts.collect(40)
    held = np.array(member_seats)
    assert held.sum() > 0 and table["valid"][1:].sum() > 0
    assert not (table["valid"][1:] & held).any()
    assert (rollouts.holder == LEARNER).any(axis=1).all()  # every game has a learner seat


def test_league_mix_game_gives_all_of_a_games_other_seats_to_one_kind():
    weights = {"current": 0.5, "past": 0.0, "heuristic": 0.3, "random": 0.2}
    holder = make_rollouts("stonk_market", weights, num_envs=4000, mix="game").holder
    opponent_kinds = [set(row[row != LEARNER].tolist()) for row in holder]
    assert all(len(kinds) <= 1 for kinds in opponent_kinds)  # never a heuristic and a random player in one game
    assert (holder == LEARNER).any(axis=1).all()
    played = np.array([kinds.pop() for kinds in opponent_kinds if kinds])
    assert np.mean(played == built_in_codes(0)) == pytest.approx(0.3 / 0.5, abs=0.03)  # the kind: 0.3 against 0.2
    # one learner seat: 4 x 0.5^4 drawn so, and 0.5^4 drawn with none, which gets one seat back
    assert ((holder == LEARNER).sum(axis=1) == 1).mean() == pytest.approx(5 * 0.5**4, abs=0.03)
    by_seat = make_rollouts("stonk_market", weights, num_envs=4000).holder
    assert np.mean([len(set(row[row != LEARNER].tolist())) > 1 for row in by_seat]) > 0.2  # seat by seat, kinds mix


def test_heuristic_seats_are_shared_evenly_among_the_named_players_and_each_plays_its_own_seats():
    weights = {"current": 0.25, "heuristic": 0.75}
    rollouts = make_rollouts("stocks_and_bombs", weights, num_envs=2000, heuristic_players=("heuristic", "basic"))
    held = rollouts.holder[rollouts.holder != LEARNER]
    assert set(held.tolist()) == {built_in_codes(0), built_in_codes(1)}
    assert np.mean(held == built_in_codes(0)) == pytest.approx(0.5, abs=0.03)
    assert type(rollouts.seats.member(built_in_codes(0))) is StocksAndBombsAggressive  # `heuristic`
    assert type(rollouts.seats.member(built_in_codes(1))) is StocksAndBombsHeuristic  # `basic`
    table, _ = rollouts.collect(4)
    assert table["valid"][1:].sum() > 0
    one = make_rollouts("stocks_and_bombs", weights, num_envs=2000)
    assert set(one.holder[one.holder != LEARNER].tolist()) == {built_in_codes(0)}


def test_heuristic_players_must_be_built_in_players_of_the_game(tmp_path):
    with pytest.raises(ValueError, match=r"ppo.league.heuristic_players: \['trader'\] are not built-in stockpile"):
        tiny_config(tmp_path, 100, "game=stockpile", "ppo.league.heuristic_players=[heuristic,trader]")
    with pytest.raises(ValueError, match=r"league\.heuristic_players must name at least one"):
        tiny_config(tmp_path, 100, "ppo.league.heuristic_players=[]")
    assert tiny_config(tmp_path, 100, "game=stocks_and_bombs",
                       "ppo.league.heuristic_players=[heuristic,basic]").ppo.league.heuristic_players == [
        "heuristic", "basic"]


@pytest.fixture(scope="module")
def straight_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("ppo_straight")
    return run_dir, train(tiny_config(run_dir, 600, "eval.crossplay_games=4", "eval.crossplay_max=2"))


def state_of(run_dir):
    return run_state.load_state(run_state.latest_checkpoint(run_dir)[2])


def assert_same_weights(a, b):
    for name in a:
        torch.testing.assert_close(a[name], b[name], rtol=0, atol=0)


def test_a_run_writes_its_files_and_a_policy_that_the_players_accept(straight_run):
    run_dir, report = straight_run
    assert report["steps_trained"] >= 600
    metadata = read_metadata(run_dir / "policy.zip")
    assert (metadata["kind"], metadata["game"], metadata["num_actions"]) == ("ppo", "stocks_and_bombs", 149)
    assert metadata["architecture"]["normalise"] is True
    policy = load_policy(run_dir / "policy.zip", game="stocks_and_bombs", num_players=4)
    assert isinstance(policy, TorchPolicy)
    assert policy.net.obs_var.ne(1).any()  # the fitted statistics travel in the file
    result = evaluate("stocks_and_bombs", [str(run_dir / "policy.zip")] + ["random"] * 3, 4, num_players=4,
                      progress=False)
    assert result.players[0].games == 4
    history = json.loads((run_dir / "evaluations.json").read_text())
    assert len(history) >= 2 and all("wall_seconds" in point for point in history)
    crossplay = json.loads((run_dir / "crossplay.json").read_text())
    assert [r["player"] for r in crossplay[-1]["ratings"]][-2:] == ["heuristic", "random"]
    for name in ("learning_curve.png", "crossplay.png", "final_evaluation.json"):
        assert (run_dir / name).stat().st_size > 0
    assert list((run_dir / "tb").iterdir())


def test_a_stopped_and_resumed_run_ends_with_the_weights_of_an_unbroken_one(straight_run, tmp_path):
    straight_dir, _ = straight_run
    train(tiny_config(tmp_path, 300, "eval.crossplay_games=4", "eval.crossplay_max=2"))
    resume(tmp_path, ["total_timesteps=600"])
    resumed, straight = state_of(tmp_path), state_of(straight_dir)
    assert resumed["step"] == straight["step"]
    assert_same_weights(resumed["net"], straight["net"])
    assert resumed["snapshots"]["steps"] == straight["snapshots"]["steps"]
    np.testing.assert_array_equal(resumed["stats"]["mean"], straight["stats"]["mean"])


def test_a_signal_stops_at_a_rollout_boundary_and_resume_finishes_identically(straight_run, tmp_path, monkeypatch):
    straight_dir, _ = straight_run
    original = PPORun._train_one_rollout
    sent = []

    def one_rollout(run):
        original(run)
        if not sent:
            sent.append(run.step)
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(PPORun, "_train_one_rollout", one_rollout)
    assert train(tiny_config(tmp_path, 600, "eval.crossplay_games=4", "eval.crossplay_max=2")) is None
    assert run_state.latest_checkpoint(tmp_path)[0] == sent[0]
    assert not (tmp_path / "policy.zip").exists()
    monkeypatch.undo()
    resume(tmp_path)
    assert_same_weights(state_of(tmp_path)["net"], state_of(straight_dir)["net"])


def test_a_run_with_bfloat16_hidden_layers_resumes_bit_for_bit(tmp_path):
    bfloat16 = ["ppo.hidden_precision=bfloat16", "eval.interval=0", "eval.crossplay_games=0"]
    train(tiny_config(tmp_path / "straight", 450, *bfloat16))
    train(tiny_config(tmp_path / "resumed", 150, *bfloat16))
    resume(tmp_path / "resumed", ["total_timesteps=450"])
    resumed, straight = state_of(tmp_path / "resumed"), state_of(tmp_path / "straight")
    assert resumed["step"] == straight["step"] > 150
    assert_same_weights(resumed["net"], straight["net"])


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["trainer=jax"], r"trainer must be one of \['ppo', 'sb3'\], got 'jax'"),
        (["trainer=ppo", "ppo.device=tpu"], r"device must be one of \['auto', 'cpu', 'cuda'\], got 'tpu'"),
        (["device=cuda"], "device is now ppo.device"),
        (["trainer=ppo", "ppo.obs_norm=minmax"], r"ppo.obs_norm must be one of"),
        (["trainer=ppo", "ppo.obs_norm=auto"], r"ppo.obs_norm must be one of \['running', 'bounds'\]"),
        (["env_backend=engine"], "env_backend is gone: the sb3 trainer's games always run on one batched engine"),
        (["trainer=ppo", "eval.crossplay_games=-1"], r"eval.crossplay_games must be 0\.\.1000000000, got -1"),
        (["trainer=ppo", "ppo.memory_start=ones"], r"ppo.memory_start must be one of \['random', 'zero'\], got 'ones'"),
        (["trainer=ppo", "ppo.memory_scale=0"], rf"{SCALE_RANGE}, got 0.0"),
        (["trainer=ppo", "ppo.memory_scale=1.5"], rf"{SCALE_RANGE}, got 1.5"),
    ],
)
def test_config_errors_name_the_key(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, overrides)


def test_resume_refuses_another_trainer(straight_run):
    run_dir, _ = straight_run
    with pytest.raises(ValueError, match=r"cannot change \['trainer'\] when resuming"):
        resume(run_dir, ["trainer=sb3", "eval.crossplay_games=0"])


def test_snapshots_play_in_one_pass_with_each_rows_own_weights():
    torch.manual_seed(3)
    snapshots = Snapshots(max_kept=3)
    for step in (100, 250, 400):
        actor = ActorCritic(9, 5, [8, 6], None).actor
        actor.obs_mean.copy_(torch.randn(9))
        actor.obs_var.copy_(torch.rand(9) + 0.5)
        snapshots.add(step, actor)
    rng = np.random.default_rng(0)
    holders = rng.choice([100, 250, 400], size=40, p=[0.6, 0.1, 0.3])
    obs = rng.normal(size=(40, 9)).astype(np.float32) * 3
    def own_logits(step, row):
        net = snapshots.nets[int(step)]
        return net.body(net.inputs(torch.from_numpy(row[None])))[0].numpy()

    with torch.no_grad():
        expected = np.stack([own_logits(step, row) for step, row in zip(holders, obs, strict=True)])
    np.testing.assert_allclose(snapshots.logits(holders, obs), expected, rtol=1e-5, atol=1e-5)
    masks = (rng.random((40, 5)) < 0.5).astype(np.int8)
    masks[:, 1] = 1
    actions = snapshots.act(holders, obs, masks, rng)
    assert masks[np.arange(40), actions].all()
    net = snapshots.nets[250]  # rows of one snapshot only
    with torch.no_grad():
        alone = net.body(net.inputs(torch.from_numpy(obs[:3]))).numpy()
    np.testing.assert_allclose(snapshots.logits(np.full(3, 250), obs[:3]), alone, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("game", ["stonk_market", "stockpile", "stocks_and_bombs"])
def test_memory_start_zero_leaves_the_first_layers_blind_to_the_memory(tmp_path, game):
    config = tiny_config(tmp_path, 100, f"game={game}", "num_players=4", "ppo.memory_start=zero",
                         "ppo.net_arch=[16,8]", "env_config.memory=true")
    run = PPORun(config)
    without = vector.make(game, 1, num_players=4, memory=False).obs_size
    assert without < run.engine.obs_size
    for first in (run.net.actor.body[0], run.net.critic[0]):
        assert (first.weight[:, without:] == 0).all()
        rows = first.weight[:, :without]  # orthogonal rows of gain sqrt(2), as for an input of that width
        torch.testing.assert_close(rows @ rows.T, 2 * torch.eye(16))
    assert (run.net.actor.body[2].weight != 0).any()  # only the first layers start blind
    no_memory = PPORun(tiny_config(tmp_path, 100, f"game={game}", "num_players=4", "ppo.memory_start=zero",
                                   "env_config.memory=false"))
    assert (no_memory.net.actor.body[0].weight != 0).all()  # no memory: every input drawn
    drawn = PPORun(tiny_config(tmp_path, 100, f"game={game}", "num_players=4", "ppo.memory_start=random",
                               "env_config.memory=true"))
    assert (drawn.net.actor.body[0].weight[:, without:] != 0).all()


def test_memory_scale_shrinks_only_the_memorys_standardised_inputs(tmp_path):
    overrides = ("game=stonk_market", "num_players=4", "env_config.memory=true", "ppo.net_arch=[16]")
    full = PPORun(tiny_config(tmp_path, 100, *overrides))
    scaled = PPORun(tiny_config(tmp_path, 100, *overrides, "ppo.memory_scale=0.25"))
    without = vector.make("stonk_market", 1, num_players=4, memory=False).obs_size
    assert scaled.net.memory_from == full.net.memory_from == without
    for run in (full, scaled):
        run.new_model()  # the same seed: the same games and statistics
    np.testing.assert_array_equal(scaled.stats.var, full.stats.var)
    obs = torch.as_tensor(scaled.engine.obs[scaled.engine.actors][:64])
    plain, shrunk = full.net.actor.inputs(obs), scaled.net.actor.inputs(obs)  # the saved actor's own inputs
    torch.testing.assert_close(shrunk[:, :without], plain[:, :without], rtol=0, atol=0)
    unclipped = plain[:, without:].abs() < NORMALISED_CLIP
    assert unclipped.float().mean() > 0.9 and (plain[:, without:] != 0).any()
    torch.testing.assert_close(shrunk[:, without:][unclipped], 0.25 * plain[:, without:][unclipped])
    torch.testing.assert_close(scaled.net.standardise_(obs.clone()).float(), shrunk)  # the rollouts' path too
