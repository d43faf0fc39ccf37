"""Data-parallel batched PPO: two gloo workers on this machine end with identical weights and league; resume checks
the size."""

import json
import os
import socket

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from stonk_envs.training import run_state
from stonk_envs.training.config import load_config
from stonk_envs.training.distributed import WORLD_FILE, World, check_world, train_worker, weights_digest
from tests.reliability.test_run_folder import hold_lock

TINY = [
    "trainer=ppo", "game=stocks_and_bombs", "num_players=4", "num_envs=8", "total_timesteps=600", "torch_threads=1",
    "ppo.n_steps=4", "ppo.batch_size=32", "ppo.n_epochs=2", "ppo.imitation.samples=100", "ppo.imitation.epochs=1",
    "league.past=0.5", "league.snapshot_interval=200", "league.heuristic=0.1", "eval.interval=0",
    "eval.num_games=2", "eval.final_num_games=2", "eval.opponents=[random]", "eval.workers=1",
    "eval.crossplay_games=0", "progress=false", "checkpoint_interval=300", "ppo.league.exploiter_samples=512",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(rank: int, size: int, port: int, run_dir: str, out: str) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=size)
    try:
        config = load_config(None, [*TINY, f"run_dir={run_dir}"])
        from stonk_envs.training import distributed

        runs = []
        original = distributed.DistributedPPORun.learn

        def learn(self):
            runs.append(self)
            return original(self)

        distributed.DistributedPPORun.learn = learn
        train_worker(config, World(rank, size))
        run = runs[0]
        league = {str(step): run.snapshots.nets[step].state_dict() for step in run.snapshots.steps}
        torch.save({"net": run.net.state_dict(), "step": run.step, "snapshots": list(run.snapshots.steps),
                    "league": league, "seed": run.config.seed}, f"{out}/rank{rank}.pt")
    finally:
        dist.destroy_process_group()


@pytest.mark.slow
def test_two_workers_keep_identical_weights(tmp_path):
    run_dir = tmp_path / "run"
    mp.spawn(_worker, args=(2, _free_port(), str(run_dir), str(tmp_path)), nprocs=2, join=True)
    first, second = (torch.load(tmp_path / f"rank{r}.pt", weights_only=True) for r in (0, 1))
    assert first["seed"] != second["seed"]
    assert first["step"] == second["step"] >= 600
    assert first["snapshots"] == second["snapshots"] and first["snapshots"]
    exploiters = [step for step in first["snapshots"] if step - 1 in first["snapshots"]]  # a snapshot's step + 1
    assert exploiters and first["league"].keys() == second["league"].keys()
    for step, weights in first["league"].items():  # snapshots and exploiters: the same on both workers
        for name, tensor in weights.items():
            assert torch.equal(tensor, second["league"][step][name]), (step, name)
    assert first["net"].keys() == second["net"].keys()
    for name, tensor in first["net"].items():
        assert torch.equal(tensor, second["net"][name]), name
    assert (run_dir / "policy.zip").is_file()
    world = json.loads((run_dir / WORLD_FILE).read_text())
    assert world["world_size"] == 2 and world["weights_identical"] is True
    assert world["weights_sha256"] == [weights_digest(first["net"])] * 2
    written = {p.name for p in tmp_path.iterdir()}
    assert written == {"run", "rank0.pt", "rank1.pt"}  # the second worker wrote nothing beside rank 0's folder


def test_resume_needs_the_same_world_size(tmp_path):
    (tmp_path / WORLD_FILE).write_text(json.dumps({"world_size": 2}))
    check_world(tmp_path, World(0, 2))
    with pytest.raises(ValueError, match="trained by 2 workers; resume it with 2 \\(this launch has 3\\)"):
        check_world(tmp_path, World(0, 3))
    with pytest.raises(ValueError, match="trained by 1 workers"):
        check_world(tmp_path / "nothing", World(0, 2))


def test_a_distributed_run_is_refused_while_another_trainer_holds_the_folder(tmp_path):
    run_dir = tmp_path / "run"
    holder = hold_lock(run_dir)
    dist.init_process_group("gloo", rank=0, world_size=1, init_method=f"file://{tmp_path / 'store'}")
    try:
        with pytest.raises(run_state.RunFolderBusy, match=f"process {holder.pid}"):
            train_worker(load_config(None, [*TINY, f"run_dir={run_dir}"]), World(0, 1))
        (run_dir / "config.yaml").write_text("trainer: ppo\n")
        with pytest.raises(run_state.RunFolderBusy, match=f"process {holder.pid}"):
            train_worker(None, World(0, 1), str(run_dir))
    finally:
        dist.destroy_process_group()
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in run_dir.iterdir()) == [".lock", "config.yaml"]  # nothing else written
