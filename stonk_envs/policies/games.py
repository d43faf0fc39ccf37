"""Building a game's rules object by name, and the sizes a player must match."""

from __future__ import annotations

from stonk_envs.core.game import Game
from stonk_envs.games_index import build_game


def make_game(name: str, num_players: int | None = None, env_config: dict | None = None) -> Game:
    """The :class:`Game` of ``name`` with ``env_config`` (and ``num_players`` when given)."""
    config = dict(env_config or {})
    if num_players is not None:
        if config.get("num_players", num_players) != num_players:
            raise ValueError(f"num_players={num_players} contradicts env_config num_players={config['num_players']}")
        config["num_players"] = num_players
    return build_game(name, **config)


def game_sizes(name: str, num_players: int | None = None, env_config: dict | None = None) -> tuple[int, int]:
    """``(observation_size, num_actions)`` of a game at a player count."""
    game = make_game(name, num_players, env_config)
    return int(game.observation_bounds[0].shape[0]), int(game.num_actions)
