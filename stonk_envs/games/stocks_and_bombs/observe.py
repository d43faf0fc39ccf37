"""Stocks & Bombs views: a seat's observation, its bounds, and the full state vector.

The observation is the table :data:`OBSERVATION` (all from the observer's seat: relative
seats j, k with 0 = me, relative pieces as in :mod:`.pieces`; n players, m = 3n pieces,
K = EVENT_SLOTS = 4), then with ``memory=True`` the public memory :data:`MEMORY` (ruling B8
with its 2026-12-01 additions), appended so that every earlier entry keeps its offset. The
writers' offsets, the sizes and the bounds come from the two tables. The bounds name the
options ``tick_cap``, ``round_cap`` and ``points_to_win``, and X = the largest round score
(9, or 8 at n = 4, where the three other colours are the only places one's own pieces can
go). A seat can ask for its own colour only after trading it away, at the earliest from the
third tick; likewise it can offer another colour's piece only from the third tick. The last
two memory sections, offered_for and traded_for, were appended on 2026-12-02 (the version
did not move: every earlier offset is kept); with the counts they tell apart proposal and
trade pairings that have left the last-K slots or earlier rounds (which piece was offered
for which, and which pieces were swapped together), a summary of what B8 lets a player
write down.
"""

import numpy as np
from numba import njit

from stonk_envs.core.layout import Layout, Section, at, evaluate
from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stocks_and_bombs.memory import EVENT_SLOTS
from stonk_envs.games.stocks_and_bombs.pieces import (
    MAX_PLAYERS,
    NONE,
    absolute_seat,
    relative_seat,
    to_absolute_piece,
    to_relative_piece,
)

LOWEST_ROUND_SCORE = -6
"""Target t held none of p's target colour while t holds all six pips of p's colour (B6)."""


@njit(cache=True)
def highest_round_score(n):
    """X: three Larges of three other colours (9) with one's own pieces at a fourth seat. At
    n = 4 there is no fourth seat; the best is 8 (two colours' 3 + 2 and 3 pips, own pieces at
    the third), found by enumerating every holding."""
    return 9 if n >= 5 else 8


def _sizes(n: int) -> dict[str, int]:
    return {"n": n, "m": 3 * n, "K": EVENT_SLOTS, "X": highest_round_score.py_func(n)}


def _late(values) -> int:
    return max(values["tick_cap"] - 2, 0)


def _own_colour(values) -> np.ndarray:
    """[j, g]: relative piece g is of relative seat j's colour."""
    n = values["n"]
    return np.arange(n)[:, None] == np.arange(3 * n)[None, :] // 3


def asked(values):
    """tick_cap (tick_cap - 2 for j's own colour)"""
    return np.where(_own_colour(values), _late(values), values["tick_cap"])


def offered(values):
    """tick_cap for j's own colour, tick_cap - 2 otherwise"""
    return np.where(_own_colour(values), values["tick_cap"], _late(values))


def asked_game(values):
    """round_cap * the above"""
    return values["round_cap"] * asked(values)


def offered_game(values):
    """round_cap * the above"""
    return values["round_cap"] * offered(values)


def _between_seats(most: str):
    def bound(values):
        n = values["n"]
        return (1 - np.eye(n)) * evaluate(most, values)

    bound.__doc__ = f"{most} (0 when j = k)"
    return bound


def _event(values):
    """1; ticks ago tick_cap"""
    size = 2 + 2 * values["n"] + 2 * values["m"]
    return np.tile(np.r_[np.ones(size - 1), values["tick_cap"]], EVENT_SLOTS)


def _last_round(values):
    """1; its ticks tick_cap"""
    n, m = values["n"], values["m"]
    high = np.ones(2 + m * n + n * n + n + 1)
    high[1] = values["tick_cap"]
    return high


OBSERVATION = Layout([
    Section("holder", "m * n", "piece g is held by relative seat j (one-hot)"),
    Section("target", "n", "my secret target colour (one-hot)"),
    Section("proposal_open", "n", "relative seat j has an open proposal"),
    Section("proposal_give", "n * m", "the piece j gives (one-hot)"),
    Section("proposal_receive", "n * m", "the piece j asks for (one-hot)"),
    Section("totals", "n", "running totals", "min(points_to_win - 1 + X, round_cap * X)"),
    Section("last_scores", "n", "round scores of the last scored round", "X", LOWEST_ROUND_SCORE),
    Section("round_tick_left", "3", "round index, tick in round, ticks left", ("round_cap", "tick_cap", "tick_cap")),
], _sizes)  # fmt: skip
"""The observation without the memory (``memory=False``)."""

MEMORY = Layout([
    Section("asked_round", "n * m", "proposals by j this round asking for piece r (replaced ones too)", asked),
    Section("offered_round", "n * m", "proposals by j this round offering piece g", offered),
    Section("asked_game", "n * m", "the same as asked_round over the game", asked_game),
    Section("offered_game", "n * m", "the same as offered_round over the game", offered_game),
    Section("proposed_to_round", "n * n", "proposals by j addressed to k this round", _between_seats("tick_cap")),
    Section("proposed_to_game", "n * n", "the same over the game", _between_seats("round_cap * tick_cap")),
    Section("trades_round", "n * n", "trades of j's proposal accepted by k this round",
            _between_seats("max(tick_cap - 1, 0)")),
    Section("trades_game", "n * n", "the same over the game", _between_seats("round_cap * max(tick_cap - 1, 0)")),
    Section("moves_round", "m", "times piece g changed hands this round", "tick_cap // 2"),
    Section("moves_game", "m", "the same over the game", "round_cap * (tick_cap // 2)"),
    Section("proposal_events", "2 + 2 * n + 2 * m", "last K proposals this round, newest first: present, proposer "
            "(n), gives (m), asks (m), addressee (n), ticks ago", _event, repeat="K"),
    Section("trade_events", "2 + 2 * n + 2 * m", "last K trades this round, newest first: present, proposer (n), "
            "acceptor (n), proposer gave (m), acceptor gave (m), ticks ago", _event, repeat="K"),
    Section("stops_game", "n", "STOP calls by j this game", "round_cap"),
    Section("penalties_game", "n", "STOP penalties of j this game", "round_cap"),
    Section("last_round", "2 + m * n + n * n + n + 1", "a round was scored, its ticks, its final holder (m * n "
            "one-hot), every target revealed at scoring (n * n, j's target colour one-hot), STOP caller (n one-hot, "
            "none when the tick cap ended it), caller was penalised", _last_round),
    Section("offered_for", "n * m", "1 + the piece j offered in its latest proposal this game asking for piece r "
            "(0: j never asked for r)", "m"),
    Section("traded_for", "m", "1 + the piece g was swapped for in its latest trade this game (0: g never changed "
            "hands)", "m"),
], _sizes)  # fmt: skip
"""The public memory appended with ``memory=True``."""

_COUNTS = range(1, MAX_PLAYERS + 1)
_SIZE, _MEMORY_SIZE = OBSERVATION.quadratic(None, _COUNTS), MEMORY.quadratic(None, _COUNTS)
_EVENT_SIZE = MEMORY.quadratic("proposal_events", _COUNTS, block=True)
_HOLDER, _TARGET, _PROPOSAL_OPEN, _PROPOSAL_GIVE, _PROPOSAL_RECEIVE, _TOTALS, _LAST_SCORES, _ROUND = (
    OBSERVATION.quadratics(_COUNTS, "holder", "target", "proposal_open", "proposal_give", "proposal_receive",
                           "totals", "last_scores", "round_tick_left")
)  # fmt: skip
(
    _ASKED_ROUND, _OFFERED_ROUND, _ASKED_GAME, _OFFERED_GAME, _PROPOSED_TO_ROUND, _PROPOSED_TO_GAME, _TRADES_ROUND,
    _TRADES_GAME, _MOVES_ROUND, _MOVES_GAME, _PROPOSAL_EVENTS, _TRADE_EVENTS, _STOPS, _PENALTIES, _LAST_ROUND,
    _OFFERED_FOR, _TRADED_FOR,
) = MEMORY.quadratics(
    _COUNTS, "asked_round", "offered_round", "asked_game", "offered_game", "proposed_to_round", "proposed_to_game",
    "trades_round", "trades_game", "moves_round", "moves_game", "proposal_events", "trade_events", "stops_game",
    "penalties_game", "last_round", "offered_for", "traded_for",
)  # fmt: skip


# ---------------------------------------------------------------------------- sizes
@njit(cache=True)
def obs_size(n):
    """Size of the observation without memory (the layout before the public memory)."""
    return at(_SIZE, n)


@njit(cache=True)
def event_size(n):
    return at(_EVENT_SIZE, n)


@njit(cache=True)
def memory_size(n):
    """Size of the appended public memory."""
    return at(_MEMORY_SIZE, n)


def observation_size(n: int, memory: bool) -> int:
    return int(obs_size(n)) + (int(memory_size(n)) if memory else 0)


def observation_layout(n: int, memory: bool = True) -> dict[str, tuple[int, int]]:
    """``{name: (start, size)}`` of each section of :data:`OBSERVATION` (and :data:`MEMORY`)."""
    layout = OBSERVATION.spans(n)
    if memory:
        layout.update(MEMORY.spans(n, OBSERVATION.size(n)))
    return layout


def observation_bounds(config) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` float32 vectors of a seat's observation under ``config``."""
    values = {"tick_cap": config.tick_cap, "round_cap": config.round_cap, "points_to_win": config.points_to_win}
    low, high = OBSERVATION.bounds(config.num_players, values)
    if config.memory:
        memory_low, memory_high = MEMORY.bounds(config.num_players, values)
        low, high = np.concatenate([low, memory_low]), np.concatenate([high, memory_high])
    return low, high


# ---------------------------------------------------------------------------- observation
@njit(cache=True)
def write_proposal_counts(s, seat, n, out, base):
    """The four seat-by-piece tables (asked/offered, round/game), one pass in relative order;
    the memory starts at ``base``."""
    m = 3 * n
    asked_round, offered_round = base + at(_ASKED_ROUND, n), base + at(_OFFERED_ROUND, n)
    asked_game, offered_game = base + at(_ASKED_GAME, n), base + at(_OFFERED_GAME, n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for cr in range(n):
            c = absolute_seat(cr, seat, n)
            for size in range(3):
                piece = c * 3 + size
                entry = jr * m + cr * 3 + size
                out[asked_round + entry] = s.asked_round[j, piece]
                out[offered_round + entry] = s.offered_round[j, piece]
                out[asked_game + entry] = s.asked_game[j, piece]
                out[offered_game + entry] = s.offered_game[j, piece]


@njit(cache=True)
def write_pair_counts(s, seat, n, out, base):
    """The four seat-by-seat tables (proposed to, trades; round/game)."""
    proposed_round, proposed_game = base + at(_PROPOSED_TO_ROUND, n), base + at(_PROPOSED_TO_GAME, n)
    trades_round, trades_game = base + at(_TRADES_ROUND, n), base + at(_TRADES_GAME, n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for kr in range(n):
            q = absolute_seat(kr, seat, n)
            entry = jr * n + kr
            out[proposed_round + entry] = s.proposed_to_round[j, q]
            out[proposed_game + entry] = s.proposed_to_game[j, q]
            out[trades_round + entry] = s.trades_round[j, q]
            out[trades_game + entry] = s.trades_game[j, q]


@njit(cache=True)
def write_events(events, made, proposals, seat, n, tick, out, k):
    """Last-K event slots from offset ``k``, newest first (:data:`MEMORY`)."""
    m = 3 * n
    size = event_size(n)
    for i in range(min(made, EVENT_SLOTS)):
        e = events[(made - 1 - i) % EVENT_SLOTS]
        base = k + i * size
        out[base] = 1.0
        out[base + 1 + relative_seat(e[0], seat, n)] = 1.0
        if proposals:
            out[base + 1 + n + to_relative_piece(e[1], seat, n)] = 1.0
            out[base + 1 + n + m + to_relative_piece(e[2], seat, n)] = 1.0
            out[base + 1 + n + 2 * m + relative_seat(e[3], seat, n)] = 1.0
        else:
            out[base + 1 + n + relative_seat(e[1], seat, n)] = 1.0
            out[base + 1 + 2 * n + to_relative_piece(e[2], seat, n)] = 1.0
            out[base + 1 + 2 * n + m + to_relative_piece(e[3], seat, n)] = 1.0
        out[base + size - 1] = tick - e[4]


@njit(cache=True)
def observe_memory(s, seat, out, base):
    """Write the public memory (:data:`MEMORY`) from offset ``base``."""
    n = s.n
    m = 3 * n
    write_proposal_counts(s, seat, n, out, base)
    write_pair_counts(s, seat, n, out, base)
    moves_round, moves_game = base + at(_MOVES_ROUND, n), base + at(_MOVES_GAME, n)
    for rel in range(m):
        piece = to_absolute_piece(rel, seat, n)
        out[moves_round + rel] = s.moves_round[piece]
        out[moves_game + rel] = s.moves_game[piece]
    write_events(s.proposal_events, s.proposals_made, True, seat, n, s.tick, out, base + at(_PROPOSAL_EVENTS, n))
    write_events(s.trade_events, s.trades_made, False, seat, n, s.tick, out, base + at(_TRADE_EVENTS, n))
    stops, penalties = base + at(_STOPS, n), base + at(_PENALTIES, n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        out[stops + jr] = s.stops_game[j]
        out[penalties + jr] = s.penalties_game[j]
    write_pairings(s, seat, n, out, base + at(_OFFERED_FOR, n), base + at(_TRADED_FOR, n))
    if s.has_last_round:
        k = base + at(_LAST_ROUND, n)
        out[k] = 1.0
        out[k + 1] = s.last_ticks
        k += 2
        for rel in range(m):
            out[k + rel * n + relative_seat(s.last_holder[to_absolute_piece(rel, seat, n)], seat, n)] = 1.0
        k += m * n
        for jr in range(n):
            out[k + jr * n + relative_seat(s.last_target[absolute_seat(jr, seat, n)], seat, n)] = 1.0
        k += n * n
        if s.last_caller != NONE:
            out[k + relative_seat(s.last_caller, seat, n)] = 1.0
        out[k + n] = s.last_penalty


@njit(cache=True)
def write_pairings(s, seat, n, out, offered_for, traded_for):
    """offered_for and traded_for from their offsets: 1 + a relative piece, 0 for none."""
    m = 3 * n
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for rel in range(m):
            give = s.offered_for[j, to_absolute_piece(rel, seat, n)]
            if give != NONE:
                out[offered_for + jr * m + rel] = 1 + to_relative_piece(give, seat, n)
    for rel in range(m):
        other = s.traded_for[to_absolute_piece(rel, seat, n)]
        if other != NONE:
            out[traded_for + rel] = 1 + to_relative_piece(other, seat, n)


@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (:data:`OBSERVATION`, then the memory) into ``out``."""
    n = s.n
    m = 3 * n
    out[:] = 0.0
    for rel in range(m):
        holder = s.holder[to_absolute_piece(rel, seat, n)]
        out[at(_HOLDER, n) + rel * n + relative_seat(holder, seat, n)] = 1.0
    out[at(_TARGET, n) + relative_seat(s.target[seat], seat, n)] = 1.0
    open_base, give_base, recv_base = at(_PROPOSAL_OPEN, n), at(_PROPOSAL_GIVE, n), at(_PROPOSAL_RECEIVE, n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        if s.prop_give[j] != NONE:
            out[open_base + jr] = 1.0
            out[give_base + jr * m + to_relative_piece(s.prop_give[j], seat, n)] = 1.0
            out[recv_base + jr * m + to_relative_piece(s.prop_recv[j], seat, n)] = 1.0
    totals, last_scores = at(_TOTALS, n), at(_LAST_SCORES, n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        out[totals + jr] = s.totals[j]
        out[last_scores + jr] = s.last_scores[j]
    k = at(_ROUND, n)
    out[k] = s.round
    out[k + 1] = s.tick
    out[k + 2] = s.tick_cap - s.tick
    if s.memory:
        observe_memory(s, seat, out, at(_SIZE, n))


# ---------------------------------------------------------------------------- state
STATE_HEADER = 11
"""round, tick, caller, n, tick_cap, round_cap, points_to_win, reward_mode, memory, round_over, game_over."""


@njit(cache=True)
def state_size(n):
    """Length of the full state vector."""
    m = 3 * n
    tables = 4 * n * m + 4 * n * n + 2 * m
    events = 2 * EVENT_SLOTS * 5 + 2
    last_round = 2 * n + 2 + m + n + 2
    return STATE_HEADER + RNG_PARTS + m + 6 * n + tables + events + last_round + n * m + m


@njit(cache=True)
def write_table(table, rows, cols, out, k):
    for a in range(rows):
        for b in range(cols):
            out[k + a * cols + b] = table[a, b]
    return k + rows * cols


@njit(cache=True)
def state_vector(s, out):
    """Write the full state as a flat vector: first holders, per seat (target, proposal, totals),
    round, tick and caller as before, then every option, the random stream (it decides future
    deals and resolution orders) and the whole public memory, in absolute seats and pieces."""
    n = s.n
    m = 3 * n
    k = 0
    for piece in range(m):
        out[k] = s.holder[piece]
        k += 1
    for p in range(n):
        out[k] = s.target[p]
        out[k + 1] = s.prop_give[p]
        out[k + 2] = s.prop_recv[p]
        out[k + 3] = s.prop_to[p]
        out[k + 4] = s.totals[p]
        out[k + 5] = s.last_scores[p]
        k += 6
    out[k] = s.round
    out[k + 1] = s.tick
    out[k + 2] = s.caller
    out[k + 3] = n
    out[k + 4] = s.tick_cap
    out[k + 5] = s.round_cap
    out[k + 6] = s.points_to_win
    out[k + 7] = s.reward_mode
    out[k + 8] = s.memory
    out[k + 9] = s.round_over
    out[k + 10] = s.game_over
    k += STATE_HEADER
    write_rng_parts(s.rng, out[k : k + RNG_PARTS])
    k += RNG_PARTS
    for table in (s.asked_round, s.offered_round, s.asked_game, s.offered_game):
        k = write_table(table, n, m, out, k)
    for table in (s.proposed_to_round, s.proposed_to_game, s.trades_round, s.trades_game):
        k = write_table(table, n, n, out, k)
    for piece in range(m):
        out[k + piece] = s.moves_round[piece]
        out[k + m + piece] = s.moves_game[piece]
    k += 2 * m
    k = write_table(s.proposal_events, EVENT_SLOTS, 5, out, k)
    k = write_table(s.trade_events, EVENT_SLOTS, 5, out, k)
    out[k] = s.proposals_made
    out[k + 1] = s.trades_made
    k += 2
    for p in range(n):
        out[k + p] = s.stops_game[p]
        out[k + n + p] = s.penalties_game[p]
    k += 2 * n
    out[k] = int(s.has_last_round)
    out[k + 1] = s.last_ticks
    k += 2
    for piece in range(m):
        out[k + piece] = s.last_holder[piece]
    k += m
    for p in range(n):
        out[k + p] = s.last_target[p]
    k += n
    out[k] = s.last_caller
    out[k + 1] = s.last_penalty
    k += 2
    k = write_table(s.offered_for, n, m, out, k)
    for piece in range(m):
        out[k + piece] = s.traded_for[piece]
