"""Data-parallel batched PPO on torch.distributed (DD-PPO): each worker plays its own engine, gradients are averaged.

Launch with ``torchrun`` on one machine or many (see ``docs/scaling.md``)::

    torchrun --nproc-per-node 2 -m stonk_envs.training.distributed --config stocks_and_bombs
    torchrun --nproc-per-node 2 -m stonk_envs.training.distributed --resume runs/stocks_and_bombs

- Backend: gloo on CPU, nccl on a GPU (``ppo.device``); each worker takes the GPU of its local rank.
- Worker ``r`` plays ``num_envs`` games of its own, seeded with ``seed + SEED_STRIDE * r``; the
  network starts from rank 0's weights. Every minibatch's gradients are averaged over the
  workers (one all-reduce of every gradient, flattened) before the clip and the Adam step, and
  every worker takes the same number of minibatch steps per rollout (the fewest its samples
  give on any worker), so the weights stay identical after every update. The observation
  statistics fold in every worker's batch, in rank order, on every worker.
- Steps count the samples of all workers together: ``total_timesteps``, the snapshot,
  checkpoint and evaluation intervals and ``ppo.imitation.samples`` are totals, so league
  snapshots are taken at the same step, from the same weights, on every worker. An exploiter
  (``ppo.league.exploiter_samples``) is trained on rank 0 alone and its weights sent to the others.
- Rank 0 alone writes the run folder (checkpoints, evaluations, logs, the policy); the other
  workers write nothing there. ``--resume`` needs the same world size (saved in
  ``distributed.json``) and a run folder every worker can read; workers other than rank 0
  then deal fresh games of their own (rank 0 continues bit for bit).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import math
import os
import sys
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist

from stonk_envs import cli_args
from stonk_envs.files import check_output_dir
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.training import run_state
from stonk_envs.training.config import TrainConfig, check_opponents, load_config, load_saved_config, to_yaml
from stonk_envs.training.exploiters import exploiter_key
from stonk_envs.training.ppo.normaliser import RunningStats, _moments
from stonk_envs.training.ppo.run import PPORun

SEED_STRIDE = 1_000_003
"""Worker ``r`` seeds its games, league draws and sampling with ``seed + SEED_STRIDE * r``."""
WORLD_FILE = "distributed.json"
"""The run folder's record of its world size (a resume must match it)."""
TIMEOUT = timedelta(hours=2)
"""How long a worker waits at a collective (rank 0's evaluations run while the others wait)."""


@dataclasses.dataclass(frozen=True)
class World:
    rank: int
    size: int
    local_rank: int = 0

    @property
    def device(self) -> torch.device:
        """Where the collectives' tensors live: the GPU under nccl, else the CPU."""
        return torch.device("cuda") if dist.get_backend() == "nccl" else torch.device("cpu")


def start(device: str) -> World:
    """Join the process group that ``torchrun`` describes in the environment (gloo on CPU, nccl on CUDA)."""
    cuda = device == "cuda" or (device == "auto" and torch.cuda.is_available())
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if cuda:
        torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl" if cuda else "gloo", timeout=TIMEOUT)
    return World(dist.get_rank(), dist.get_world_size(), local_rank)


class GradientSync:
    """What every worker must agree on in each update: how many minibatches, and the averaged gradients."""

    def __init__(self, world: World):
        self.world_size = world.size
        self.device = world.device

    def num_batches(self, samples: int, batch_size: int) -> int:
        """Minibatches per epoch: the fewest that ``batch_size`` gives any worker's samples (at least one)."""
        fewest = torch.tensor([samples], dtype=torch.int64, device=self.device)
        dist.all_reduce(fewest, op=dist.ReduceOp.MIN)
        return max(1, math.ceil(int(fewest) / batch_size))

    def average(self, parameters) -> None:
        """Replace each gradient by its mean over the workers (one all-reduce of all of them)."""
        grads = [p.grad for p in parameters if p.grad is not None]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat /= self.world_size
        offset = 0
        for g in grads:
            g.copy_(flat[offset : offset + g.numel()].view_as(g))
            offset += g.numel()


class SharedStats(RunningStats):
    """Observation statistics that fold in every worker's batch, in rank order, on every worker."""

    def __init__(self, size: int, device: torch.device):
        super().__init__(size)
        self.device = device

    def update(self, batch: np.ndarray) -> None:
        size = len(self.mean)
        local = np.zeros(2 * size + 1, np.float64)
        if len(batch):
            local[0] = len(batch)
            local[1 : size + 1], local[size + 1 :] = _moments(np.ascontiguousarray(batch))
        gathered = [torch.zeros(len(local), dtype=torch.float64, device=self.device)
                    for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, torch.from_numpy(local).to(self.device))
        for part in (part.cpu() for part in gathered):
            n, mean, var = float(part[0]), part[1 : size + 1].numpy(), part[size + 1 :].numpy()
            if n:
                self._fold(n, mean, var)

    def _fold(self, n: float, mean: np.ndarray, var: np.ndarray) -> None:
        if self.count == 0:
            self.mean, self.var, self.count = mean.copy(), var.copy(), n
            return
        total = self.count + n
        delta = mean - self.mean
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + var * n + delta**2 * self.count * n / total) / total
        self.count = total


class DistributedPPORun(PPORun):
    """One worker of a data-parallel run; see the module docstring."""

    def __init__(self, config: TrainConfig, world: World):
        self.world = world
        self.base_seed = config.seed
        self.real_run_dir = Path(config.run_dir)
        self._scratch = None
        if world.rank > 0:  # the other workers' files go to a scratch folder, removed at the end
            self._scratch = tempfile.TemporaryDirectory(prefix=f"stonk-worker{world.rank}-")
            config = dataclasses.replace(config, progress=False, run_dir=self._scratch.name)
        config = dataclasses.replace(config, seed=config.seed + SEED_STRIDE * world.rank)
        super().__init__(config)  # on a GPU: the local rank's, made current by start()
        self.gradient_sync = GradientSync(world)
        self.stats = SharedStats(self.engine.obs_size, world.device)
        for tensor in [*self.net.parameters(), *self.net.buffers()]:
            dist.broadcast(tensor.data, src=0)
        if world.rank > 0:
            self.due["eval"] = None

    def _one_rollout(self, fit, teacher=None, labeler=None):
        """One rollout of this worker; the decisions returned are those of all workers."""
        losses, decisions = super()._one_rollout(fit, teacher, labeler)
        total = torch.tensor([decisions], dtype=torch.int64, device=self.world.device)
        dist.all_reduce(total)
        return losses, int(total)

    def _at_rollout_start(self) -> None:
        """A stop asked of any worker stops them all at this boundary."""
        asked = torch.tensor([int(self.stop_requested)], dtype=torch.int64, device=self.world.device)
        dist.all_reduce(asked, op=dist.ReduceOp.MAX)
        self.stop_requested = bool(int(asked))
        super()._at_rollout_start()

    def _add_exploiter(self) -> None:
        """Rank 0 trains the exploiter and every worker takes its weights, so the league is the same on all."""
        key = exploiter_key(self)
        if self.world.rank == 0:
            super()._add_exploiter()
            actor = self.past_member(key)
        else:
            with torch.random.fork_rng(devices=[]):  # building a network must not shift the training stream
                actor = MaskedMLP(**self.net.actor.hparams)
        weights = actor.state_dict()
        for name, tensor in weights.items():
            moved = tensor.to(self.world.device)
            dist.broadcast(moved, src=0)
            weights[name] = moved.cpu()
        if self.world.rank > 0:
            actor.load_state_dict(weights)
            self.add_past_member(key, actor)

    def checkpoint(self) -> Path:
        if self.world.rank == 0:
            return super().checkpoint()
        return run_state.policy_path(self.run_dir, self.step)

    def load(self, policy_file: Path, state_file: Path) -> None:
        super().load(policy_file, state_file)
        if self.world.rank > 0:  # rank 0's games and streams were saved; this worker deals its own
            self.due["eval"] = None
            seed = self.config.seed + self.step
            self.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
            self.sampler.manual_seed(seed)
            self.rollouts.deal(int(self.rng.integers(2**62)))

    def _finish(self) -> dict[str, Any] | None:
        """Check that every worker ends with rank 0's weights (recorded in ``distributed.json``), then rank 0
        evaluates as one process does."""
        digests = self._gather_digests()
        if self.world.rank > 0:
            return None
        identical = len(set(digests)) == 1
        record = {"world_size": self.world.size, "weights_identical": identical, "weights_sha256": digests}
        run_state.write_json(self.run_dir / WORLD_FILE, record)
        if not identical:
            raise RuntimeError(f"the workers' weights differ at the end of training: {digests}")
        print(f"the {self.world.size} workers' weights are identical (sha256 {digests[0][:16]})")
        return super()._finish()

    def _gather_digests(self) -> list[str]:
        """Every worker's :func:`weights_digest`, in rank order."""
        mine = torch.tensor(list(bytes.fromhex(weights_digest(self.net.state_dict()))), dtype=torch.int64,
                            device=self.world.device)
        gathered = [torch.zeros_like(mine) for _ in range(self.world.size)]
        dist.all_gather(gathered, mine)
        return [bytes(t.cpu().tolist()).hex() for t in gathered]


def weights_digest(state: dict[str, torch.Tensor]) -> str:
    """The sha256 of a network state's tensors' bytes (weights and statistics), in order."""
    digest = hashlib.sha256()
    for tensor in state.values():
        digest.update(tensor.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def check_world(run_dir: Path, world: World) -> None:
    """A resumed run must have the world size it was started with (``distributed.json``)."""
    path = run_dir / WORLD_FILE
    saved = json.loads(path.read_text()) if path.is_file() else {"world_size": 1}
    if saved["world_size"] != world.size:
        raise ValueError(f"{run_dir} was trained by {saved['world_size']} workers; resume it with "
                         f"{saved['world_size']} (this launch has {world.size})")


def train_worker(config: TrainConfig | None, world: World, resume_dir: str | None = None,
                 overrides: list[str] | tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Run this worker of a new (``config``) or resumed (``resume_dir``) data-parallel run."""
    if resume_dir is not None:
        run_dir = Path(resume_dir)
        check_world(run_dir, world)
        config = load_saved_config(run_dir, [*overrides, f"run_dir={run_dir}"])
        check_opponents(config)
        with rank_zero_lock(run_dir, world):
            if world.rank == 0:
                run_state.remove_temporaries(run_dir)
            dist.barrier()
            step, policy_file, state_file = run_state.latest_checkpoint(run_dir)
            run = DistributedPPORun(config, world)
            run.load(policy_file, state_file)
            if world.rank == 0:
                print(f"resuming {run_dir} at step {step:,} on {world.size} workers")
            return run.learn()
    if config.trainer != "ppo":
        raise ValueError("distributed training needs trainer=ppo (the batched trainer)")
    run_dir = check_output_dir(config.run_dir, "run_dir")
    check_opponents(config)
    with rank_zero_lock(run_dir, world):
        if (run_dir / run_state.LATEST).exists():
            raise ValueError(f"{run_dir} already holds a run; resume it with --resume {run_dir} or choose another "
                             "run_dir")
        dist.barrier()  # every worker has looked before rank 0 writes
        if world.rank == 0:
            run_state.atomic_write_text(run_dir / "config.yaml", to_yaml(config))
            run_state.write_json(run_dir / WORLD_FILE, {"world_size": world.size})
        dist.barrier()
        run = DistributedPPORun(config, world)
        run.new_model()
        return run.learn()


@contextlib.contextmanager
def rank_zero_lock(run_dir: Path, world: World) -> Iterator[None]:
    """Rank 0 holds the run folder's lock (:func:`run_state.locked`); every worker stops if another trainer has it."""
    with contextlib.ExitStack() as stack:
        refusal = ""
        if world.rank == 0:
            try:
                stack.enter_context(run_state.locked(run_dir))
            except run_state.RunFolderBusy as err:
                refusal = str(err)
        busy = torch.tensor([int(bool(refusal))], dtype=torch.int64, device=world.device)
        dist.broadcast(busy, src=0)
        if int(busy):
            raise run_state.RunFolderBusy(refusal or f"{run_dir} is in use by another trainer (rank 0 names it)")
        yield


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="torchrun ... -m stonk_envs.training.distributed",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=cli_args.config, help=cli_args.CONFIG_HELP)
    parser.add_argument("--resume", type=cli_args.input_dir, metavar="RUN_DIR",
                        help="continue the run in RUN_DIR (same world size)")
    cli_args.add_trust_file(parser)
    cli_args.add_overrides(parser, "total_timesteps=500000 num_envs=128")
    args = parser.parse_args(argv)
    try:
        config = None if args.resume else load_config(args.config, args.overrides)
        device = (config or load_saved_config(Path(args.resume))).ppo.device
        world = start(device)
    except ValueError as err:  # torch's word for a launch without torchrun's environment, too
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        train_worker(config, world, args.resume, args.overrides if args.resume else ())
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
