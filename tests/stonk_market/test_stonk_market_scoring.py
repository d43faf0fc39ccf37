"""The public scoring functions: the rule text's example, the STONKS call, the Exchange suit."""

import numpy as np
import pytest
from stonk_market_helpers import (
    BIOHIPPO,
    BLAMMO,
    CHATTERFLY,
    EXAMPLE_EXCHANGE,
    EXAMPLE_HANDS,
    GLITCH,
    GREEDLE,
    NOBBLE,
    SOCKTOPUS,
    SWEETBEE,
)

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.games import stonk_market


def hand(**counts) -> list[int]:
    """A hand from suit-name keywords, e.g. ``hand(greedle=7)``."""
    names = ["glitch", "slinko", "nobble", "sweetbee", "chatterfly", "blammo", "greedle", "socktopus", "biohippo"]
    return [counts.get(name, 0) for name in names]


def test_rule_text_example():
    assert sm.score_round(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, caller=0) == [37, 16, 7, 14]


def test_exported_from_the_game_package_too():
    assert stonk_market.score_round is sm.score_round
    assert stonk_market.is_all_majorities is sm.is_all_majorities


def test_no_caller_means_no_bonus():
    assert sm.score_round(EXAMPLE_HANDS, EXAMPLE_EXCHANGE) == [32, 16, 7, 14]


def test_false_stonks_scores_zero_for_the_caller_only():
    # Player B holds 2 of 5 Glitch & Co.: not all majorities, so the call is false.
    assert sm.score_round(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, caller=1) == [32, 0, 7, 14]


def test_false_stonks_with_a_negative_hand_still_scores_zero():
    # Player D would score 14; C's -7 Socktopus would have made the round 7, the false call makes it 0.
    assert sm.score_round(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, caller=2) == [32, 16, 0, 14]


def test_exchange_suit_overrides_a_full_set():
    # Player 0 holds all 7 Greedle; with Greedle in the Exchange that is -7, not +14.
    hands = [hand(greedle=7, biohippo=5), hand(biohippo=4, blammo=7)]
    assert sm.score_round(hands, GREEDLE) == [-7 + 5, 4 * 0 + 14]
    assert sm.score_round(hands, BIOHIPPO) == [14 - 5, -4 + 14]


def test_exchange_suit_overrides_a_majority_and_still_counts_for_a_valid_call():
    # 8 of 9 Socktopus is a majority, so the call is valid; the Exchange suit scores -8.
    hands = [hand(socktopus=8, blammo=4), hand(blammo=3)]
    assert sm.score_round(hands, SOCKTOPUS, caller=0) == [-8 + 4 + 5, 0]


def test_each_suit_rule_at_its_boundary():
    # Suits of 5, 7 and 9: half or less scores 0, more than half c, all of them 2c.
    hands = [hand(glitch=3, nobble=2, sweetbee=4, chatterfly=3, socktopus=5, biohippo=4)]
    assert sm.score_round(hands, BLAMMO) == [3 + 0 + 4 + 0 + 5 + 0]
    assert sm.score_round([hand(glitch=5, sweetbee=7, biohippo=9)], BLAMMO) == [10 + 14 + 18]


def test_stonks_bonus_is_an_option():
    assert sm.score_round(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, caller=0, stonks_bonus=0) == [32, 16, 7, 14]


def test_accepts_numpy_tables():
    table = np.array(EXAMPLE_HANDS, dtype=np.int8)
    assert sm.score_round(table, np.int64(EXAMPLE_EXCHANGE), caller=np.int32(0)) == [37, 16, 7, 14]


def test_is_all_majorities():
    assert sm.is_all_majorities(hand(greedle=7, biohippo=9))
    assert sm.is_all_majorities(hand(glitch=3, chatterfly=4, socktopus=5))
    assert not sm.is_all_majorities(hand(glitch=3, chatterfly=4, socktopus=4))
    assert not sm.is_all_majorities(EXAMPLE_HANDS[1])
    assert sm.is_all_majorities(np.array(hand(nobble=5), dtype=np.int64))
    assert sm.is_all_majorities([0] * 9)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([[0] * 8], SOCKTOPUS), "9 card counts"),
        (([[0.5] + [0] * 8], SOCKTOPUS), "integer"),
        (([[-1] + [0] * 8], SOCKTOPUS), "Glitch & Co."),
        (([hand(sweetbee=8)], SOCKTOPUS), "SweetBee Naturals; must be 0..7"),
        (([hand(glitch=3), hand(glitch=3)], SOCKTOPUS), "hold 6 cards of Glitch & Co."),
        (([hand(glitch=3)], 9), "exchange_suit"),
        (([hand(glitch=3)], "Glitch"), "exchange_suit"),
        (([hand(glitch=3)], SOCKTOPUS, 1), "caller"),
        (([hand(glitch=3)], SOCKTOPUS, True), "caller"),
        (([], SOCKTOPUS), "non-empty"),
    ],
)
def test_bad_tables_are_named(args, message):
    with pytest.raises(ValueError, match=message):
        sm.score_round(*args)


@pytest.mark.parametrize(("bad", "message"), [([1, 2, 3], "9 card counts"), ([0] * 8 + [10], "BioHippo")])
def test_bad_hands_are_named(bad, message):
    with pytest.raises(ValueError, match=message):
        sm.is_all_majorities(bad)


def test_suit_order_matches_the_rulings():
    assert sm.SUIT_NAMES[GLITCH] == "Glitch & Co." and sm.SUIT_NAMES[NOBBLE] == "Nobble & Grasp"
    assert sm.SUIT_NAMES[SWEETBEE] == "SweetBee Naturals" and sm.SUIT_NAMES[CHATTERFLY] == "Chatterfly"
    assert sm.SUIT_COUNTS == (5, 5, 5, 7, 7, 7, 7, 9, 9) and sum(sm.SUIT_COUNTS) == 61
