"""Stocks & Bombs views: a seat's observation, its bounds, and the full state vector.

Observation layout (all from the observer's seat: relative seats j, k with 0 = me, relative
pieces as in :mod:`.pieces`; n players, m = 3n pieces, K = EVENT_SLOTS = 4, T = tick_cap,
R = round_cap). The first block is the layout without memory (``memory=False``); the public
memory (ruling B8 with its 2026-12-01 additions) is appended after it, so every earlier
entry keeps its offset.

=====================  ==============  =====================================================  ==========
entries                size            meaning                                                high
=====================  ==============  =====================================================  ==========
holder                 m * n           piece g is held by relative seat j (one-hot)           1
target                 n               my secret target colour (one-hot)                      1
proposal_open          n               relative seat j has an open proposal                   1
proposal_give          n * m           the piece j gives (one-hot)                            1
proposal_receive       n * m           the piece j asks for (one-hot)                         1
totals                 n               running totals                                         min(W-1+X, R*X)
last_scores            n               round scores of the last scored round (low -6)         X
round_tick_left        3               round index, tick in round, ticks left                 R, T, T
--- memory ---------------------------------------------------------------------------------------------
asked_round            n * m           proposals by j this round asking for piece r           T (T-2 [1])
offered_round          n * m           proposals by j this round offering piece g             T (T-2 [2])
asked_game             n * m           the same over the game                                 R * that
offered_game           n * m           the same over the game                                 R * that
proposed_to_round      n * n           proposals by j addressed to k this round               T (0 if j=k)
proposed_to_game       n * n           the same over the game                                 R*T
trades_round           n * n           trades of j's proposal accepted by k this round        T-1 (0 if j=k)
trades_game            n * n           the same over the game                                 R*(T-1)
moves_round            m               times piece g changed hands this round                 T//2
moves_game             m               the same over the game                                 R*(T//2)
proposal_events        K*(2+2n+2m)     last K proposals this round, newest first: present,    1 / T
                                       proposer (n), gives (m), asks (m), addressee (n),
                                       ticks ago
trade_events           K*(2+2n+2m)     last K trades this round, newest first: present,       1 / T
                                       proposer (n), acceptor (n), proposer gave (m),
                                       acceptor gave (m), ticks ago
stops_game             n               STOP calls by j this game                              R
penalties_game         n               STOP penalties of j this game                          R
last_round             2+m*n+n*n+n+1   a round was scored, its ticks, its final holder        1, T, 1...
                                       (m*n one-hot), every target revealed at scoring
                                       (n*n, j's target colour one-hot), STOP caller
                                       (n one-hot, none when the tick cap ended it), caller
                                       was penalised
offered_for            n * m           1 + the piece j offered in its latest proposal this    m
                                       game asking for piece r (0: j never asked for r)
traded_for             m               1 + the piece g was swapped for in its latest trade    m
                                       this game (0: g never changed hands)
=====================  ==============  =====================================================  ==========

W = points_to_win; X = the largest round score (9, or 8 at n = 4, where the three other
colours are the only places one's own pieces can go). [1] a seat can ask for its own colour
only after trading it away, at the earliest from the third tick; [2] likewise it can offer
another colour's piece only from the third tick. Sizes: without memory 9n^2 + 4n + 3 (163 at
n = 4); the memory adds 23n^2 + (8K + 44)n + 4K + 3 = 23n^2 + 76n + 19 (691 at n = 4), so the
whole observation has 32n^2 + 80n + 22 entries (854, 1222, 1654 at n = 4, 5, 6). The last two
memory sections, offered_for and traded_for, were appended on 2026-12-02 (the version did
not move: every earlier offset is kept); with the counts they tell apart proposal and trade
pairings that have left the last-K slots or earlier rounds (which piece was offered for which,
and which pieces were swapped together), a summary of what B8 lets a player write down.
"""

from numba import njit

from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stocks_and_bombs.memory import EVENT_SLOTS
from stonk_envs.games.stocks_and_bombs.pieces import (
    NONE,
    absolute_seat,
    relative_seat,
    to_absolute_piece,
    to_relative_piece,
)

LOWEST_ROUND_SCORE = -6
"""Target t held none of p's target colour while t holds all six pips of p's colour (B6)."""


# ---------------------------------------------------------------------------- sizes
@njit(cache=True)
def obs_size(n):
    """Size of the observation without memory (the layout before the public memory)."""
    return 3 * n * n + n + n + 2 * n * 3 * n + n + n + 3


@njit(cache=True)
def event_size(n):
    return 2 + 2 * n + 2 * 3 * n


@njit(cache=True)
def memory_size(n):
    """Size of the appended public memory."""
    m = 3 * n
    pairings = n * m + m
    return (
        4 * n * m + 4 * n * n + 2 * m + 2 * EVENT_SLOTS * event_size(n) + 2 * n + 2 + m * n + n * n + n + 1 + pairings
    )


def observation_size(n: int, memory: bool) -> int:
    return int(obs_size(n)) + (int(memory_size(n)) if memory else 0)


def observation_layout(n: int, memory: bool = True) -> dict[str, tuple[int, int]]:
    """``{name: (start, size)}`` of each section of the table above."""
    m = 3 * n
    sizes = [
        ("holder", m * n),
        ("target", n),
        ("proposal_open", n),
        ("proposal_give", n * m),
        ("proposal_receive", n * m),
        ("totals", n),
        ("last_scores", n),
        ("round_tick_left", 3),
    ]
    if memory:
        sizes += [
            ("asked_round", n * m),
            ("offered_round", n * m),
            ("asked_game", n * m),
            ("offered_game", n * m),
            ("proposed_to_round", n * n),
            ("proposed_to_game", n * n),
            ("trades_round", n * n),
            ("trades_game", n * n),
            ("moves_round", m),
            ("moves_game", m),
            ("proposal_events", EVENT_SLOTS * int(event_size(n))),
            ("trade_events", EVENT_SLOTS * int(event_size(n))),
            ("stops_game", n),
            ("penalties_game", n),
            ("last_round", 2 + m * n + n * n + n + 1),
            ("offered_for", n * m),
            ("traded_for", m),
        ]
    layout, start = {}, 0
    for name, size in sizes:
        layout[name] = (start, size)
        start += size
    return layout


@njit(cache=True)
def highest_round_score(n):
    """X: three Larges of three other colours (9) with one's own pieces at a fourth seat. At
    n = 4 there is no fourth seat; the best is 8 (two colours' 3 + 2 and 3 pips, own pieces at
    the third), found by enumerating every holding."""
    return 9 if n >= 5 else 8


# ---------------------------------------------------------------------------- observation
@njit(cache=True)
def write_proposal_counts(s, seat, n, out, k):
    """The four seat-by-piece tables (asked/offered, round/game), one pass in relative order."""
    m = 3 * n
    block = n * m
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for cr in range(n):
            c = absolute_seat(cr, seat, n)
            for size in range(3):
                piece = c * 3 + size
                at = k + jr * m + cr * 3 + size
                out[at] = s.asked_round[j, piece]
                out[at + block] = s.offered_round[j, piece]
                out[at + 2 * block] = s.asked_game[j, piece]
                out[at + 3 * block] = s.offered_game[j, piece]


@njit(cache=True)
def write_pair_counts(s, seat, n, out, k):
    """The four seat-by-seat tables (proposed to, trades; round/game)."""
    block = n * n
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for kr in range(n):
            q = absolute_seat(kr, seat, n)
            at = k + jr * n + kr
            out[at] = s.proposed_to_round[j, q]
            out[at + block] = s.proposed_to_game[j, q]
            out[at + 2 * block] = s.trades_round[j, q]
            out[at + 3 * block] = s.trades_game[j, q]


@njit(cache=True)
def write_events(events, made, proposals, seat, n, tick, out, k):
    """Last-K event slots, newest first (layout in the module docstring)."""
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
def observe_memory(s, seat, out, k):
    """Write the public memory from offset ``k``."""
    n = s.n
    m = 3 * n
    write_proposal_counts(s, seat, n, out, k)
    k += 4 * n * m
    write_pair_counts(s, seat, n, out, k)
    k += 4 * n * n
    for rel in range(m):
        piece = to_absolute_piece(rel, seat, n)
        out[k + rel] = s.moves_round[piece]
        out[k + m + rel] = s.moves_game[piece]
    k += 2 * m
    write_events(s.proposal_events, s.proposals_made, True, seat, n, s.tick, out, k)
    k += EVENT_SLOTS * event_size(n)
    write_events(s.trade_events, s.trades_made, False, seat, n, s.tick, out, k)
    k += EVENT_SLOTS * event_size(n)
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        out[k + jr] = s.stops_game[j]
        out[k + n + jr] = s.penalties_game[j]
    k += 2 * n
    write_pairings(s, seat, n, out, k + 2 + m * n + n * n + n + 1)
    if s.has_last_round:
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
def write_pairings(s, seat, n, out, k):
    """offered_for (n * m) and traded_for (m) from offset ``k``: 1 + a relative piece, 0 for none."""
    m = 3 * n
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        for rel in range(m):
            give = s.offered_for[j, to_absolute_piece(rel, seat, n)]
            if give != NONE:
                out[k + jr * m + rel] = 1 + to_relative_piece(give, seat, n)
    k += n * m
    for rel in range(m):
        other = s.traded_for[to_absolute_piece(rel, seat, n)]
        if other != NONE:
            out[k + rel] = 1 + to_relative_piece(other, seat, n)


@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (layout in the module docstring) into ``out``."""
    n = s.n
    m = 3 * n
    out[:] = 0.0
    for rel in range(m):
        holder = s.holder[to_absolute_piece(rel, seat, n)]
        out[rel * n + relative_seat(holder, seat, n)] = 1.0
    k = m * n
    out[k + relative_seat(s.target[seat], seat, n)] = 1.0
    k += n
    give_base = k + n
    recv_base = give_base + n * m
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        if s.prop_give[j] != NONE:
            out[k + jr] = 1.0
            out[give_base + jr * m + to_relative_piece(s.prop_give[j], seat, n)] = 1.0
            out[recv_base + jr * m + to_relative_piece(s.prop_recv[j], seat, n)] = 1.0
    k = recv_base + n * m
    for jr in range(n):
        j = absolute_seat(jr, seat, n)
        out[k + jr] = s.totals[j]
        out[k + n + jr] = s.last_scores[j]
    k += 2 * n
    out[k] = s.round
    out[k + 1] = s.tick
    out[k + 2] = s.tick_cap - s.tick
    if s.memory:
        observe_memory(s, seat, out, k + 3)


# ---------------------------------------------------------------------------- bounds
@njit(cache=True)
def memory_bounds(n, tick_cap, round_cap, high, k):
    """High bounds of the memory from offset ``k`` (every low bound is 0)."""
    m = 3 * n
    late = max(tick_cap - 2, 0)
    for jr in range(n):
        for rel in range(m):
            own = rel // 3 == jr
            asked = late if own else tick_cap
            offered = tick_cap if own else late
            high[k + jr * m + rel] = asked
            high[k + n * m + jr * m + rel] = offered
            high[k + 2 * n * m + jr * m + rel] = round_cap * asked
            high[k + 3 * n * m + jr * m + rel] = round_cap * offered
    k += 4 * n * m
    trades = max(tick_cap - 1, 0)
    for jr in range(n):
        for kr in range(n):
            other = 0 if jr == kr else 1
            high[k + jr * n + kr] = other * tick_cap
            high[k + n * n + jr * n + kr] = other * round_cap * tick_cap
            high[k + 2 * n * n + jr * n + kr] = other * trades
            high[k + 3 * n * n + jr * n + kr] = other * round_cap * trades
    k += 4 * n * n
    for rel in range(m):
        high[k + rel] = tick_cap // 2
        high[k + m + rel] = round_cap * (tick_cap // 2)
    k += 2 * m
    size = event_size(n)
    for i in range(2 * EVENT_SLOTS):
        high[k + i * size + size - 1] = tick_cap
    k += 2 * EVENT_SLOTS * size
    for jr in range(2 * n):
        high[k + jr] = round_cap
    k += 2 * n
    high[k + 1] = tick_cap
    k += 2 + m * n + n * n + n + 1
    for i in range(n * m + m):
        high[k + i] = m


@njit(cache=True)
def observation_bounds(n, tick_cap, round_cap, points_to_win, memory, low, high):
    """Write the per-entry bounds of an observation (table in the module docstring)."""
    m = 3 * n
    low[:] = 0.0
    high[:] = 1.0
    best = highest_round_score(n)
    k = m * n + n + n + 2 * n * m
    for jr in range(n):
        high[k + jr] = min(points_to_win - 1 + best, round_cap * best)
        low[k + n + jr] = LOWEST_ROUND_SCORE
        high[k + n + jr] = best
    k += 2 * n
    high[k] = round_cap
    high[k + 1] = tick_cap
    high[k + 2] = tick_cap
    if memory:
        memory_bounds(n, tick_cap, round_cap, high, k + 3)


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
