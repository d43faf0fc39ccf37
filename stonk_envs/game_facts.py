"""Each game at a glance, read from its envs: import, ids, agents, APIs, reward modes, and the sizes of
its spaces at every player count.

The game docs open with :func:`glance_table` and :func:`sizes_table`, and the README holds
:func:`all_sizes_table`; a docs test checks that each doc holds what these give, so the tables
cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass

from stonk_envs import registry
from stonk_envs.core.rewards import REWARD_MODES
from stonk_envs.games_index import game_module


@dataclass(frozen=True)
class Sizes:
    """The spaces of one game at one player count, as its Parallel env reports them."""

    num_players: int
    actions: int
    observation: int
    observation_without_memory: int
    state: int


def player_range(name: str) -> tuple[int, int]:
    """The fewest and most players a game takes (its config module's ``MIN_PLAYERS``, ``MAX_PLAYERS``)."""
    config_module = importlib.import_module(registry.spec(name).config.partition(":")[0])
    return config_module.MIN_PLAYERS, config_module.MAX_PLAYERS


def sizes(name: str, num_players: int) -> Sizes:
    """The action, observation (with and without the public memory) and ``state()`` sizes of a game."""
    module = game_module(name)
    spaces = []
    for memory in (True, False):
        env = module.parallel_env(num_players=num_players, memory=memory)
        agent = env.possible_agents[0]
        spaces.append((env.action_space(agent).n, env.observation_space(agent)["observation"].shape[0],
                       env.state_space.shape[0]))
    (actions, observation, state), (_, without_memory, _) = spaces
    return Sizes(num_players, actions, observation, without_memory, state)


def _default(name: str, field_name: str):
    fields = {field.name: field for field in dataclasses.fields(registry.spec(name).config_class())}
    return fields[field_name].default


def glance_table(name: str) -> str:
    """The key facts of a game as a two-column markdown table."""
    spec = registry.spec(name)
    module = game_module(name)
    low, high = player_range(name)
    native = ("Parallel (every seat acts in every tick)" if module.GAME.simultaneous
              else "AEC (one seat decides in each step)")
    modes = ", ".join(f"`{mode}`" + (" (default)" if mode == _default(name, "reward_mode") else "")
                      for mode in REWARD_MODES)
    short = spec.module.rpartition(".")[2]
    rows = [
        ("import", f"`from stonk_envs import {short}`"),
        ("PettingZoo id", f"`{spec.env_id}`"),
        ("Gymnasium id (one seat)", f"`{spec.gym_id}`"),
        ("agents", f"`player_0` to `player_{{n-1}}`, n = {low} to {high} (default {_default(name, 'num_players')})"),
        ("APIs", f"AEC (`env`, `raw_env`) and Parallel (`parallel_env`), native {native}"),
        ("action space", "`Discrete(A)`, the same for every seat, with a legal-action mask"),
        ("observation space", "`Dict(observation=Box(float32, (O,)), action_mask=Box(int8, (A,)))`"),
        ("state space", "`Box(float32, (S,))`: the full state, for centralised critics"),
        ("reward modes", modes),
    ]
    lines = ["| | |", "| --- | --- |", *(f"| {key} | {value} |" for key, value in rows)]
    return "\n".join(lines)


def sizes_table(name: str) -> str:
    """A, O and S of :func:`glance_table` at every player count, as a markdown table."""
    low, high = player_range(name)
    lines = ["| players n | actions A | observation O | O with `memory=False` | state S |",
             "| --- | --- | --- | --- | --- |"]
    for n in range(low, high + 1):
        s = sizes(name, n)
        lines.append(f"| {n} | {s.actions} | {s.observation} | {s.observation_without_memory} | {s.state} |")
    return "\n".join(lines)


def all_sizes_table() -> str:
    """Every game's action and observation sizes at every player count, as one markdown table."""
    lines = ["| game | players | actions | observation | observation with `memory=False` |",
             "| --- | --- | --- | --- | --- |"]
    for name in registry.names():
        low, high = player_range(name)
        for n in range(low, high + 1):
            s = sizes(name, n)
            lines.append(f"| `{name}` | {n} | {s.actions} | {s.observation} | {s.observation_without_memory} |")
    return "\n".join(lines)
