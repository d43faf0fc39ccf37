"""What Stockpile conserves, checked by the soak on a batch of state records: every market card is
somewhere (deck, stockpiles, hands, holdings, held Boom!/Bust! cards, unpaid fees, discard) in
its starting numbers; each seat's cash equals its starting cash plus its incomes less its
payments (the ledger), and is never negative."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile import state as sp


def broken(states: np.ndarray, config) -> np.ndarray:
    """Which records (shape (N,)) lost or made a card, or break the cash ledger or go below zero cash."""
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


def max_steps(config) -> int:
    """The most steps a game may last (a generous cap for the auctions)."""
    n = config.num_players
    bids = len(config.bid_values)
    # per round: supply and action n each, demand at most one raise per bid value per seat,
    # selling at most one sale per card a seat can hold, dividend one decision per seat
    return config.num_rounds * (2 * n + n * n * bids + n * (6 * config.stock_per_company + 8) + n) + 1
