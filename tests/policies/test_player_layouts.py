"""The rule-based players read where their game's tables put things, at every player count."""

import pytest

from stonk_envs.games.stockpile import config as stockpile_config
from stonk_envs.games.stockpile.observe import OBSERVATION as STOCKPILE_OBSERVATION
from stonk_envs.games.stocks_and_bombs import config as stocks_and_bombs_config
from stonk_envs.games.stocks_and_bombs.observe import OBSERVATION as STOCKS_AND_BOMBS_OBSERVATION
from stonk_envs.games.stonk_market import config as stonk_market_config
from stonk_envs.games.stonk_market.observe import OBSERVATION as STONK_MARKET_OBSERVATION
from stonk_envs.policies import stockpile_heuristic, stocks_and_bombs_trader, stonk_market_trader
from stonk_envs.policies.base import CompiledPlayer
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.players import builtin_player, builtin_player_names

GAMES = {
    # game: its config module (player counts), its observation table, the sections its compiled players
    # read, and the place of their starts among the kernel's params
    "stocks_and_bombs": (stocks_and_bombs_config, STOCKS_AND_BOMBS_OBSERVATION, stocks_and_bombs_trader.SECTIONS, -1),
    "stonk_market": (stonk_market_config, STONK_MARKET_OBSERVATION, stonk_market_trader.SECTIONS, -1),
    "stockpile": (stockpile_config, STOCKPILE_OBSERVATION, stockpile_heuristic.SECTIONS, 0),
}


def _counts(config):
    return range(config.MIN_PLAYERS, config.MAX_PLAYERS + 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_players_fit_the_observation_without_memory_and_the_actions(game):
    config = GAMES[game][0]
    for n in _counts(config):
        observation_size, num_actions = game_sizes(game, n, {"memory": False})
        for name in builtin_player_names(game)[1:]:
            player = builtin_player(game, name, n)
            assert (player.obs_size, player.num_actions) == (observation_size, num_actions), (name, n)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_compiled_players_read_the_sections_where_the_table_puts_them(game):
    config, layout, sections, place = GAMES[game]
    for n in _counts(config):
        spans = layout.spans(n)
        expected = tuple(spans[section][0] for section in sections)
        for name in builtin_player_names(game)[1:]:
            player = builtin_player(game, name, n)
            if isinstance(player, CompiledPlayer):
                assert player.params[place] == expected, (name, n)
