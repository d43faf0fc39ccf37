"""What each game conserves, checked on a batch of state records at once.

Each check takes the records (shape (N,)) and returns a bool array marking the games that
break the game's conservation law:

- Stockpile: every market card is somewhere (deck, stockpiles, hands, holdings, held
  Boom!/Bust! cards, unpaid fees, discard) in its starting numbers; each seat's cash equals
  its starting cash plus its incomes less its payments (the ledger), and is never negative.
- Stonk Market: the hands and the Exchange card hold each suit's cards exactly (M1a).
- Stocks & Bombs: every piece has one holder among the seats; the targets are a
  permutation of the colours (B2); totals are never negative (B6b).
"""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile import state as sp
from stonk_envs.games.stonk_market.config import SUIT_COUNTS


def stockpile(states: np.ndarray, config) -> np.ndarray:
    n = config.num_players
    counts = np.zeros((len(states), sp.NUM_KINDS), np.int64)
    deck = states["deck"]
    in_deck = np.arange(deck.shape[1]) < states["deck_len"][:, None]
    for kind in range(sp.NUM_KINDS):
        counts[:, kind] += ((deck == kind) & in_deck).sum(axis=1)
        in_pile = np.arange(sp.PILE_CAP) < states["pile_len"][:, :n, None]
        counts[:, kind] += ((states["pile"][:, :n] == kind) & in_pile).sum(axis=(1, 2))
        counts[:, kind] += (states["hand"][:, :n] == kind).sum(axis=(1, 2))
    counts[:, : sp.NUM_COMPANIES] += states["regular"][:, :n].sum(axis=1) + states["split"][:, :n].sum(axis=1)
    counts[:, sp.BOOM] += states["booms"][:, :n].sum(axis=1)
    counts[:, sp.BUST] += states["busts"][:, :n].sum(axis=1)
    in_debt = np.arange(sp.DEBT_CAP) < states["debt_len"][:, :n, None]
    for value in sp.FEE_VALUES:
        counts[:, sp.FEE_KIND - 1 + value] += ((states["debt"][:, :n] == value) & in_debt).sum(axis=(1, 2))
    counts += states["discard"]
    expected = np.array(
        [config.stock_per_company] * sp.NUM_COMPANIES + [config.fee_copies] * 3 + [config.action_copies] * 2
    )
    cards_lost = (counts != expected).any(axis=1)
    ledger = states["ledger"][:, :n].astype(np.int64)
    incomes = ledger[..., [sp.LED_SALES, sp.LED_DIVIDENDS, sp.LED_SPLIT_BONUS, sp.LED_SETTLEMENT]].sum(axis=2)
    payments = ledger[..., [sp.LED_BIDS, sp.LED_FEES]].sum(axis=2)
    cash = states["cash"][:, :n].astype(np.int64)
    money_lost = ((cash != config.starting_cash + incomes - payments) | (cash < 0)).any(axis=1)
    return cards_lost | money_lost


def stonk_market(states: np.ndarray, config) -> np.ndarray:
    n = config.num_players
    held = states["hand"][:, :n].astype(np.int64).sum(axis=1)
    held[np.arange(len(states)), states["exchange"]] += 1
    return (held != np.array(SUIT_COUNTS)).any(axis=1) | (states["hand"][:, :n] < 0).any(axis=(1, 2))


def stocks_and_bombs(states: np.ndarray, config) -> np.ndarray:
    n = config.num_players
    holders = states["holder"][:, : 3 * n]
    targets = np.sort(states["target"][:, :n], axis=1)
    unheld = ((holders < 0) | (holders >= n)).any(axis=1)
    bad_targets = (targets != np.arange(n)).any(axis=1)
    return unheld | bad_targets | (states["totals"][:, :n] < 0).any(axis=1)


CHECKS = {"stockpile": stockpile, "stonk_market": stonk_market, "stocks_and_bombs": stocks_and_bombs}
"""Each game's conservation check, by game name."""
