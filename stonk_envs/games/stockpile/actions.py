"""Stockpile's action layout: one ``Discrete`` space in six blocks (compiled helpers).

For n players, B bid values and K stock cards per company (defaults B = 8, K = 10):

===================  ==========  ==============================================================
block                size        action ``base + i``
===================  ==========  ==============================================================
supply placement     2 n^2       i = up * n^2 + pile_up * n + pile_down: hand card ``up`` (0/1)
                                 goes face-up on pile ``pile_up``, the other face-down on
                                 ``pile_down``
bid                  B n         i = track * B + v: bid value ``bid_values[v]`` on ``track``
action card          12          i = kind * 6 + company: play a Stock Boom! (kind 0) or Stock
                                 Bust! (kind 1) on ``company``
selling              19          i = company (sell regular), 6 + company (sell split),
                                 12 + company (split card back to regular), 18 DONE
reveal regular       K + 1       i = how many regular cards of the dividend company to reveal
reveal split         K + 1       i = how many split cards of the dividend company to reveal
===================  ==========  ==============================================================
"""

from numba import njit

SELL_REGULAR, SELL_SPLIT, UNSPLIT, SELL_DONE = 0, 6, 12, 18
SELL_SIZE = 19
PLAY_SIZE = 12
BLOCK_SUPPLY, BLOCK_BID, BLOCK_PLAY, BLOCK_SELL, BLOCK_REVEAL_REGULAR, BLOCK_REVEAL_SPLIT = 0, 1, 2, 3, 4, 5
BLOCK_NAMES = ("supply placement", "bid", "action card", "selling", "reveal regular", "reveal split")


@njit(cache=True)
def block_bases(n, num_bids, per_company, out):
    """Write the first action of each of the six blocks, then the total, into ``out[:7]``."""
    out[0] = 0
    out[1] = 2 * n * n
    out[2] = out[1] + num_bids * n
    out[3] = out[2] + PLAY_SIZE
    out[4] = out[3] + SELL_SIZE
    out[5] = out[4] + per_company + 1
    out[6] = out[5] + per_company + 1


@njit(cache=True)
def num_actions(n, num_bids=8, per_company=10):
    """Size of the action space."""
    return 2 * n * n + num_bids * n + PLAY_SIZE + SELL_SIZE + 2 * (per_company + 1)
