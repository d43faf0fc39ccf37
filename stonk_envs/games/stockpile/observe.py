"""What a seat sees (S17), its bounds, and the full state for centralised critics (compiled).

The observation of n players is the table :data:`OBSERVATION`, then with ``memory=True`` the
public memory :data:`stonk_envs.games.stockpile.memory.MEMORY`; the writers' offsets, the
sizes and the bounds (from the limits derived in :mod:`.bounds`) come from those tables.
Relative seat ``jr`` is seat ``(me + jr) mod n`` (0 = me); kinds are the 11 card kinds of
:mod:`stonk_envs.games.stockpile.state`.

Writers: :func:`observe` writes one seat's row from zeros (the reference); :func:`observe_all`
writes seat 0's row and builds the others by copies and rotations (a seat's public blocks do
not depend on who looks, only their place does); :func:`observe_all_update`, for the batched
engine's own rows, also leaves alone the blocks whose inputs did not change since its last
call. All three write the same values, bit for bit.
"""

import numpy as np
from numba import njit

from stonk_envs.core.layout import Layout, Section, at
from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stockpile.blocks import (
    absolute,
    copy,
    differs,
    fill,
    relative,
    remember,
    remember_run,
    rotate_blocks,
)
from stonk_envs.games.stockpile.market import debt_total
from stonk_envs.games.stockpile.memory import (
    copy_rounds,
    past_round_block,
    rotate_memory,
    round_record_size,
    rounds_changed,
    seat_inputs_changed,
    seat_memory_block,
    table_rounds,
    write_memory,
    write_past_rounds,
    write_round_record,
    write_rounds,
    write_seat_counts,
)
from stonk_envs.games.stockpile.state import (
    DEBT_CAP,
    DECK_CAP,
    DIVIDEND_PHASE,
    HISTORY,
    MAX_BIDS,
    MAX_PLAYERS,
    MEM_BANKRUPT_LOST,
    MEM_BOOMS,
    MEM_BUSTS,
    MEM_SPLIT_REVEALED,
    MEM_UNSPLIT,
    NUM_COMPANIES,
    NUM_DECISION_PHASES,
    NUM_EVENTS,
    NUM_KINDS,
    NUM_LEDGER,
    NUM_MEMORY,
    NUM_REC,
    PILE_CAP,
)
from stonk_envs.games.stockpile.touched import (
    DECK,
    HANDS,
    INPUTS,
    MARKET,
    PAIRS,
    PAST,
    PILES,
    ROUNDS,
    SEAT_COMPANY,
    SEATS,
    TIPS,
    is_touched,
    seat_touched,
)


def discard_highs(values):
    """the kind's copies"""
    return values["copies"]


def pile_highs(values):
    """face-up per kind: min(copies, n + 1); face-down: n; bid: top_bid; else 1"""
    n = values["n"]
    block = np.ones(2 * NUM_KINDS + 2 + n)
    block[:NUM_KINDS] = np.minimum(values["copies"], n + 1)
    block[NUM_KINDS] = n
    block[2 * NUM_KINDS + 1] = values["top_bid"]
    return np.tile(block, n)


def company_highs(values):
    """stock_per_company; the unsplit and split-revealed counts: unsplit and split_revealed; Stock
    Boom! and Stock Bust! cards played: action_copies"""
    block = np.full(1 + NUM_MEMORY, values["stock_per_company"])
    block[1 + MEM_UNSPLIT] = values["unsplit"]
    block[1 + MEM_SPLIT_REVEALED] = values["split_revealed"]
    block[1 + MEM_BANKRUPT_LOST] = values["stock_per_company"]
    block[1 + MEM_BOOMS] = block[1 + MEM_BUSTS] = values["action_copies"]
    return np.tile(block, values["n"] * NUM_COMPANIES)


C = NUM_COMPANIES
OBSERVATION = Layout([
    Section("phase", NUM_DECISION_PHASES, "one-hot: supply, demand, action, selling, dividend (all 0 once the game "
            "is over)"),
    Section("reveal_step", 2, "one-hot in a dividend: regular question, split question"),
    Section("actor", "n", "one-hot relative seat deciding now"),
    Section("first_player", "n", "one-hot relative seat holding the first-player token"),
    Section("round", 2, "rounds played, rounds left", "rounds"),
    Section("prices", C, "price of each company", "max_price"),
    Section("dividend_company", C, "one-hot company paying the current dividend"),
    Section("public_pair", 2 * C, "company one-hot, forecast one-hot"),
    Section("my_pair", 2 * C, "company one-hot, forecast one-hot"),
    Section("known_forecasts", C * C, "1 at company x 6 + forecast for each pair I know this round: mine, the "
            "public one, and every pair shown in movement"),
    Section("deck", 1, "cards left in the market deck", "deck_size - 4 * n"),
    Section("discard", NUM_KINDS, "discarded cards per kind (sales, bankruptcies, paid fees, played action cards)",
            discard_highs),
    Section("stockpiles", f"{2 * NUM_KINDS + 2} + n", "stockpile t: face-up cards per kind (11), face-down count "
            "(1), my own face-down cards there per kind (11), the bid on track t in $K (1), one-hot relative seat "
            "of its bidder (n; all 0 when empty)", pile_highs, repeat="n"),
    Section("my_hand", 2 * NUM_KINDS, "my supply hand: two slots, card kind one-hot each (0 once placed)"),
    Section("my_regular", C, "my regular shares per company", "stock_per_company"),
    Section("my_action_cards", 2, "Stock Boom!, Stock Bust! still to play", "action_copies"),
    Section("seats", 6, "seat jr: cash, debt $K, debt cards, regular cards, split cards, holds a bid now",
            ("cash", "debt", "debt_cards", "shares", "shares", 1), repeat="n"),
    Section("seat_company", 1 + NUM_MEMORY, "seat jr, company c: split cards, then the ten public memory counts "
            "(``state.MEMORY_NAMES``, the next table)", company_highs, repeat=f"n * {C}"),
    Section("my_tips", f"n * {C}", "stock cards of each company that I placed face-down and seat jr won (this game)",
            "min(rounds, stock_per_company)"),
], lambda n: {"n": n})  # fmt: skip
"""The observation's sections in order, without the memory (``memory=False``)."""
del C

_COUNTS = range(1, MAX_PLAYERS + 1)
_ACTOR, _ROUND, _PUBLIC_PAIR, _MY_PAIR, _DECK, _PILES, _MY_HAND, _SEATS, _SEAT_COMPANY, _TIPS = (
    OBSERVATION.quadratic(name, _COUNTS) for name in ("actor", "round", "public_pair", "my_pair", "deck", "stockpiles",
                                                      "my_hand", "seats", "seat_company", "my_tips")
)  # fmt: skip
_SIZE = OBSERVATION.quadratic(None, _COUNTS)
_PILE_BLOCK = OBSERVATION.quadratic("stockpiles", _COUNTS, block=True)
SEAT_BLOCK = OBSERVATION.block(1, "seats")
COMPANY_BLOCK = OBSERVATION.block(1, "seat_company")


@njit(cache=True)
def obs_size(n):
    return at(_SIZE, n)


@njit(cache=True)
def pile_block(n):
    return at(_PILE_BLOCK, n)


@njit(cache=True, inline="always")
def _offsets(n):
    """Where the sections that differ between seats start: actor, my pair, stockpiles, my hand,
    seats, seat-company blocks, my tips."""
    starts = at(_ACTOR, n), at(_MY_PAIR, n), at(_PILES, n), at(_MY_HAND, n)
    return (*starts, at(_SEATS, n), at(_SEAT_COMPANY, n), at(_TIPS, n))


# The writers index views of ``out`` with loop counters (see :mod:`.blocks`). Each section
# writer writes its entries of a row on zeros.


@njit(cache=True, inline="always")
def _write_turn(s, out):
    """Phase and reveal step one-hots."""
    if not s.game_over:
        out[s.phase] = 1.0
    if s.phase == DIVIDEND_PHASE:
        out[NUM_DECISION_PHASES + s.sub] = 1.0


@njit(cache=True, inline="always")
def _write_actor(s, seat, out):
    """Actor and first-player one-hots, relative to ``seat``."""
    n = s.n
    actor = _offsets(n)[0]
    if s.actor >= 0:
        out[actor + relative(s.actor, seat, n)] = 1.0
    out[actor + n + relative(s.first, seat, n)] = 1.0


@njit(cache=True, inline="always")
def _write_market(s, out):
    """Rounds played and left, prices, dividend company one-hot."""
    k = at(_ROUND, s.n)
    out[k] = s.round
    out[k + 1] = s.rounds - s.round
    k += 2
    prices = out[k : k + NUM_COMPANIES]
    for c in range(NUM_COMPANIES):
        prices[c] = s.price[c]
    k += NUM_COMPANIES
    if s.phase == DIVIDEND_PHASE:
        out[k + s.div_company] = 1.0


@njit(cache=True, inline="always")
def _write_public_pair(s, out):
    k = at(_PUBLIC_PAIR, s.n)
    out[k + s.pair_comp[s.n]] = 1.0
    out[k + NUM_COMPANIES + s.pair_fc[s.n]] = 1.0


@njit(cache=True, inline="always")
def _write_known_pairs(s, seat, out):
    """``seat``'s pair and the forecasts it knows."""
    n = s.n
    k = _offsets(n)[1]
    out[k + s.pair_comp[seat]] = 1.0
    out[k + NUM_COMPANIES + s.pair_fc[seat]] = 1.0
    k += 2 * NUM_COMPANIES
    for i in range(NUM_COMPANIES):
        if i == seat or i == n or s.pair_shown[i]:  # noqa: SIM109 (a tuple test does not compile)
            out[k + s.pair_comp[i] * NUM_COMPANIES + s.pair_fc[i]] = 1.0


@njit(cache=True, inline="always")
def _write_deck(s, out):
    """Cards left in the deck, discarded cards per kind (every entry set)."""
    k = at(_DECK, s.n)
    out[k] = s.deck_len
    discard = out[k + 1 : k + 1 + NUM_KINDS]
    for kind in range(NUM_KINDS):
        discard[kind] = s.discard[kind]


@njit(cache=True, inline="always")
def _pile_view(n, t, out):
    k = _offsets(n)[2] + t * pile_block(n)
    return out[k : k + pile_block(n)]


@njit(cache=True, inline="always")
def _write_pile_public(s, t, pile):
    """Pile t's face-up cards per kind, face-down count and bid."""
    for j in range(s.pile_len[t]):
        if s.pile_up[t, j]:
            pile[s.pile[t, j]] += 1.0
        else:
            pile[NUM_KINDS] += 1.0
    if s.bidder[t] >= 0:
        pile[2 * NUM_KINDS + 1] = s.bid_values[s.bid_v[t]]


@njit(cache=True, inline="always")
def _write_pile_own(s, t, seat, pile):
    """``seat``'s face-down cards on pile t per kind, and the bidder relative to ``seat``."""
    for j in range(s.pile_len[t]):
        if not s.pile_up[t, j] and s.pile_by[t, j] == seat:
            pile[NUM_KINDS + 1 + s.pile[t, j]] += 1.0
    if s.bidder[t] >= 0:
        pile[2 * NUM_KINDS + 2 + relative(s.bidder[t], seat, s.n)] = 1.0


@njit(cache=True, inline="always")
def _write_hand(s, seat, out):
    """``seat``'s supply hand, regular shares and action cards."""
    k = _offsets(s.n)[3]
    for j in range(2):
        if s.hand[seat, j] >= 0:
            out[k + j * NUM_KINDS + s.hand[seat, j]] = 1.0
    k += 2 * NUM_KINDS
    regular = out[k : k + NUM_COMPANIES]
    for c in range(NUM_COMPANIES):
        regular[c] = s.regular[seat, c]
    k += NUM_COMPANIES
    out[k] = s.booms[seat]
    out[k + 1] = s.busts[seat]


@njit(cache=True, inline="always")
def _write_tips(s, seat, out):
    """``seat``'s tips to each relative seat (every entry set)."""
    n = s.n
    tips = _offsets(n)[6]
    for jr in range(n):
        q = absolute(jr, seat, n)
        tips_to = out[tips + jr * NUM_COMPANIES : tips + (jr + 1) * NUM_COMPANIES]
        for c in range(NUM_COMPANIES):
            tips_to[c] = s.placed_won[seat, q, c]


@njit(cache=True)
def _write_public(s, out):
    """The entries every seat sees alike (phase, prices, public pair, deck, piles' open faces, bids)."""
    _write_turn(s, out)
    _write_market(s, out)
    _write_public_pair(s, out)
    _write_deck(s, out)
    for t in range(s.n):
        _write_pile_public(s, t, _pile_view(s.n, t, out))


@njit(cache=True)
def _clear_own(n, out):
    """Zero the entries :func:`_write_own` sets only where they are not zero (one-hots, counts)."""
    actor, my_pair, piles, my_hand, _, _, _ = _offsets(n)
    fill(out[actor : actor + 2 * n], 0.0)
    fill(out[my_pair : my_pair + 2 * NUM_COMPANIES + NUM_COMPANIES * NUM_COMPANIES], 0.0)
    for t in range(n):
        k = piles + t * pile_block(n)
        fill(out[k + NUM_KINDS + 1 : k + 2 * NUM_KINDS + 1], 0.0)
        fill(out[k + 2 * NUM_KINDS + 2 : k + 2 * NUM_KINDS + 2 + n], 0.0)
    fill(out[my_hand : my_hand + 2 * NUM_KINDS], 0.0)


@njit(cache=True)
def _write_own(s, seat, out):
    """The entries only ``seat`` sees, or sees from its own seat (relative one-hots), on zeros."""
    _write_actor(s, seat, out)
    _write_known_pairs(s, seat, out)
    for t in range(s.n):
        _write_pile_own(s, t, seat, _pile_view(s.n, t, out))
    _write_hand(s, seat, out)
    _write_tips(s, seat, out)


@njit(cache=True, inline="always")
def _write_seat_block(s, q, block):
    """Seat q's public block (every entry set)."""
    block[0] = s.cash[q]
    block[1] = debt_total(s, q)
    block[2] = s.debt_len[q]
    block[3] = s.regular[q].sum()
    block[4] = s.split[q].sum()
    block[5] = 1.0 if s.track_of[q] >= 0 else 0.0


@njit(cache=True)
def _write_seats(s, seat, out):
    """Each seat's public block, starting from ``seat``."""
    n = s.n
    seats = _offsets(n)[4]
    for jr in range(n):
        q = absolute(jr, seat, n)
        _write_seat_block(s, q, out[seats + jr * SEAT_BLOCK : seats + (jr + 1) * SEAT_BLOCK])


@njit(cache=True, inline="always")
def _write_company_block(s, q, c, company):
    """Seat q's block of company c: split cards and public memory counts (every entry set)."""
    company[0] = s.split[q, c]
    memory = s.memory[q, c]
    for m in range(NUM_MEMORY):
        company[1 + m] = memory[m]


@njit(cache=True)
def _write_company_blocks(s, q, block):
    """Seat q's seat-company blocks."""
    for c in range(NUM_COMPANIES):
        _write_company_block(s, q, c, block[c * COMPANY_BLOCK : (c + 1) * COMPANY_BLOCK])


@njit(cache=True)
def _write_seat_blocks(s, seat, out):
    """Each seat's public block and seat-company blocks, starting from ``seat``."""
    n = s.n
    _write_seats(s, seat, out)
    seat_company = _offsets(n)[5]
    width = NUM_COMPANIES * COMPANY_BLOCK
    for jr in range(n):
        q = absolute(jr, seat, n)
        _write_company_blocks(s, q, out[seat_company + jr * width : seat_company + (jr + 1) * width])


@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (layout in the module docstring) into ``out``."""
    fill(out, 0.0)
    _write_public(s, out)
    _write_own(s, seat, out)
    _write_seat_blocks(s, seat, out)
    if s.mem_on:
        write_memory(s, seat, out[obs_size(s.n) :])


@njit(cache=True)
def observe_all(s, out):
    """Write every seat's observation into the rows of ``out``: seat 0's in full, then each
    other seat's as a copy of it up to the seat blocks, its own entries rewritten and the seat
    blocks and the memory's seat blocks rotated."""
    n = s.n
    first = out[0]
    observe(s, 0, first)
    _, _, _, _, seats, seat_company, _ = _offsets(n)
    for seat in range(1, n):
        row = out[seat]
        copy(first[:seats], row[:seats])
        _clear_own(n, row)
        _write_own(s, seat, row)
        rotate_blocks(first, row, seats, SEAT_BLOCK, n, seat)
        rotate_blocks(first, row, seat_company, COMPANY_BLOCK * NUM_COMPANIES, n, seat)
        if s.mem_on:
            rotate_memory(s, seat, first[obs_size(n) :], row[obs_size(n) :])


@njit(cache=True)
def _companies_changed(s, q):
    """Bit c set where seat q's split cards or memory counts of company c differ from
    ``s.seen_split[q, c]`` and ``s.seen_memory[q]``; stores them there. Seat q's whole snapshot
    is compared first: most steps change none of it."""
    split, memory = s.seen_split[q], s.seen_memory[q]
    if not (differs(split, s.split[q]) or differs(memory, s.memory[q].ravel())):
        return 0
    changed = 0
    for c in range(NUM_COMPANIES):
        company = remember(split, c, s.split[q, c])
        company |= remember_run(memory[c * NUM_MEMORY : (c + 1) * NUM_MEMORY], s.memory[q, c])
        if company:
            changed |= 1 << c
    return changed


@njit(cache=True)
def _market_changed(s):
    """Whether what :func:`_write_market` writes from differs from ``s.seen_market``; stores it there."""
    seen = s.seen_market
    changed = remember(seen, 0, s.round)
    changed |= remember(seen, 1, s.rounds)
    for c in range(NUM_COMPANIES):
        changed |= remember(seen, 2 + c, s.price[c])
    changed |= remember(seen, 2 + NUM_COMPANIES, s.div_company if s.phase == DIVIDEND_PHASE else -1)
    return changed


@njit(cache=True)
def _pairs_changed(s):
    """Whether the pairs and which are shown differ from ``s.seen_pairs``; stores them there."""
    seen = s.seen_pairs
    changed = False
    for i in range(NUM_COMPANIES):
        changed |= remember(seen, 3 * i, s.pair_comp[i])
        changed |= remember(seen, 3 * i + 1, s.pair_fc[i])
        changed |= remember(seen, 3 * i + 2, s.pair_shown[i])
    return changed


@njit(cache=True)
def _deck_changed(s):
    """Whether the deck size or the discards differ from ``s.seen_deck``; stores them there."""
    seen = s.seen_deck
    changed = remember(seen, 0, s.deck_len)
    for kind in range(NUM_KINDS):
        changed |= remember(seen, 1 + kind, s.discard[kind])
    return changed


@njit(cache=True)
def _pile_changed(s, t):
    """Whether pile t's cards or bid differ from ``s.seen_piles[t]``; stores them there."""
    seen = s.seen_piles[t]
    changed = remember(seen, 0, s.pile_len[t])
    changed |= remember(seen, 1, s.bidder[t])
    changed |= remember(seen, 2, s.bid_values[s.bid_v[t]] if s.bidder[t] >= 0 else 0)
    for j in range(s.pile_len[t]):
        changed |= remember(seen, 3 + 3 * j, s.pile[t, j])
        changed |= remember(seen, 4 + 3 * j, s.pile_up[t, j])
        changed |= remember(seen, 5 + 3 * j, s.pile_by[t, j])
    return changed


@njit(cache=True)
def _hand_changed(s, seat):
    """Whether what :func:`_write_hand` writes from differs from ``s.seen_hand[seat]``; stores it there."""
    seen = s.seen_hand[seat]
    changed = remember(seen, 0, s.hand[seat, 0])
    changed |= remember(seen, 1, s.hand[seat, 1])
    for c in range(NUM_COMPANIES):
        changed |= remember(seen, 2 + c, s.regular[seat, c])
    changed |= remember(seen, 2 + NUM_COMPANIES, s.booms[seat])
    changed |= remember(seen, 3 + NUM_COMPANIES, s.busts[seat])
    return changed


@njit(cache=True)
def _tips_changed(s, seat):
    """Whether ``seat``'s tips differ from ``s.seen_tips[seat]``; stores them there."""
    width = s.n * NUM_COMPANIES
    return remember_run(s.seen_tips[seat, :width], s.placed_won[seat, : s.n].ravel())


@njit(cache=True)
def _seat_changed(s, q):
    """Whether seat q's public block values differ from ``s.seen_seats[q]``; stores them there."""
    seen = s.seen_seats[q]
    changed = remember(seen, 0, s.cash[q])
    changed |= remember(seen, 1, debt_total(s, q))
    changed |= remember(seen, 2, s.debt_len[q])
    changed |= remember(seen, 3, s.regular[q].sum())
    changed |= remember(seen, 4, s.split[q].sum())
    changed |= remember(seen, 5, 1 if s.track_of[q] >= 0 else 0)
    return changed


@njit(cache=True)
def _remember_all(s):
    _market_changed(s)
    _pairs_changed(s)
    _deck_changed(s)
    for q in range(s.n):
        _pile_changed(s, q)
        _hand_changed(s, q)
        _tips_changed(s, q)
        _seat_changed(s, q)
        _companies_changed(s, q)
        seat_inputs_changed(s, q)
    rounds_changed(s)
    s.obs_seen = True


@njit(cache=True)
def _update_front(s, out):
    """Rewrite, in every row, the entries before the seat blocks and the tips: the turn and
    actor one-hots always, each other section only when what it is written from changed."""
    n = s.n
    market, public_pair, deck, my_hand = at(_ROUND, n), at(_PUBLIC_PAIR, n), at(_DECK, n), at(_MY_HAND, n)
    market_changed = is_touched(s, MARKET) and _market_changed(s)
    pairs_changed = is_touched(s, PAIRS) and _pairs_changed(s)
    deck_changed = is_touched(s, DECK) and _deck_changed(s)
    changed_piles = 0
    for t in range(n):
        if seat_touched(s, PILES, t) and _pile_changed(s, t):
            changed_piles |= 1 << t
    for seat in range(n):
        row = out[seat]
        fill(row[:market], 0.0)
        _write_turn(s, row)
        _write_actor(s, seat, row)
        if market_changed:
            fill(row[market:public_pair], 0.0)
            _write_market(s, row)
        if pairs_changed:
            fill(row[public_pair:deck], 0.0)
            _write_public_pair(s, row)
            _write_known_pairs(s, seat, row)
        if deck_changed:
            _write_deck(s, row)
        for t in range(n):
            if changed_piles >> t & 1:
                pile = _pile_view(n, t, row)
                fill(pile, 0.0)
                _write_pile_public(s, t, pile)
                _write_pile_own(s, t, seat, pile)
        if seat_touched(s, HANDS, seat) and _hand_changed(s, seat):
            fill(row[my_hand : my_hand + 2 * NUM_KINDS], 0.0)
            _write_hand(s, seat, row)
        if seat_touched(s, TIPS, seat) and _tips_changed(s, seat):
            _write_tips(s, seat, row)


@njit(cache=True)
def _update_seat_blocks(s, out):
    """Rewrite, in every row, the public block, the seat-company blocks and the two parts of the
    memory block of each seat whose inputs changed since the last update; the others already
    hold what they would be written."""
    n = s.n
    for q in range(n):
        if seat_touched(s, SEATS, q) and _seat_changed(s, q):
            for seat in range(n):
                start = _offsets(n)[4] + relative(q, seat, n) * SEAT_BLOCK
                _write_seat_block(s, q, out[seat, start : start + SEAT_BLOCK])
        companies = _companies_changed(s, q) if seat_touched(s, SEAT_COMPANY, q) else 0
        for c in range(NUM_COMPANIES):
            if companies >> c & 1:
                for seat in range(n):
                    start = _offsets(n)[5] + (relative(q, seat, n) * NUM_COMPANIES + c) * COMPANY_BLOCK
                    _write_company_block(s, q, c, out[seat, start : start + COMPANY_BLOCK])
        parts = seat_inputs_changed(s, q) if seat_touched(s, INPUTS, q) else 0
        if parts and s.mem_on:
            for seat in range(n):
                start = obs_size(n) + relative(q, seat, n) * seat_memory_block(n)
                block = out[seat, start : start + seat_memory_block(n)]
                if parts & 1:
                    fill(block[: round_record_size(n)], 0.0)
                    write_round_record(s, q, n, block)
                if parts & 2:
                    write_seat_counts(s, q, n, block)


@njit(cache=True)
def _update_rounds(s, out):
    """Rewrite every row's memory company counts and round history if they changed, and its
    record of every past round when a round ended (or the records came from outside)."""
    memory = obs_size(s.n)
    if is_touched(s, ROUNDS) and rounds_changed(s) and s.mem_on:
        first = out[0, memory:]
        write_rounds(s, 0, first)
        for seat in range(1, s.n):
            copy_rounds(s, seat, first, out[seat, memory:])
    if is_touched(s, PAST) and s.mem_on:
        for seat in range(s.n):
            write_past_rounds(s, seat, out[seat, memory:])


@njit(cache=True)
def observe_all_update(s, out):
    """:func:`observe_all` into rows that hold what the last call of this function on ``s``
    wrote (the batched engine's own rows): only the turn and actor one-hots are always
    written; every other section is rewritten only when the steps since then touched it
    (``s.touched``, set by the rules) and what it is written from changed (compared with the
    snapshots ``s.seen_*``). The first call after ``init`` writes everything."""
    if not s.obs_seen:
        observe_all(s, out)
        _remember_all(s)
    else:
        _update_front(s, out)
        _update_seat_blocks(s, out)
        _update_rounds(s, out)
    s.touched = 0


OPTIONS = 14 + MAX_BIDS
"""The options at the end of the state vector (the deck's make-up shows the card copies)."""


@njit(cache=True)
def state_size(n):
    per_seat = 6 + 2 * NUM_COMPANIES + 3 + DEBT_CAP + NUM_COMPANIES * NUM_MEMORY + NUM_COMPANIES * n
    per_seat += NUM_LEDGER + NUM_REC + NUM_KINDS + n + 2 * NUM_COMPANIES
    public = 4 + 13 + 4 * NUM_COMPANIES + DECK_CAP + NUM_KINDS + NUM_COMPANIES * NUM_EVENTS
    past = table_rounds(n) * past_round_block(n)
    return public + 3 * HISTORY * NUM_COMPANIES + n * (3 * PILE_CAP + 2) + n * per_seat + OPTIONS + past


@njit(cache=True)
def _put(out, k, values):
    for j in range(values.shape[0]):
        out[k + j] = values[j]
    return k + values.shape[0]


@njit(cache=True)
def state_vector(s, out):
    """Write the full state as a flat vector: every hidden card, the deck in order, each seat's
    debts in order, the random stream (four 16-bit parts) and the public memory, then every
    option and the record of every round; two states that can play out differently give
    different vectors."""
    n = s.n
    out[:] = 0.0
    write_rng_parts(s.rng, out[:RNG_PARTS])
    out[4] = s.round
    out[5] = s.phase
    out[6] = s.sub
    out[7] = s.first
    out[8] = s.actor
    out[9] = s.turn_k
    out[10] = s.div_company
    out[11] = s.move_k
    out[12] = s.deck_len
    out[13] = s.game_over
    out[14] = s.rounds
    out[15] = s.n
    out[16] = s.mem_on
    k = 17
    for c in range(NUM_COMPANIES):
        out[k] = s.price[c]
        out[k + 1] = s.pair_comp[c]
        out[k + 2] = s.pair_fc[c]
        out[k + 3] = s.pair_shown[c]
        k += 4
    k = _put(out, k, s.deck)
    k = _put(out, k, s.discard)
    k = _put(out, k, s.company_events.ravel())
    k = _put(out, k, s.hist_price.ravel())
    k = _put(out, k, s.hist_fc.ravel())
    k = _put(out, k, s.hist_holder.ravel())
    for t in range(n):
        for j in range(PILE_CAP):
            out[k] = s.pile[t, j]
            out[k + 1] = s.pile_up[t, j]
            out[k + 2] = s.pile_by[t, j]
            k += 3
        out[k] = s.bidder[t]
        out[k + 1] = s.bid_v[t] if s.bidder[t] >= 0 else -1
        k += 2
    for p in range(n):
        out[k] = s.hand[p, 0]
        out[k + 1] = s.hand[p, 1]
        out[k + 2] = s.booms[p]
        out[k + 3] = s.busts[p]
        out[k + 4] = s.cash[p]
        out[k + 5] = s.debt_len[p]
        k += 6
        k = _put(out, k, s.regular[p])
        k = _put(out, k, s.split[p])
        out[k] = s.track_of[p]
        out[k + 1] = s.worth_mark[p]
        out[k + 2] = debt_total(s, p)
        k += 3
        k = _put(out, k, s.debt[p])
        k = _put(out, k, s.memory[p].ravel())
        k = _put(out, k, s.placed_won[p, :n].ravel())
        k = _put(out, k, s.ledger[p])
        k = _put(out, k, s.round_rec[p])
        k = _put(out, k, s.won_up[p])
        k = _put(out, k, s.down_from[p, :n])
        k = _put(out, k, s.div_total[p].ravel())
    k = _put_options(s, out, k)
    for r in range(table_rounds(n)):  # the record of every round (appended 2026-12-03)
        k = _put(out, k, s.past_price[r])
        k = _put(out, k, s.past_fc[r])
        k = _put(out, k, s.past_holder[r])
        k = _put(out, k, s.past_rec[r, :n].ravel())
    return k


@njit(cache=True)
def _put_options(s, out, k):
    """Every option of the config, after the table: prices, money, bonuses, bids, rewards."""
    for value in (s.start_cash, s.max_price, s.start_price, s.split_reset, s.split_bonus, s.div_regular,
                  s.div_split, s.bonus_sole, s.bonus_tie, s.action_move, s.stock_per_company, s.num_bids,
                  s.reward_mode):  # fmt: skip
        out[k] = value
        k += 1
    out[k] = s.reward_scale
    k += 1
    for b in range(MAX_BIDS):
        out[k + b] = s.bid_values[b] if b < s.num_bids else -1
    return k + MAX_BIDS


def observation_layout(n: int) -> dict[str, tuple[int, int]]:
    """``{name: (start, size)}`` of each section of :data:`OBSERVATION`."""
    return OBSERVATION.spans(n)
