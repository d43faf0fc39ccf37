"""Playing rollouts on the batched engine: the learner holds most seats, league members the rest.

One engine step asks every seat that decides for an action: the learner's seats in one
forward pass (each decision a training sample), each league member's seats in one call of
that member (not samples). A seat's holder is drawn when its game starts, by the league
(:class:`~stonk_envs.training.league.draw.SeatDraw`, or a best response's own draw).

Samples are kept compactly (one row each, in the order they are made) with small tables of
rows (engine steps) by columns (``game * P + seat``) for the per-seat advantages
(:mod:`stonk_envs.training.ppo.gae`). A column's last decision whose game goes on cannot be scored yet:
it is carried to the front of the next rollout.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
import torch

from stonk_envs.core.game import NO_ACTION
from stonk_envs.policies.base import Policy
from stonk_envs.policies.seats import LEARNER, is_past
from stonk_envs.policies.torch_policy import sample_actions
from stonk_envs.training.league.draw import Seating
from stonk_envs.training.ppo.gae import per_seat_gae
from stonk_envs.training.ppo.network import ActorCritic, legal_actions, probabilities
from stonk_envs.vector.engine import BatchEngine


@dataclass
class Samples:
    """One rollout's trainable samples, as tensors on the training device."""

    inputs: torch.Tensor
    """The observations standardised once (:meth:`ActorCritic.standardise_`), as the update's network sees them."""
    legal: torch.Tensor
    """1.0 where an action is legal, else 0.0 (:func:`legal_actions`)."""
    penalty: torch.Tensor
    """0.0 where an action is legal, else ``ILLEGAL_LOGIT``."""
    actions: torch.Tensor
    labels: torch.Tensor
    """The labeler's action at each decision (:meth:`Rollouts.collect`), -1 where there was none."""
    logp: torch.Tensor
    values: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor

    def __len__(self) -> int:
        return len(self.actions)


class Rollouts:
    """The games in play, who holds each seat, and the samples of the rollout being collected."""

    def __init__(
        self,
        engine: BatchEngine,
        net: ActorCritic,
        seats: Seating,
        rng: np.random.Generator,
        generator: torch.Generator,
        device: torch.device,
    ):
        self.engine = engine
        self.net = net
        self.seats = seats
        """The league's draw of each new game's seat holders, and the players behind them."""
        self.rng = rng
        self.generator = generator
        self.device = device
        n, p = engine.num_envs, engine.num_players
        self.num_columns = n * p
        self.holder = np.full((n, p), LEARNER, np.int64)
        self.pending = np.full(self.num_columns, -1, np.int64)
        """Row of each column's decision whose transition is still open (-1: none)."""
        self.carried: dict[str, np.ndarray] = self._empty_carry()
        self.episode_return = np.zeros(self.num_columns, np.float64)
        self.finished: deque[tuple[float, float]] = deque(maxlen=1000)
        """(return, win) of the learner's seats in recently finished games."""

    # ------------------------------------------------------------------ seats
    def deal(self, seed: int) -> None:
        """New games in every slot, with their seat holders drawn."""
        self.engine.reset(seed)
        self.pending[:] = -1
        self.carried = self._empty_carry()
        self.episode_return[:] = 0.0
        self._draw_holders(np.arange(self.engine.num_envs))

    def _draw_holders(self, games: np.ndarray) -> None:
        if len(games) == 0:
            return
        self.holder[games] = self.seats.draw(games)
        self.seats.release(self.holder)

    # ------------------------------------------------------------------ collecting
    def collect(
        self, num_steps: int, teacher: Policy | None = None, labeler: Policy | None = None
    ) -> tuple[dict[str, np.ndarray], int]:
        """Play ``num_steps`` engine steps; returns the rollout (see :meth:`samples`) and the decisions made.

        With a ``teacher``, the teacher chooses the learner seats' actions (an imitation rollout);
        the network still values them and gives their log-probabilities. With a ``labeler``, the
        learner chooses and the labeler's choice from the same observation is kept as its label.
        """
        e, s = self.engine, self.num_columns
        rows = num_steps + 1  # row 0: the decisions carried from the previous rollout
        table = {
            "rewards": np.zeros((rows, s), np.float32),
            "values": np.zeros((rows, s), np.float32),
            "valid": np.zeros((rows, s), np.bool_),
            "done": np.zeros((rows, s), np.bool_),
            "index": np.zeros((rows, s), np.int64),
        }
        carried = self.carried
        columns = carried["columns"]
        table["valid"][0, columns] = True
        table["values"][0, columns] = carried["values"]
        table["rewards"][0, columns] = carried["rewards"]
        table["index"][0, columns] = np.arange(len(columns))
        blocks = {key: [carried[key]] for key in ("obs", "masks", "actions", "labels", "logp")}
        made = len(columns)
        decisions = 0
        learner_column = np.zeros(s, np.bool_)
        for t in range(1, rows):
            learner_column[:] = (self.holder == LEARNER).ravel()
            deciding = np.flatnonzero(e.actors.ravel() & learner_column)
            obs = e.obs.reshape(s, -1)[deciding]
            masks = e.masks.reshape(s, -1)[deciding]
            actions, logp, values = self._act(obs, masks, teacher)
            labels = self._labels(obs, masks, labeler)
            joint = np.full(s, NO_ACTION, np.int64)
            joint[deciding] = actions
            self._members_act(joint.reshape(e.num_envs, -1))
            for key, value in (("obs", obs), ("masks", masks), ("actions", actions), ("labels", labels),
                               ("logp", logp)):
                blocks[key].append(value)
            table["valid"][t, deciding] = True
            table["values"][t, deciding] = values
            table["index"][t, deciding] = np.arange(made, made + len(deciding))
            made += len(deciding)
            decisions += len(deciding)
            self.pending[deciding] = t
            e.step(joint.reshape(e.num_envs, -1))
            self._book_rewards(table, learner_column)
            if e.terminated.any():
                self._end_games(table)
        table.update({key: np.concatenate(blocks[key]) for key in blocks})
        return table, decisions

    def _act(
        self, obs: np.ndarray, masks: np.ndarray, teacher: Policy | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner's sampled actions (or the teacher's), their log-probabilities and the values."""
        with torch.no_grad():
            legal, penalty = legal_actions(torch.from_numpy(masks).to(self.device))
            logp, values = self.net(torch.from_numpy(obs).to(self.device), penalty)
            if teacher is None:
                actions = sample_actions(probabilities(logp, legal), self.generator)
            else:
                chosen_by_teacher = teacher.act(obs, masks, self.rng) if len(obs) else np.zeros(0, np.int64)
                actions = torch.as_tensor(chosen_by_teacher, dtype=torch.int64, device=self.device)
            chosen = logp.gather(1, actions[:, None]).squeeze(1)
        return actions.cpu().numpy(), chosen.cpu().numpy(), values.cpu().numpy()

    def _labels(self, obs: np.ndarray, masks: np.ndarray, labeler: Policy | None) -> np.ndarray:
        """The labeler's actions for these decisions, or -1 each without one."""
        if labeler is None or not len(obs):
            return np.full(len(obs), -1, np.int64)
        return np.asarray(labeler.act(obs, masks, self.rng), np.int64)

    def _members_act(self, joint: np.ndarray) -> None:
        """One call per fixed league member, and one for all the snapshots, for the seats they hold that decide now."""
        e = self.engine
        playing = e.actors & (self.holder != LEARNER)
        if not playing.any():
            return
        for code in np.unique(self.holder[playing & ~is_past(self.holder)]):
            seats = np.nonzero(playing & (self.holder == code))
            joint[seats] = self.seats.member(int(code)).act(e.obs[seats], e.masks[seats], self.rng)
        seats = np.nonzero(playing & is_past(self.holder))
        if len(seats[0]):
            joint[seats] = self.seats.snapshots.act(self.holder[seats], e.obs[seats], e.masks[seats], self.rng)

    def _book_rewards(self, table: dict[str, np.ndarray], learner_column: np.ndarray) -> None:
        rewards = self.engine.rewards.reshape(-1)
        open_columns = np.flatnonzero(self.pending >= 0)
        table["rewards"][self.pending[open_columns], open_columns] += rewards[open_columns]
        self.episode_return += np.where(learner_column, rewards, 0.0)

    def _end_games(self, table: dict[str, np.ndarray]) -> None:
        e, p = self.engine, self.engine.num_players
        games = np.flatnonzero(e.terminated)
        columns = (games[:, None] * p + np.arange(p)).ravel()
        closing = columns[self.pending[columns] >= 0]
        table["done"][self.pending[closing], closing] = True
        self.pending[columns] = -1
        for g in games:
            scores = np.asarray(e.game.scores(e.final_states, int(g)))
            won = scores == scores.max()
            learner_seats = np.flatnonzero(self.holder[g] == LEARNER)
            for seat in learner_seats:
                self.finished.append((float(self.episode_return[g * p + seat]), float(won[seat])))
            members = self.holder[g][is_past(self.holder[g])]
            if len(members):
                self.seats.past_results.record(members, float(won[learner_seats].mean()))
        self.episode_return[columns] = 0.0
        self._draw_holders(games)

    # ------------------------------------------------------------------ after collecting
    def samples(self, table: dict[str, np.ndarray], gamma: float, lam: float) -> Samples:
        """The trainable samples of a collected rollout, with their advantages and returns."""
        advantages, returns, trainable = per_seat_gae(
            table["rewards"], table["values"], table["valid"], table["done"], gamma, lam
        )
        index = table["index"][trainable]
        values = table["values"][trainable]

        def tensor(array, dtype=None):
            return torch.as_tensor(array, dtype=dtype, device=self.device)

        with torch.no_grad():  # the statistics stay fixed until the update is done
            inputs = self.net.standardise_(tensor(table["obs"][index]))  # a copy: fancy indexing
            legal, penalty = legal_actions(tensor(table["masks"][index]))
        return Samples(
            inputs=inputs,
            legal=legal,
            penalty=penalty,
            actions=tensor(table["actions"][index]),
            labels=tensor(table["labels"][index]),
            logp=tensor(table["logp"][index]),
            values=tensor(values),
            advantages=tensor(advantages[trainable]),
            returns=tensor(returns[trainable]),
        )

    def carry(self, table: dict[str, np.ndarray]) -> None:
        """Move the decisions still open to the front of the next rollout, valued by the updated critic."""
        columns = np.flatnonzero(self.pending >= 0)
        rows = self.pending[columns]
        index = table["index"][rows, columns]
        carried = {key: table[key][index] for key in ("obs", "masks", "actions", "labels", "logp")}
        carried["columns"] = columns
        carried["rewards"] = table["rewards"][rows, columns]
        with torch.no_grad():
            _, values = self.net(
                torch.from_numpy(carried["obs"]).to(self.device),
                legal_actions(torch.from_numpy(carried["masks"]).to(self.device))[1],
            )
        carried["values"] = values.cpu().numpy()
        self.carried = carried
        self.pending[columns] = 0

    def _empty_carry(self) -> dict[str, np.ndarray]:
        e = self.engine
        return {
            "columns": np.zeros(0, np.int64),
            "obs": np.zeros((0, e.obs_size), np.float32),
            "masks": np.zeros((0, e.num_actions), np.int8),
            "actions": np.zeros(0, np.int64),
            "labels": np.zeros(0, np.int64),
            "logp": np.zeros(0, np.float32),
            "values": np.zeros(0, np.float32),
            "rewards": np.zeros(0, np.float32),
        }

    # ------------------------------------------------------------------ state
    def state_dict(self) -> dict:
        return {
            "engine": self.engine.get_state(),
            "holder": self.holder.copy(),
            "pending": self.pending.copy(),
            "carried": {k: v.copy() for k, v in self.carried.items()},
            "episode_return": self.episode_return.copy(),
            "finished": list(self.finished),
            "past_win_rate": dict(self.seats.past_results.win_rate),
        }

    def load_state_dict(self, state: dict) -> None:
        self.engine.set_state(state["engine"])
        self.holder[...] = state["holder"]
        self.pending[...] = state["pending"]
        self.carried = {k: v.copy() for k, v in state["carried"].items()}
        self.carried.setdefault("labels", np.full(len(self.carried["columns"]), -1, np.int64))  # saved before labels
        self.episode_return[...] = state["episode_return"]
        self.finished = deque(state["finished"], maxlen=self.finished.maxlen)
        self.seats.past_results.win_rate = {int(k): float(v) for k, v in state.get("past_win_rate", {}).items()}
