"""Stocks & Bombs public memory (ruling B8 with its 2026-12-01 additions): what a player at
the table could write down, kept in the state record in absolute seats and pieces.

Every update is O(1) per event; the per-round counters are cleared at each deal.
"""

import numpy as np
from numba import njit

from stonk_envs.games.stocks_and_bombs.pieces import MAX_PIECES, MAX_PLAYERS, NONE

EVENT_SLOTS = 4
"""k of the last-k proposal and trade slots (this round, newest first)."""
PROPOSAL_FIELDS = 5
"""A proposal event: proposer, piece given, piece asked for, addressee, tick."""
TRADE_FIELDS = 5
"""A trade event: proposer, acceptor, piece the proposer gave, piece it received, tick."""

MEMORY_FIELDS = [
    ("asked_round", np.int32, (MAX_PLAYERS, MAX_PIECES)),
    ("offered_round", np.int32, (MAX_PLAYERS, MAX_PIECES)),
    ("asked_game", np.int32, (MAX_PLAYERS, MAX_PIECES)),
    ("offered_game", np.int32, (MAX_PLAYERS, MAX_PIECES)),
    ("proposed_to_round", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),
    ("proposed_to_game", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),
    ("trades_round", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),
    ("trades_game", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),
    ("moves_round", np.int32, (MAX_PIECES,)),
    ("moves_game", np.int32, (MAX_PIECES,)),
    ("proposal_events", np.int32, (EVENT_SLOTS, PROPOSAL_FIELDS)),
    ("proposals_made", np.int32),
    ("trade_events", np.int32, (EVENT_SLOTS, TRADE_FIELDS)),
    ("trades_made", np.int32),
    ("stops_game", np.int32, (MAX_PLAYERS,)),
    ("penalties_game", np.int32, (MAX_PLAYERS,)),
    ("has_last_round", np.bool_),
    ("last_ticks", np.int32),
    ("last_holder", np.int8, (MAX_PIECES,)),
    ("last_target", np.int8, (MAX_PLAYERS,)),
    ("last_caller", np.int32),
    ("last_penalty", np.int32),
    ("offered_for", np.int8, (MAX_PLAYERS, MAX_PIECES)),
    ("traded_for", np.int8, (MAX_PIECES,)),
]
"""The memory fields of the state record (``proposals_made``/``trades_made`` count this round's events).

The proposals and trades beyond the last-K event slots, and those of earlier rounds, are kept
as counts and as two pairings over the game: ``offered_for[p, r]``, the piece p offered in its
latest proposal asking for r, and ``traded_for[g]``, the piece g was swapped for in its latest
trade (NONE: never)."""


@njit(cache=True)
def clear_round(s):
    """Forget this round's counters and event slots (at each deal)."""
    s.asked_round[:, :] = 0
    s.offered_round[:, :] = 0
    s.proposed_to_round[:, :] = 0
    s.trades_round[:, :] = 0
    s.moves_round[:] = 0
    s.proposal_events[:, :] = NONE
    s.trade_events[:, :] = NONE
    s.proposals_made = 0
    s.trades_made = 0


@njit(cache=True)
def clear_game(s):
    """Forget everything (at the start of a game)."""
    s.asked_game[:, :] = 0
    s.offered_game[:, :] = 0
    s.proposed_to_game[:, :] = 0
    s.trades_game[:, :] = 0
    s.moves_game[:] = 0
    s.stops_game[:] = 0
    s.penalties_game[:] = 0
    s.has_last_round = False
    s.last_ticks = 0
    s.last_holder[:] = NONE
    s.last_target[:] = NONE
    s.last_caller = NONE
    s.last_penalty = 0
    s.offered_for[:, :] = NONE
    s.traded_for[:] = NONE
    clear_round(s)


@njit(cache=True)
def record_proposal(s, seat, give, receive, to):
    """``seat`` posted a proposal (it may replace an open one)."""
    s.asked_round[seat, receive] += 1
    s.asked_game[seat, receive] += 1
    s.offered_round[seat, give] += 1
    s.offered_game[seat, give] += 1
    s.proposed_to_round[seat, to] += 1
    s.proposed_to_game[seat, to] += 1
    s.offered_for[seat, receive] = give
    e = s.proposal_events[s.proposals_made % EVENT_SLOTS]
    e[0] = seat
    e[1] = give
    e[2] = receive
    e[3] = to
    e[4] = s.tick
    s.proposals_made += 1


@njit(cache=True)
def record_trade(s, proposer, acceptor, give, receive):
    """``acceptor`` carried out ``proposer``'s proposal (``give`` went to the acceptor)."""
    s.trades_round[proposer, acceptor] += 1
    s.trades_game[proposer, acceptor] += 1
    s.moves_round[give] += 1
    s.moves_round[receive] += 1
    s.moves_game[give] += 1
    s.moves_game[receive] += 1
    s.traded_for[give] = receive
    s.traded_for[receive] = give
    e = s.trade_events[s.trades_made % EVENT_SLOTS]
    e[0] = proposer
    e[1] = acceptor
    e[2] = give
    e[3] = receive
    e[4] = s.tick
    s.trades_made += 1


@njit(cache=True)
def record_round_end(s, penalised):
    """The round is scored: keep its final holdings, the revealed targets, caller and penalty."""
    s.has_last_round = True
    s.last_ticks = s.tick
    s.last_holder[:] = s.holder
    s.last_target[:] = s.target
    s.last_caller = s.caller
    s.last_penalty = 1 if penalised else 0
    if s.caller != NONE:
        s.stops_game[s.caller] += 1
        if penalised:
            s.penalties_game[s.caller] += 1
