"""Self-play PPO on Ray RLlib: ``stonk-envs train-rllib --config rllib_<game>``.

``env_path: vector`` (the default) steps each env runner's games at once on the batched engine
(:mod:`stonk_envs.integrations.rllib_vector`); ``multi_agent`` steps one Python game per env
(:mod:`stonk_envs.integrations.rllib_env`). Runs on this machine (Ray started here,
``num_env_runners`` sampling processes) or on a running Ray cluster (``--address`` or
``address=``). Overrides follow the config as ``KEY=VALUE``, e.g. ``iterations=50
num_env_runners=4``. Writes the learner, which ``stonk-envs evaluate`` plays like any saved
policy (``<run_dir>/policy.pt``, a torch policy file, on the vector path; RLlib's checkpoint
``<run_dir>/policy`` on multi_agent), and ``<run_dir>/metrics.jsonl``, one line per iteration.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from stonk_envs import cli_args
from stonk_envs.files import check_output_dir

if TYPE_CHECKING:
    from stonk_envs.integrations.rllib_config import RLlibConfig

EXTRA = "rllib"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=cli_args.config,
                        help=cli_args.CONFIG_HELP.replace("stocks_and_bombs", "rllib_stocks_and_bombs"))
    parser.add_argument("--address", help="address of a running Ray cluster (ray://host:10001, or auto)")
    cli_args.add_overrides(parser, "iterations=50 num_env_runners=4")


def build_algorithm(config: RLlibConfig):
    """The RLlib PPO algorithm of ``config`` on its ``env_path``: the masked learner, the league and its callback."""
    from ray.rllib.algorithms.ppo import PPOConfig

    league = config.league
    weights = {"current": league.current, "heuristic": league.heuristic, "random": league.random, "past": league.past}
    algorithm_config = (
        PPOConfig()
        # None waits for every env runner's samples (see RLlibConfig.sample_timeout_s).
        .env_runners(num_env_runners=config.num_env_runners, num_envs_per_env_runner=config.num_envs_per_env_runner,
                     sample_timeout_s=config.sample_timeout_s)
        .training(train_batch_size_per_learner=config.train_batch_size, minibatch_size=config.batch_size,
                  num_epochs=config.n_epochs, lr=config.learning_rate, gamma=config.gamma, lambda_=config.gae_lambda,
                  entropy_coeff=config.ent_coef)
        .debugging(seed=config.seed)
    )
    setup = _vector if config.env_path == "vector" else _multi_agent
    return setup(algorithm_config, config, weights).build_algo()


def _vector(algorithm_config, config: RLlibConfig, weights: dict):
    """The games of each env runner in one batched engine (Gymnasium's ``vector_entry_point``), one learner seat
    per game; the league plays the others."""
    from stonk_envs.integrations.rllib_connectors import env_to_module_connectors, module_to_env_connectors
    from stonk_envs.integrations.rllib_modules import flat_module_spec
    from stonk_envs.integrations.rllib_vector import VectorLeagueCallback, vector_env_config, vector_env_id

    league = config.league
    return (
        algorithm_config
        # actions are Discrete: nothing to unsquash or clip (and no per-game pass to do it)
        .environment(vector_env_id(config.game), env_config=vector_env_config(config.num_players, config.env_config),
                     normalize_actions=False, clip_actions=False)
        # one array in and out per step, in place of RLlib's per-game connector passes (rllib_connectors)
        .env_runners(gym_env_vectorize_mode="vector_entry_point",
                     env_to_module_connector=env_to_module_connectors,
                     add_default_connectors_to_env_to_module_pipeline=False,
                     module_to_env_connector=module_to_env_connectors,
                     add_default_connectors_to_module_to_env_pipeline=False)
        # the batched trainer's PPO: clip range 0.2, value loss weight 0.5, gradient norm 0.5, no KL term
        .training(clip_param=0.2, vf_loss_coeff=0.5, grad_clip=0.5, use_kl_loss=False)
        .rl_module(rl_module_spec=flat_module_spec(config.net_arch))
        .callbacks(partial(VectorLeagueCallback, weights=weights, snapshot_every=league.snapshot_iterations,
                           max_snapshots=league.max_snapshots))
    )


def _multi_agent(algorithm_config, config: RLlibConfig, weights: dict):
    """One Python game per env, every seat an agent mapped to a league module."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from stonk_envs.integrations.rllib_env import StonkMultiAgentEnv
    from stonk_envs.integrations.rllib_league import LEARNER, LeagueCallback, LeagueMapping
    from stonk_envs.integrations.rllib_modules import masked_module_spec, player_module_spec

    league = config.league
    mapping = LeagueMapping(agents=[f"player_{p}" for p in range(config.num_players)], weights=weights)
    players = {name: player_module_spec(name, config.game, config.num_players, config.env_config)
               for name in ("heuristic", "random")}
    return (
        algorithm_config
        .environment(StonkMultiAgentEnv, env_config={"game": config.game, "num_players": config.num_players,
                                                     **config.env_config})
        .multi_agent(policies={LEARNER, *players}, policy_mapping_fn=mapping, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={LEARNER: masked_module_spec(config.net_arch), **players}))
        .callbacks(partial(LeagueCallback, mapping=mapping, snapshot_every=league.snapshot_iterations,
                           max_snapshots=league.max_snapshots))
    )


def _iteration_line(result: dict, seconds: float) -> dict:
    runners = result.get("env_runners", {})
    steps = float(runners.get("num_env_steps_sampled", 0))
    return {
        "iteration": int(result["training_iteration"]),
        "env_steps": steps,
        "env_steps_total": float(runners.get("num_env_steps_sampled_lifetime", 0)),
        "seconds": round(seconds, 3),
        "env_steps_per_s": round(steps / seconds, 1) if seconds > 0 else None,
        "learner_win_rate": runners.get("learner_win_rate"),
        "league_snapshots": result.get("league_snapshots"),
    }


def train_rllib(config: RLlibConfig, address: str | None = None, log=print) -> Path:
    """Train, write ``metrics.jsonl`` and the learner to ``run_dir``; returns the saved policy's path."""
    import ray

    from stonk_envs.training.threads import ThreadBudget

    run_dir = Path(config.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    address = address or config.address
    ray.init(address=address, ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
    threads = ThreadBudget(config.torch_threads)
    algorithm = build_algorithm(config)
    try:
        with open(run_dir / "metrics.jsonl", "w") as metrics:
            for _ in range(config.iterations):
                threads.adjust()
                start = time.perf_counter()
                line = _iteration_line(algorithm.train(), time.perf_counter() - start)
                metrics.write(json.dumps(line) + "\n")
                metrics.flush()
                log(json.dumps(line))
        return save_learner(algorithm, config, run_dir)
    finally:
        algorithm.stop()


def save_learner(algorithm, config: RLlibConfig, run_dir: Path) -> Path:
    """The learner as a torch policy file, ``policy.pt`` (vector path), or as RLlib's checkpoint folder,
    ``policy`` (multi_agent path)."""
    from stonk_envs.integrations.rllib_modules import save_learner_net, save_rllib_policy

    extra = {"algorithm": "rllib.PPO", "iterations": config.iterations, "env_path": config.env_path}
    if config.env_path == "vector":
        from stonk_envs.integrations.rllib_vector import learner_net

        return save_learner_net(learner_net(algorithm), run_dir / "policy.pt", config.game, config.num_players,
                                config.env_config, extra)
    from stonk_envs.integrations.rllib_league import LEARNER, learner_weights

    module = algorithm.get_module(LEARNER)  # the driver's copy, given the learner group's weights
    module.set_state(learner_weights(algorithm))
    return save_rllib_policy(module, run_dir / "policy", config.game, config.num_players, config.env_config, extra)


def run(args: argparse.Namespace) -> int:
    from stonk_envs.integrations.rllib_config import load_rllib_config

    try:
        config = load_rllib_config(args.config, args.overrides)
        check_output_dir(config.run_dir, "run_dir")
    except ValueError as error:
        print(f"stonk-envs train-rllib: error: {error}", file=sys.stderr)
        return 2
    import ray  # noqa: F401  (a missing Ray is named as the rllib extra before any work)

    policy = train_rllib(config, args.address)
    trust = "" if config.env_path == "vector" else "--trust-file "
    print(f"learner saved to {policy}; evaluate it with: stonk-envs evaluate --game {config.game} {trust}"
          f"--players {policy} " + " ".join(["random"] * (config.num_players - 1)))
    return 0
