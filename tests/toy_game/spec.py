"""Two Cards' one entry in the games' registry."""

from stonk_envs.registry import GameSpec

TWO_CARDS = GameSpec(
    name="two_cards",
    module="tests.toy_game.two_cards_v1",
    gym_id="stonk_envs/TwoCards-v1",
    config="tests.toy_game.game:TwoCardsConfig",
    drawer="tests.toy_game.drawer",
    invariants="tests.toy_game.invariants",
    players={"heuristic": "tests.toy_game.players:HighCard"},
)
