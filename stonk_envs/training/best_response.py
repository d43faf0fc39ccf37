"""A best response on the batched trainer: PPO in one seat of every game, a frozen player in the others.

The learner is the trainer's own :class:`~stonk_envs.training.ppo.network.ActorCritic`, trained by
its PPO update (:func:`~stonk_envs.training.ppo.update.ppo_update`) on rollouts of the batched
engine (:class:`~stonk_envs.training.ppo.rollout.Rollouts`). Each game gives the learner one
seat, which moves on by one at each new game in that slot. The other seats form the table: by
default the frozen player holds them all (a table of copies); a mixed table gives some of them,
counted from the learner's seat, to other players. Each holder plays all its seats in one call
per engine step. Two starts:

- ``scratch``: fresh weights, the input statistics fitted as in training;
- ``frozen``: the frozen policy's own actor (weights and input statistics, kept fixed) with a
  fresh critic, fitted alone for the first :data:`CRITIC_WARMUP` of the budget. It begins as an
  equal player, so what it gains above an equal share is exploitation.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm import tqdm

from stonk_envs import vector
from stonk_envs.core.game import NO_ACTION
from stonk_envs.policies.base import Policy
from stonk_envs.policies.seats import FROZEN, LEARNER, built_in_codes
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy
from stonk_envs.training.config import PPOConfig
from stonk_envs.training.device import resolve_device
from stonk_envs.training.exploit_budget import STARTS
from stonk_envs.training.league.pfsp import PastResults
from stonk_envs.training.ppo.network import ActorCritic, resolve_hidden_dtype
from stonk_envs.training.ppo.normaliser import RunningStats
from stonk_envs.training.ppo.rollout import Rollouts, Samples
from stonk_envs.training.ppo.update import minibatch_descent, ppo_update
from stonk_envs.training.threads import ThreadBudget

CRITIC_WARMUP = 0.05
"""Share of a ``frozen`` start's budget in which only the fresh critic learns (the actor stays as it was)."""


@dataclass
class LearnerSetup:
    """How one best response trains: the game, its settings, the budget and the start."""

    game: str
    num_players: int
    env_config: dict
    samples: int
    """Learner decisions to train on (whole rollouts: the last one may go past it)."""
    num_envs: int
    """Games side by side, one learner seat in each."""
    ppo: PPOConfig = field(default_factory=PPOConfig)
    device: str = "cpu"
    torch_threads: int = 1
    seed: int = 0


class TableSeatDraw:
    """The best response's :class:`~stonk_envs.training.league.draw.Seating`: in each game one learner seat
    (rotating game by game in each slot) and the table's players in the rest.

    ``table[k]`` holds the seat ``k + 1`` after the learner's: None for the frozen player, else another
    player (a mixed table).
    """

    def __init__(self, frozen: Policy, table: Sequence[Policy | None], num_envs: int, num_players: int):
        if len(table) != num_players - 1:
            raise ValueError(f"a table of {num_players} seats has {num_players - 1} seats besides the learner's, "
                             f"got {len(table)} players")
        self.num_players = num_players
        self.members: dict[int, Policy] = {FROZEN: frozen}
        self.offsets = np.empty(num_players - 1, np.int64)
        """The holder code of each seat after the learner's."""
        for k, player in enumerate(table):
            if player is None:
                self.offsets[k] = FROZEN
            else:
                self.offsets[k] = built_in_codes(len(self.members) - 1)
                self.members[int(self.offsets[k])] = player
        self.next_seat = np.arange(num_envs, dtype=np.int64) % num_players
        """The learner's seat in the next game of each slot."""
        self.past_results = PastResults(0.0, num_players)
        """No past members play here: nothing is recorded."""

    def draw(self, games: np.ndarray) -> np.ndarray:
        rows = np.arange(len(games))
        seats = self.next_seat[games]
        codes = np.empty((len(games), self.num_players), np.int64)
        codes[rows, seats] = LEARNER
        for k, code in enumerate(self.offsets, start=1):
            codes[rows, (seats + k) % self.num_players] = code
        self.next_seat[games] = (seats + 1) % self.num_players
        return codes

    def release(self, holder: np.ndarray) -> None:
        """Nothing to release: no snapshots play here."""

    def member(self, code: int) -> Policy:
        if code not in self.members:
            raise ValueError(f"no seat holder {code} in a best response's games")
        return self.members[code]


def value_update(net: ActorCritic, optimizer, samples: Samples, ppo: PPOConfig, generator) -> dict[str, float]:
    """Fit the critic alone to the rollout's returns (the actor's gradients are zero)."""

    def batch_loss(batch):
        _, values = net.heads(samples.inputs[batch], samples.penalty[batch])
        loss = 0.5 * (values - samples.returns[batch]).pow(2).mean()
        return ppo.vf_coef * loss, {"value_loss": loss}

    return minibatch_descent(net, optimizer, samples, ppo.n_epochs, ppo.batch_size, ppo.max_grad_norm, generator,
                             batch_loss)


class BestResponse:
    """One best response to ``frozen``: build it, :meth:`train` it, then play it with :meth:`policy`.

    ``table`` gives the players of the seats after the learner's (None: the frozen player; by
    default it holds them all).
    """

    def __init__(self, setup: LearnerSetup, frozen: Policy, start: str, start_net: MaskedMLP | None = None,
                 table: Sequence[Policy | None] | None = None):
        if start not in STARTS:
            raise ValueError(f"start must be one of {STARTS}, got {start!r}")
        if start == "frozen" and start_net is None:
            raise ValueError("the frozen start needs the frozen policy's network (a torch policy file)")
        s = self.setup = setup
        self.start = start
        self.device = resolve_device(s.device)
        torch.manual_seed(s.seed)
        self.engine = vector.make(s.game, s.num_envs, num_players=s.num_players, observe="actors", parallel=False,
                                  **s.env_config)
        hidden = start_net.hparams["hidden"] if start_net is not None else list(s.ppo.net_arch)
        self.net = ActorCritic(self.engine.obs_size, self.engine.num_actions, hidden, None,
                               resolve_hidden_dtype(s.ppo.hidden_precision, self.device))
        if start == "frozen":
            if start_net.hparams["observation_size"] != self.engine.obs_size or "normalise" not in start_net.hparams:
                raise ValueError("the frozen policy's network does not read this game's observations with statistics")
            self.net.actor.load_state_dict(start_net.state_dict())
        self.net.to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=s.ppo.learning_rate, eps=1e-5)
        self.stats = RunningStats(self.engine.obs_size)
        self.rng = np.random.default_rng(s.seed)
        self.sampler = torch.Generator(device=self.device).manual_seed(s.seed)
        self.shuffler = torch.Generator().manual_seed(s.seed + 1)
        p = self.engine.num_players
        seats = TableSeatDraw(frozen, [None] * (p - 1) if table is None else table, self.engine.num_envs, p)
        self.rollouts = Rollouts(self.engine, self.net, seats, self.rng, self.sampler, self.device)
        self.step = 0
        self.curve: list[dict[str, float]] = []
        self.seconds = 0.0

    def train(self, progress: bool = False, desc: str = "best response", until: int | None = None) -> None:
        """Train up to ``until`` learner samples (None: the setup's); a later call continues the same run."""
        s, ppo = self.setup, self.setup.ppo
        until = s.samples if until is None else min(until, s.samples)
        threads = torch.get_num_threads()
        budget = ThreadBudget(s.torch_threads)
        started = time.perf_counter()
        fit_statistics = self.start == "scratch"
        try:
            if self.step == 0:
                self.rollouts.deal(int(self.rng.integers(2**62)))
                if fit_statistics:
                    e = self.engine
                    self.stats.update(e.obs[e.actors])
                    self.net.set_statistics(self.stats)
            warmup = int(CRITIC_WARMUP * s.samples) if self.start == "frozen" else 0
            with tqdm(total=until, initial=self.step, unit="sample", desc=desc, disable=not progress) as bar:
                while self.step < until:
                    budget.adjust()
                    carried = len(self.rollouts.carried["columns"])
                    table, decisions = self.rollouts.collect(ppo.n_steps)
                    samples = self.rollouts.samples(table, ppo.gamma, ppo.gae_lambda)
                    if self.step < warmup:
                        value_update(self.net, self.optimizer, samples, ppo, self.shuffler)
                    else:
                        ppo_update(self.net, self.optimizer, samples, ppo, self.shuffler)
                    if fit_statistics:
                        self.stats.update(table["obs"][carried:])
                        self.net.set_statistics(self.stats)
                    self.rollouts.carry(table)
                    self.step += decisions
                    self._record(bar, decisions)
        finally:
            torch.set_num_threads(threads)
            self.seconds += time.perf_counter() - started

    def _record(self, bar: tqdm, decisions: int) -> None:
        finished = self.rollouts.finished
        point = {
            "step": self.step,
            "episode_reward": float(np.mean([r for r, _ in finished])) if finished else 0.0,
            "win_rate": float(np.mean([w for _, w in finished])) if finished else 0.0,
        }
        self.curve.append(point)
        bar.update(decisions)
        bar.set_postfix(win=f"{point['win_rate']:.2f}")

    def actor(self) -> MaskedMLP:
        """A CPU copy of the learner's actor (the saved player)."""
        actor = MaskedMLP(**self.net.actor.hparams)
        actor.load_state_dict({k: v.detach().cpu().clone() for k, v in self.net.actor.state_dict().items()})
        return actor

    def policy(self, name: str) -> TorchPolicy:
        """The learner as a player that samples its actions, as it did in training."""
        return TorchPolicy(self.actor(), deterministic=False, name=name)


def play_against(
    player: Policy, frozen: Policy, game: str, num_players: int, env_config: dict, num_games: int, seed: int,
    table: Sequence[Policy | None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``num_games`` games on the batched engine, ``player`` in seat ``g % num_players`` of game g and the table
    in the others (``table[k]`` at the seat ``k + 1`` after it, None for ``frozen``; by default ``frozen`` in
    all); returns each game's scores (num_games, num_players) and ``player``'s seat in it.

    Each game is the first dealt in its slot (the engine deals the next one when it ends; those are
    played on until every slot's first game is over, and not counted).
    """
    table = [None] * (num_players - 1) if table is None else list(table)
    engine = vector.make(game, num_games, num_players=num_players, observe="actors", parallel=False, **env_config)
    engine.reset(seed)
    rng = np.random.default_rng(seed)
    seats = np.arange(num_games) % num_players
    holders = [player, *(frozen if other is None else other for other in table)]
    distinct = list({id(holder): holder for holder in holders}.values())
    by_offset = np.array([distinct.index(holder) for holder in holders], np.int64)
    offsets = (np.arange(num_players)[None, :] - seats[:, None]) % num_players
    seat_holder = by_offset[offsets]
    scores = np.zeros((num_games, num_players), np.float64)
    open_games = np.ones(num_games, np.bool_)
    while open_games.any():
        joint = np.full((num_games, num_players), NO_ACTION, np.int64)
        for k, holder in enumerate(distinct):
            seated = engine.actors & (seat_holder == k)
            if seated.any():
                joint[seated] = holder.act(engine.obs[seated], engine.masks[seated], rng)
        engine.step(joint)
        for g in np.flatnonzero(engine.terminated & open_games):
            scores[g] = engine.game.scores(engine.final_states, int(g))
            open_games[g] = False
    return scores, seats
