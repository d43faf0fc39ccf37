"""Play one seeded game between built-in players and print it, tick by tick."""

from __future__ import annotations

import argparse

import numpy as np

from stonk_envs.cli_args import add_game, positive, seed
from stonk_envs.games_index import game_module
from stonk_envs.policies import RandomPolicy


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game(parser)
    parser.add_argument("--num-players", type=positive, default=4, help="players (default: %(default)s)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the game and the players")
    parser.add_argument("--every", type=positive, default=25, help="print the table every N steps")


def run(args: argparse.Namespace) -> int:
    env = game_module(args.game).parallel_env(num_players=args.num_players, render_mode="ansi")
    policy = RandomPolicy()
    rng = np.random.default_rng(args.seed)
    observations, _ = env.reset(seed=args.seed)
    print(env.render())
    steps = 0
    while env.agents:
        agents = list(env.agents)
        obs = np.stack([observations[a]["observation"] for a in agents])
        masks = np.stack([observations[a]["action_mask"] for a in agents])
        actions = dict(zip(agents, (int(x) for x in policy.act(obs, masks, rng)), strict=True))
        observations, rewards, _, _, infos = env.step(actions)
        steps += 1
        if steps % args.every == 0 or not env.agents:
            print(f"\n-- step {steps}\n{env.render()}")
    print("\nfinal scores:", {a: infos[a]["score"] for a in rewards})
    print("rewards:", {a: round(r, 3) for a, r in rewards.items()})
    return 0
