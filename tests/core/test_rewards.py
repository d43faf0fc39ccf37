"""The shared reward modes, with exact numbers."""

import numpy as np
import pytest

from stonk_envs.core import rewards


def placement(scores):
    out = np.zeros(len(scores))
    rewards.win_loss(np.array(scores, np.float64), len(scores), out)
    return out.tolist()


def test_sole_winner_gets_one_and_losers_share_minus_one():
    assert placement([3, 9, 1, 0]) == pytest.approx([-1 / 3, 1, -1 / 3, -1 / 3])


def test_tied_winners_split_what_the_losers_pay():
    # n = 5, w = 2: winners (5 - 2) / (2 * 4) = 3/8, losers -1/4.
    assert placement([7, 7, 1, 0, 6]) == pytest.approx([3 / 8, 3 / 8, -1 / 4, -1 / 4, -1 / 4])


def test_everyone_tied_gets_zero():
    assert placement([4, 4, 4]) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("scores", [[1, 2, 3], [5, 5, 0, 1], [0, 0, 0, 9, 9, 9], [2, 8, 8, 8]])
def test_every_mode_is_zero_sum(scores):
    n = len(scores)
    values = np.array(scores, np.float64)
    for mode in range(len(rewards.REWARD_MODES)):
        for result_due in (False, True):
            out = np.zeros(n)
            rewards.round_end(mode, values, n, 12.0, out, result_due)
            rewards.game_end(mode, values, n, 12.0, out, result_due)
            assert out.sum() == pytest.approx(0.0, abs=1e-12)


def test_score_diff_and_round_diff_values():
    out = np.zeros(4)
    rewards.game_end(rewards.SCORE_DIFF, np.array([12.0, 2, 4, 4]), 4, 12.0, out)
    assert out.tolist() == pytest.approx([6.5 / 12, -3.5 / 12, -1.5 / 12, -1.5 / 12])
    out = np.zeros(4)
    rewards.round_end(rewards.ROUND_DIFF, np.array([2.0, -2, 0, 0]), 4, 12.0, out)
    assert out.tolist() == pytest.approx([2 / 12, -2 / 12, 0, 0])


def test_round_diff_close_pays_the_result_only_for_a_last_round_closed_at_once():
    close = rewards.ROUND_DIFF_CLOSE
    assert rewards.pays_result(close, True, True)
    assert not rewards.pays_result(close, True, False)
    assert not rewards.pays_result(close, False, True)
    assert not rewards.pays_result(rewards.ROUND_DIFF, True, True)
    gains, totals = np.array([2.0, -2, 0, 0]), np.array([30.0, 31, 12, 31])
    out = np.zeros(4)
    rewards.round_end(close, gains, 4, 12.0, out, False)
    rewards.game_end(close, totals, 4, 12.0, out, False)
    assert out.tolist() == pytest.approx([2 / 12, -2 / 12, 0, 0])
    out = np.zeros(4)
    rewards.round_end(close, gains, 4, 12.0, out, True)
    rewards.game_end(close, totals, 4, 12.0, out, True)
    assert out.tolist() == pytest.approx([-1 / 3, 1 / 3, -1 / 3, 1 / 3])


def test_result_weight_scales_only_the_closed_rounds_result():
    close, totals = rewards.ROUND_DIFF_CLOSE, np.array([30.0, 31, 12, 31])
    out = np.zeros(4)
    rewards.game_end(close, totals, 4, 12.0, out, True, 0.25)
    assert out.tolist() == pytest.approx([-1 / 12, 1 / 12, -1 / 12, 1 / 12])
    out = np.zeros(4)
    rewards.game_end(rewards.WIN_LOSS, totals, 4, 12.0, out, False, 0.25)
    assert out.tolist() == pytest.approx([-1 / 3, 1 / 3, -1 / 3, 1 / 3])  # win_loss is always whole


def test_unknown_mode_name_is_a_clear_error():
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        rewards.reward_mode_code("shaped")
