"""The public memory (S17, 2026-12-01): exact entries, omissions, leaks, and the full state()."""

import numpy as np
from sp_helpers import AA, BB, BOOM, CC, DIV, EE, FEE1, FEE2, LL, MINUS2, MINUS3, PLUS1, PLUS2, PLUS4, SS, Table

from stonk_envs.games.stockpile.market import earn
from stonk_envs.games.stockpile.memory import memory_layout, seat_memory_block, table_rounds
from stonk_envs.games.stockpile.observe import obs_size, state_size
from stonk_envs.games.stockpile.state import DEMAND, NUM_KINDS, SUPPLY

N = 4
BASE = int(obs_size(N))
SEAT = int(seat_memory_block(N))
LAYOUT = memory_layout(N, BASE)
PAID = NUM_KINDS + 3 * N
WON_UP = PAID + 3
DOWN_FROM = WON_UP + NUM_KINDS
BIDS_PAID = DOWN_FROM + N
DIV_TOTAL = BIDS_PAID + 1


def seat_memory(obs, jr):
    start = LAYOUT["memory_seats"][0] + jr * SEAT
    return obs[start : start + SEAT]


def supply_table(hands):
    t = Table(N, seed=3)
    for p, hand in enumerate(hands):
        t["hand"][p] = hand
    return t


def test_who_laid_each_pile_card():
    """Same piles, different layers: seat 0 lays Boom! up on pile 0 and seat 1 a CC up on pile 1,
    or the other way round. Seat 2's view was the same before the memory; now it differs."""
    first = supply_table([[BOOM, CC], [CC, BB], [LL, AA], [SS, EE]])
    first.act(first.supply_action(0, 0, 2))
    first.act(first.supply_action(0, 1, 3))
    second = supply_table([[CC, BB], [BOOM, CC], [LL, AA], [SS, EE]])
    second.act(second.supply_action(0, 1, 3))
    second.act(second.supply_action(0, 0, 2))
    a, b = first.observe(2), second.observe(2)
    np.testing.assert_array_equal(a[:BASE], b[:BASE])
    seat0 = seat_memory(a, 2)  # seat 0 is relative seat 2 of seat 2
    assert seat0[BOOM] == 1 and seat0[NUM_KINDS + 0] == 1 and seat0[NUM_KINDS + N + 2] == 1
    assert seat0[: NUM_KINDS + 3 * N].sum() == 3
    seat1 = seat_memory(a, 3)
    assert seat1[CC] == 1 and seat1[NUM_KINDS + 1] == 1 and seat1[NUM_KINDS + N + 3] == 1
    assert seat_memory(b, 2)[CC] == 1 and seat_memory(b, 3)[BOOM] == 1
    assert not seat_memory(a, 0)[: NUM_KINDS + 3 * N].any()  # seat 2 has not laid yet


def demand_table():
    """Four players at the demand phase with known piles: pile t opens with card kind t,
    then seat t lays FEE1 face-up and CC face-down on its own pile."""
    t = Table(N, seed=5)
    for p in range(N):
        t["hand"][p] = [FEE1, CC]
    t["pile"][:N, 0] = [CC, BB, LL, BOOM]
    for p in range(N):
        t.act(t.supply_action(0, p, p))
    return t


def test_bids_paid_and_piles_taken():
    """Seat 0 bids 3 on pile 0, seat 1 outbids it with 6, seat 2 and 3 bid 0 on piles 2 and 3,
    seat 0 goes on to pile 1 at 1. Exact memory of each seat after resolution."""
    t = demand_table()
    t.act(t.bid_action(0, 3))
    t.act(t.bid_action(0, 6))
    t.act(t.bid_action(2, 0))
    t.act(t.bid_action(3, 0))
    t.act(t.bid_action(1, 1))
    obs = t.observe(0)
    expected = {0: (1, 1, 2, 3), 1: (0, 6, 1, 6), 2: (2, 0, 1, 0), 3: (3, 0, 1, 0)}
    for p, (pile, paid, bids, top) in expected.items():
        m = seat_memory(obs, p)
        assert m[NUM_KINDS + 2 * N + pile] == 1  # the pile it took
        assert m[NUM_KINDS + 2 * N : NUM_KINDS + 3 * N].sum() == 1
        assert tuple(m[PAID : PAID + 3]) == (paid, bids, top)
        assert m[BIDS_PAID] == paid
        opening = np.zeros(NUM_KINDS)
        opening[[CC, BB, LL, BOOM][pile]] += 1
        opening[FEE1] += 1
        np.testing.assert_array_equal(m[WON_UP : WON_UP + NUM_KINDS], opening)
        down_from = np.zeros(N)
        down_from[(pile - p) % N] = 1  # seat ``pile`` laid the face-down card: (pile - p) % N seats after p
        np.testing.assert_array_equal(m[DOWN_FROM : DOWN_FROM + N], down_from)
    # a history that ends in the same holdings and bids but where seat 0 never bid 3 on pile 0
    other = demand_table()
    other.act(other.bid_action(1, 1))
    other.act(other.bid_action(0, 6))
    other.act(other.bid_action(2, 0))
    other.act(other.bid_action(3, 0))
    a, b = other.observe(2), t.observe(2)
    np.testing.assert_array_equal(a[:BASE], b[:BASE])
    assert not np.array_equal(a, b)


def dividend_round(t, reveals):
    """Jump to the round's last sale with CC paired with $$ (pair 0 = seat 0's); every seat
    reveals ``reveals[seat]`` regular cards of CC. The round then ends."""
    t.to_last_sale()
    t.set_pairs([CC, BB, LL, AA, SS, EE], [DIV, PLUS4, PLUS2, PLUS1, MINUS2, MINUS3])
    t["regular"][:, CC] = 3
    t["split"] = 0
    t.done()
    for k in range(N):
        t.act(t.reveal_action(reveals[(t["first"] + k) % N]))


def test_older_dividend_reveals_and_price_history():
    """Two rounds with a CC dividend: seat 1 reveals 2 then 1, or 0 then 1. The last reveal is
    the same; the totals and the history differ."""
    tables = []
    for first_reveal in (2, 0):
        t = Table(N, seed=11)
        dividend_round(t, [0, first_reveal, 0, 0])
        dividend_round(t, [0, 1, 0, 0])
        tables.append(t)
    a, b = (t.observe(0) for t in tables)
    assert seat_memory(a, 1)[DIV_TOTAL + CC] == 3 and seat_memory(b, 1)[DIV_TOTAL + CC] == 1
    events = LAYOUT["memory_companies"][0]
    assert a[events + 3 * CC + 2] == 2  # two CC dividends
    rounds = LAYOUT["memory_rounds"][0]
    width = 9 + N
    for h in range(2):  # both remembered rounds: CC $$ in seat 0's pair, BB +4 in seat 1's
        cc = a[rounds + (h * 6 + CC) * width : rounds + (h * 6 + CC + 1) * width]
        np.testing.assert_array_equal(np.flatnonzero(cc[1:]), [DIV, 6])
        assert cc[0] == 5  # a dividend does not move the price
        bb = a[rounds + (h * 6 + BB) * width : rounds + (h * 6 + BB + 1) * width]
        np.testing.assert_array_equal(np.flatnonzero(bb[1:]), [PLUS4, 7])
    seen_from_1 = tables[0].observe(1)  # from seat 1, seat 0's pair is relative seat 3
    cc = seen_from_1[rounds + CC * width : rounds + (CC + 1) * width]
    np.testing.assert_array_equal(np.flatnonzero(cc[1:]), [DIV, 6 + 3])


def test_memory_hides_face_down_cards_and_deck():
    """Perturbing what only one seat knows (its face-down card's kind, its private pair, the
    deck order) leaves every other seat's observation unchanged while play stays public."""
    t = Table(N, seed=21)
    for _ in range(N):  # supply
        t.act(int(np.flatnonzero(t.mask(t.actor))[0]))
    perturbed = Table(N, seed=21)
    perturbed.states[:] = t.states
    pile, slot = np.argwhere((t["pile_by"] == 1) & (t["pile_up"] == 0))[0]
    perturbed["pile"][pile, slot] = (t["pile"][pile, slot] + 1) % NUM_KINDS
    perturbed["deck"][: t["deck_len"]] = t["deck"][: t["deck_len"]][::-1]
    perturbed["pair_fc"][1], perturbed["pair_fc"][N + 1] = t["pair_fc"][N + 1], t["pair_fc"][1]
    while True:  # the demand phase: public play goes on alike
        for seat in (0, 2, 3):
            np.testing.assert_array_equal(perturbed.observe(seat), t.observe(seat))
        assert not np.array_equal(perturbed.observe(1), t.observe(1))
        if t["phase"] != 1:
            break
        action = int(np.flatnonzero(t.mask(t.actor))[-1])
        t.act(action)
        if t["phase"] != 1:  # the piles are resolved: the perturbed card is now in a portfolio
            break
        perturbed.act(action)


def test_state_tells_apart_debt_order_deck_order_and_rng():
    t = Table(N, seed=4)
    t.set_debts(0, [1, 2])
    base = state_of(t)
    swapped = Table(N, seed=4)
    swapped.states[:] = t.states
    swapped.set_debts(0, [2, 1])
    assert not np.array_equal(state_of(swapped), base)
    deck = Table(N, seed=4)
    deck.states[:] = t.states
    top = int(t["deck_len"]) - 1
    assert t["deck"][0] != t["deck"][top]
    deck["deck"][0], deck["deck"][top] = t["deck"][top], t["deck"][0]
    assert not np.array_equal(state_of(deck), base)
    stream = Table(N, seed=4)
    stream.states[:] = t.states
    stream["rng"] = t["rng"] ^ np.uint64(1 << 40)
    assert not np.array_equal(state_of(stream), base)
    recall = Table(N, seed=4)
    recall.states[:] = t.states
    recall["won_up"][2, FEE1] += 1
    assert not np.array_equal(state_of(recall), base)
    # debt order plays out differently: with $1K cash, [1, 2] pays the 1 at once, [2, 1] nothing
    for table, paid in ((t, 1), (swapped, 0)):
        table["cash"][0] = 0
        earn(table.states[0], 0, 1, 0)
        assert table["debt_len"][0] == 2 - paid


def state_of(t):
    out = np.zeros(t.game.state_size, np.float32)
    written = t.game.core.state_vector(t.states[0], out)
    assert written == t.game.state_size == state_size(t.n)
    return out


# ---------------------------------------------------------------------------- every past round
PAST = LAYOUT["memory_past_rounds"][0]
PAST_ROW = 3 * 6 + 7 * N


def play_round(t, supply=None, bids=None):
    """Play one round: each seat lays its card 0 face-up on its own pile and card 1 face-down on
    the next (``supply[seat]``: (up, pile up, pile down) instead), bids ``bids[seat]`` ((track, $K);
    default 0 on its own track) in the first pass, and then takes its first legal action."""
    start = t["round"]
    while t["round"] == start and not t["game_over"]:
        p = t.actor
        if t["phase"] == SUPPLY:
            action = t.supply_action(*(supply or {}).get(p, (0, p, (p + 1) % N)))
        elif t["phase"] == DEMAND:
            action = t.bid_action(*(bids or {}).get(p, (p, 0)))
        else:
            action = int(np.flatnonzero(t.mask(p))[0])
        t.act(action)


def past_row(obs, r):
    return obs[PAST + r * PAST_ROW : PAST + (r + 1) * PAST_ROW]


def assert_only_the_past_rounds_differ(a, b):
    np.testing.assert_array_equal(a[:PAST], b[:PAST])  # everything the memory held before 2026-12-03
    assert not np.array_equal(a[PAST:], b[PAST:])


def test_who_laid_each_pile_card_once_the_round_is_over():
    """Seat 0 lays Boom! face-up on pile 0 and seat 1 a CC on pile 1, or seat 1 the Boom! and seat 0
    the CC: the same piles, each taken by the same seat. Seat 2 tells them apart a round later."""
    tables = []
    for boom_by in (0, 1):
        t = Table(N, seed=3)
        t["hand"][0] = [BOOM if boom_by == 0 else CC, FEE1]  # the face-down cards stay where they were
        t["hand"][1] = [BOOM if boom_by == 1 else CC, FEE2]
        supply = {boom_by: (0, 0, 2 + boom_by), 1 - boom_by: (0, 1, 3 - boom_by)}
        play_round(t, supply={**supply, 2: (0, 2, 2), 3: (0, 3, 3)})
        play_round(t)
        assert t["round"] == 2
        tables.append(t)
    a, b = (t.observe(2) for t in tables)
    assert_only_the_past_rounds_differ(a, b)
    row = past_row(a, 0)[18:].reshape(N, 7)  # seat 2's view: seat 0 is relative seat 2, seat 1 relative 3
    assert row[2, :3].tolist() == [BOOM + 1, 0 + 1, 2 + 1] and row[3, :3].tolist() == [CC + 1, 1 + 1, 3 + 1]
    assert past_row(b, 0)[18:].reshape(N, 7)[2, 0] == CC + 1


def test_pairs_and_prices_older_than_two_rounds():
    """CC and BB get +1 and +2 in round 0 and the other way round in round 1, or the reverse: the same
    prices after round 1, and the same two rounds after it. Seat 2 sees the difference in round 4."""
    fixed = [LL, AA, SS, EE]
    later = [
        ([PLUS1, PLUS4, DIV, PLUS2], [MINUS3, MINUS2]),
        ([DIV, PLUS1, PLUS2, PLUS4], [MINUS2, MINUS3]),
    ]
    tables = []
    for first, second in ((PLUS1, PLUS2), (PLUS2, PLUS1)):
        t = Table(N, seed=9)
        rounds = [([PLUS4, DIV, MINUS2, MINUS3], [first, second]), ([MINUS3, MINUS2, PLUS4, DIV], [second, first])]
        for others, ours in rounds + later:
            t.to_last_sale()
            t.set_pairs([CC, BB, *fixed], [*ours, *others])
            play_round(t)
        assert t["round"] == 4 and not t["company_events"][:, :2].any()  # no split, no bankruptcy
        tables.append(t)
    a, b = (t.observe(2) for t in tables)
    assert_only_the_past_rounds_differ(a, b)
    cc = past_row(a, 0)[3 * CC : 3 * CC + 3]  # round 0: CC at 6 with +1, seat 0's pair (relative 2)
    assert cc.tolist() == [6, PLUS1 + 1, 1 + 2]
    assert past_row(b, 0)[3 * CC : 3 * CC + 3].tolist() == [7, PLUS2 + 1, 1 + 2]
    assert past_row(a, 1)[3 * BB : 3 * BB + 3].tolist() == [8, PLUS1 + 1, 1 + 3]  # seat 1's pair in round 1
    assert not past_row(a, 4).any()  # round 4 is not over


def test_bid_prices_paid_in_order():
    """Seat 0 pays $6K for its pile in round 0 and $0K in round 1, or $0K then $6K: the same cash,
    the same total paid, the same cards. Seat 2 tells the two apart once both rounds are over."""
    tables = []
    for first, second in ((6, 0), (0, 6)):
        t = Table(N, seed=5)
        play_round(t, bids={0: (0, first)})
        play_round(t, bids={0: (0, second)})
        tables.append(t)
    a, b = (t.observe(2) for t in tables)
    assert_only_the_past_rounds_differ(a, b)
    paid = 18 + 2 * 7 + 4  # seat 0 is seat 2's relative seat 2; the record's "$K paid"
    assert [past_row(a, r)[paid] for r in (0, 1)] == [6, 0]
    assert [past_row(b, r)[paid] for r in (0, 1)] == [0, 6]


def test_every_past_round_is_in_the_memory_and_the_state():
    """After a whole game every round has its row, seen alike by every seat but for the seat order;
    the state holds the rows too."""
    t = Table(3, seed=2, rounds=3)
    while not t["game_over"]:
        play_round(t)
    layout = memory_layout(3, int(obs_size(3)))
    start, size = layout["memory_past_rounds"]
    width = 18 + 7 * 3
    assert size == int(table_rounds(3)) * width == 14 * width
    rows = [t.observe(seat)[start : start + size].reshape(-1, width) for seat in range(3)]
    assert (rows[0][:3, 1:18:3] > 0).all() and not rows[0][3:].any()  # three rounds, each with its pairs
    records = [r[:3, 18:].reshape(3, 3, 7) for r in rows]
    np.testing.assert_array_equal(records[1], np.roll(records[0], -1, axis=1))
    assert (records[0][:, :, 3] > 0).all()  # every seat took a pile every round
    before = state_of(t)
    t["past_rec"][2, 1, 4] += 1
    assert not np.array_equal(state_of(t), before)
