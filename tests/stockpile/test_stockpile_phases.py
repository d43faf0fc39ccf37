"""Every phase played out from constructed or scripted positions, with exact numbers."""

import numpy as np
import pytest
from sp_helpers import AA, BB, BOOM, CC, DIV, EE, FEE1, FEE2, FEE3, LL, PLUS1, PLUS4, SS, Table

from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile import state as st
from stonk_envs.games.stockpile.observe import observation_layout


def section(obs, n, name):
    start, size = observation_layout(n)[name]
    return obs[start : start + size]


def seat_company(obs, n, rel_seat, company):
    """The split count and ten memory counts of relative seat ``rel_seat`` for ``company``."""
    rows = section(obs, n, "seat_company").reshape(n, 6, 1 + st.NUM_MEMORY)
    return rows[rel_seat, company]


# ---------------------------------------------------------------------------- supply
def test_supply_placement_face_up_and_face_down():
    t = Table(3)
    t["hand"][0] = [CC, FEE2]
    starters = [int(t["pile"][p][0]) for p in range(3)]
    t.act(t.supply_action(up=1, pile_up=2, pile_down=0))
    assert list(t["pile"][2][:2]) == [starters[2], FEE2]
    assert list(t["pile_up"][2][:2]) == [1, 1]
    assert list(t["pile"][0][:2]) == [starters[0], CC]
    assert list(t["pile_up"][0][:2]) == [1, 0]
    assert list(t["hand"][0]) == [-1, -1]
    assert t.actor == 1
    block = 2 * st.NUM_KINDS + 2 + 3
    mine = section(t.observe(0), 3, "stockpiles").reshape(3, block)
    theirs = section(t.observe(1), 3, "stockpiles").reshape(3, block)
    assert mine[0, st.NUM_KINDS] == theirs[0, st.NUM_KINDS] == 1  # one face-down card on pile 0
    assert mine[0, st.NUM_KINDS + 1 + CC] == 1  # I know it is Cosmic Computers
    assert theirs[0, st.NUM_KINDS + 1 :].sum() == 0  # player 1 does not
    assert mine[2, FEE2] == theirs[2, FEE2] == 1


def test_both_cards_on_the_same_pile():
    t = Table(4)
    t["hand"][0] = [BOOM, SS]
    t.act(t.supply_action(up=0, pile_up=3, pile_down=3))
    assert t["pile_len"][3] == 3
    assert list(t["pile"][3][1:3]) == [BOOM, SS]
    assert list(t["pile_by"][3][:3]) == [-1, 0, 0]


# ---------------------------------------------------------------------------- demand
def finish_supply(t):
    for _ in range(t.n):
        t.act(t.supply_action(0, 0, 0))


def test_rebid_order_when_several_players_outbid_each_other():
    t = Table(4)
    finish_supply(t)
    order = []
    script = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 3), (0, 3), (2, 0), (3, 0)]
    for track, value in script:
        order.append(t.actor)
        t.act(t.bid_action(track, value))
    # The first pass runs 0, 1, 2, 3 although player 0 was outbid by 1 and player 2 by 3.
    # Then: nearest bidless seat after 3 is 0; 0 outbids 3 on track 1; after 0 the nearest
    # bidless seat is 2 (1 holds a bid); 2 outbids 1 on track 0; then 3; then 1.
    assert order == [0, 1, 2, 3, 0, 2, 3, 1]
    # Resolution: p0 paid 3 for pile 1, p2 paid 3 for pile 0, p3 and p1 paid 0.
    assert list(t["ledger"][:4, st.LED_BIDS]) == [3, 0, 3, 0]


def test_first_pass_starts_with_the_first_player():
    t = Table(3)
    t["first"] = 2
    t["actor"] = 2
    placed = []
    for _ in range(3):
        placed.append(t.actor)
        t.act(t.supply_action(0, 0, 0))
    bidders = []
    for track in range(3):
        bidders.append(t.actor)
        t.act(t.bid_action(track, 0))
    assert placed == [2, 0, 1]
    assert bidders == [2, 0, 1]


def test_zero_bid_is_always_available_even_with_no_cash():
    t = Table(3)
    finish_supply(t)
    t["cash"][:3] = [0, 0, 20]
    mask = t.mask(0)
    bids = [a - t.bases[act.BLOCK_BID] for a in np.flatnonzero(mask)]
    assert bids == [0, 8, 16]  # $0 on each of the three empty tracks, nothing else
    t.act(t.bid_action(0, 0))
    bids = [a - t.bases[act.BLOCK_BID] for a in np.flatnonzero(t.mask(1))]
    assert bids == [8, 16]  # track 0 holds $0 and cannot be matched
    t.act(t.bid_action(1, 0))
    # player 2 may outbid on tracks 0 and 1 (but not match $0) or bid anything up to $20K on track 2
    mask = t.mask(2)
    assert mask[t.bid_action(2, 0)] and mask[t.bid_action(2, 20)] and not mask[t.bid_action(2, 25)]
    assert not mask[t.bid_action(0, 0)] and mask[t.bid_action(0, 1)]


def test_bid_above_cash_is_illegal_and_masks_are_zero_for_other_seats():
    t = Table(4)
    finish_supply(t)
    t["cash"][0] = 6
    mask = t.mask(0)
    assert mask[t.bid_action(1, 6)] and not mask[t.bid_action(1, 10)]
    assert not t.mask(1).any() and not t.mask(2).any()


def fee_table():
    """Three players; pile 0 holds fees $3K (up), $1K and $2K (down); player 0 has $2K."""
    t = Table(3)
    t["phase"] = st.DEMAND
    t["hand"] = -1
    t["pile"] = -1
    t["pile_up"] = 0
    t["pile_by"] = -1
    t["pile"][0][:3] = [FEE3, FEE1, FEE2]
    t["pile_up"][0][0] = 1
    t["pile"][1][0] = CC
    t["pile"][2][0] = BB
    t["pile_len"] = [3, 1, 1, 0, 0]
    t.clear_portfolios()
    t["regular"][0][CC] = 2
    t["regular"][0][LL] = 1
    t["price"][CC] = 2
    t["cash"][0] = 2
    return t


def test_unpaid_fees_become_debts_and_are_paid_oldest_first_from_later_income():
    t = fee_table()
    t.set_pairs([LL, CC, BB, AA, SS, EE], [DIV, PLUS1, PLUS1, PLUS1, PLUS1, PLUS1])
    t.act(t.bid_action(0, 1))
    t.act(t.bid_action(1, 0))
    t.act(t.bid_action(2, 0))
    # p0 paid its $1K bid (cash 1); $3K unpaid -> debt; $1K paid (cash 0); $2K unpaid -> debt.
    assert t["cash"][0] == 0
    assert list(t["debt"][0][: t["debt_len"][0]]) == [3, 2]
    assert t["discard"][FEE1] == 1 and t["discard"][FEE3] == 0
    assert t["phase"] == st.SELLING and t.actor == 0
    t.act(t.sell_action(act.SELL_REGULAR, CC))
    # cash 2 covers the $2K debt but not the oldest ($3K): nothing is paid.
    assert t["cash"][0] == 2 and t["debt_len"][0] == 2
    t.act(t.sell_action(act.SELL_REGULAR, CC))
    # cash 4 pays the $3K debt; the $2K one waits (cash 1).
    assert t["cash"][0] == 1
    assert list(t["debt"][0][: t["debt_len"][0]]) == [2]
    assert t["discard"][FEE3] == 1
    t.done()
    t.done()
    t.done()
    # Movement: p0's pair, Leading Laboratories $$, comes first.
    assert t["phase"] == st.DIVIDEND_PHASE and t["div_company"] == LL and t.actor == 0
    t.act(t.reveal_action(1))
    # the $2K dividend brings cash to 3 and pays the last debt.
    assert t["cash"][0] == 1 and t["debt_len"][0] == 0
    assert list(t["ledger"][0]) == [4, 2, 0, 0, 1, 6]  # sales, dividends, -, -, bids, fees
    assert t["discard"][FEE2] == 1


def test_a_new_fee_is_paid_at_once_when_cash_allows_even_with_an_older_debt():
    t = fee_table()
    t["pile"][0][:3] = [FEE2, -1, -1]
    t["pile_len"][0] = 1
    t.set_debts(0, [3])
    t.act(t.bid_action(0, 0))
    t.act(t.bid_action(1, 0))
    t.act(t.bid_action(2, 0))
    assert t["cash"][0] == 0
    assert list(t["debt"][0][: t["debt_len"][0]]) == [3]
    assert t["discard"][FEE2] == 1


def test_debts_and_cash_are_public():
    t = fee_table()
    t.act(t.bid_action(0, 1))
    t.act(t.bid_action(1, 0))
    t.act(t.bid_action(2, 0))
    seats = section(t.observe(2), 3, "seats").reshape(3, 6)
    # from player 2's seat, player 0 is relative seat 1: cash 0, debt $5K in 2 cards
    assert list(seats[1][:3]) == [0, 5, 2]


# ---------------------------------------------------------------------------- action
def action_table():
    t = Table(3)
    t.clear_portfolios()
    t["phase"] = st.ACTION
    t["turn_k"] = 0
    t["actor"] = 0
    t["booms"] = [1, 0, 0, 0, 0]
    t["busts"] = [1, 0, 0, 0, 0]
    return t


def test_stock_boom_causes_a_split():
    t = action_table()
    t["price"][CC] = 9
    t["regular"][1][CC] = 2
    t["split"][1][CC] = 1
    mask = t.mask(0)
    assert mask[t.bases[act.BLOCK_PLAY] : t.bases[act.BLOCK_SELL]].sum() == 12
    t.act(t.play_action(False, CC))
    # 9 -> 10 -> split, reset to 6; the split card already held pays $10K.
    assert t["price"][CC] == 6
    assert t["split"][1][CC] == 3 and t["regular"][1][CC] == 0
    assert t["cash"][1] == 30
    assert t["memory"][1][CC][st.MEM_SPLIT_REVEALED] == 2
    assert t["memory"][0][CC][st.MEM_BOOMS] == 1
    assert t["discard"][BOOM] == 1
    assert t.actor == 0 and t["phase"] == st.ACTION  # the Bust! card is still to play
    mask = t.mask(0)
    assert mask[t.bases[act.BLOCK_PLAY] : t.bases[act.BLOCK_SELL]].sum() == 6


def test_stock_bust_causes_a_bankruptcy():
    t = action_table()
    t["booms"][0] = 0
    t["price"][LL] = 2
    t["regular"][2][LL] = 3
    t["split"][2][LL] = 1
    t["regular"][1][LL] = 1
    t.act(t.play_action(True, LL))
    # 2 -> 1 -> bankrupt: every share is discarded and the price returns to 5.
    assert t["price"][LL] == 5
    assert t["regular"][:3, LL].sum() == 0 and t["split"][:3, LL].sum() == 0
    assert t["discard"][LL] == 5
    assert t["memory"][2][LL][st.MEM_BANKRUPT_LOST] == 4
    assert t["phase"] == st.SELLING and t.actor == 0


def test_action_phase_goes_in_turn_order_and_skips_seats_without_cards():
    t = Table(4)
    t.clear_portfolios()
    t["first"] = 1
    t["phase"] = st.ACTION
    t["booms"] = [1, 0, 0, 2, 0]
    t["busts"] = [0, 0, 0, 0, 0]
    t["turn_k"] = 2
    t["actor"] = 3
    seen = []
    while t["phase"] == st.ACTION:
        seen.append(t.actor)
        t.act(t.play_action(False, SS))
    assert seen == [3, 3, 0]
    assert t["price"][SS] == 6  # 5 -> 7 -> 9 -> 10 -> split, reset to 6
    assert t["phase"] == st.SELLING and t.actor == 1


# ---------------------------------------------------------------------------- selling
def test_selling_regular_split_and_split_to_regular():
    t = Table(3)
    t.clear_portfolios()
    t.to_selling()
    t["price"][AA] = 7
    t["regular"][0][AA] = 1
    t["split"][0][AA] = 2
    mask = t.mask(0)
    sell = t.bases[act.BLOCK_SELL]
    assert [int(a - sell) for a in np.flatnonzero(mask)] == [AA, 6 + AA, 12 + AA, 18]
    t.act(t.sell_action(act.SELL_SPLIT, AA))
    assert t["cash"][0] == 20 + 14
    t.act(t.sell_action(act.UNSPLIT, AA))
    assert t["cash"][0] == 20 + 14 + 7
    assert t["regular"][0][AA] == 2 and t["split"][0][AA] == 0
    t.act(t.sell_action(act.SELL_REGULAR, AA))
    assert t["cash"][0] == 48 and t["regular"][0][AA] == 1
    assert t["discard"][AA] == 2
    memory = seat_company(t.observe(1), 3, 2, AA)  # player 0 seen from player 1
    assert memory[0] == 0  # no split card left
    assert memory[1 + st.MEM_SOLD_SPLIT] == 1 and memory[1 + st.MEM_UNSPLIT] == 1
    assert memory[1 + st.MEM_SOLD_REGULAR] == 1
    assert memory[1 + st.MEM_KNOWN] == 0  # the unsplit card is known, then one regular was sold
    t.done()
    assert t.actor == 1


# ---------------------------------------------------------------------------- movement
def test_split_in_movement_rule_text_example_and_second_split_bonus():
    t = Table(3)
    t.clear_portfolios()
    t.to_last_sale()
    t.set_pairs([EE, CC, BB, LL, AA, SS], [PLUS4, PLUS1, PLUS1, PLUS1, PLUS1, PLUS1])
    t["price"][EE] = 9
    t["regular"][0][EE] = 2
    t["regular"][1][EE] = 1
    t["split"][1][EE] = 1
    t.done()
    # Epic Electric: 9 -> 10 -> split (6) -> 7 -> 8.
    assert list(t["price"]) == [6, 6, 6, 6, 6, 8]
    assert list(t["split"][:3, EE]) == [2, 2, 0] and t["regular"][:3, EE].sum() == 0
    assert list(t["cash"][:3]) == [20, 30, 20]  # $10K for player 1's card already split
    assert t["ledger"][1][st.LED_SPLIT_BONUS] == 10
    assert t["round"] == 1 and t["first"] == 1 and t["phase"] == st.SUPPLY
    seen = seat_company(t.observe(2), 3, 1, EE)  # player 0 as player 2 sees it
    assert seen[0] == 2 and seen[1 + st.MEM_SPLIT_REVEALED] == 2


def test_second_split_pays_10k_per_split_card():
    t = Table(4)
    t.clear_portfolios()
    t.to_last_sale()
    t.set_pairs([BB, CC, LL, AA, SS, EE], [PLUS1] * 6)
    t["price"][BB] = 10
    t["split"][2][BB] = 3
    t["regular"][2][BB] = 1
    t["split"][3][BB] = 1
    t.done()
    assert t["price"][BB] == 6
    assert list(t["split"][:4, BB]) == [0, 0, 4, 1]
    assert list(t["cash"][:4]) == [20, 20, 50, 30]


def test_bankruptcy_mid_movement():
    t = Table(3)
    t.clear_portfolios()
    t.to_last_sale()
    t.set_pairs([SS, CC, BB, LL, AA, EE], [st.FORECAST_MOVES.index(-3), PLUS1, PLUS1, PLUS1, PLUS1, PLUS1])
    t["price"][SS] = 2
    t["regular"][0][SS] = 4
    t["split"][1][SS] = 2
    t.done()
    assert t["price"][SS] == 5
    assert t["regular"][:3, SS].sum() == 0 and t["split"][:3, SS].sum() == 0
    assert t["discard"][SS] == 6


def test_movement_order_private_pairs_in_turn_order_then_public_then_face_down():
    # Each company moves up one step per pair; the $$ pair stops the movement with the pairs
    # before it shown. With first player 2 in a 3-player game the order is pairs 2, 0, 1, 3, 4, 5.
    t = Table(3)
    t.clear_portfolios()
    t["first"] = 2
    t.to_last_sale()
    t.set_pairs([CC, BB, LL, AA, SS, EE], [PLUS1, DIV, PLUS1, PLUS1, PLUS1, PLUS1])
    t.done()
    assert t["phase"] == st.DIVIDEND_PHASE and t["div_company"] == BB
    assert list(t["pair_shown"]) == [1, 1, 1, 0, 0, 0]
    assert list(t["price"]) == [6, 5, 6, 5, 5, 5]
    known = section(t.observe(0), 3, "known_forecasts").reshape(6, 6)
    # player 0 knows its own pair, the public pair (3) and the shown pairs 1 and 2; not 4, 5
    assert known[CC, PLUS1] and known[BB, DIV] and known[LL, PLUS1] and known[AA, PLUS1]
    assert not known[SS].any() and not known[EE].any()


def test_dividend_with_partial_reveals():
    t = Table(3)
    t.clear_portfolios()
    t.to_last_sale()
    t.set_pairs([AA, CC, BB, LL, SS, EE], [DIV, PLUS1, PLUS1, PLUS1, PLUS1, PLUS1])
    t["regular"][0][AA] = 3
    t["split"][0][AA] = 2
    t["regular"][2][AA] = 1
    t.done()
    assert t["phase"] == st.DIVIDEND_PHASE and t.actor == 0 and t["sub"] == 0
    reveal = t.bases[act.BLOCK_REVEAL_REGULAR]
    assert [int(a - reveal) for a in np.flatnonzero(t.mask(0))] == [0, 1, 2, 3]
    t.act(t.reveal_action(1))
    assert t.actor == 0 and t["sub"] == 1
    split = t.bases[act.BLOCK_REVEAL_SPLIT]
    assert [int(a - split) for a in np.flatnonzero(t.mask(0))] == [0, 1, 2]
    t.act(t.reveal_action(2, split=True))
    assert t["cash"][0] == 20 + 2 + 8
    assert t.actor == 1 and t["sub"] == 0
    assert [int(a - reveal) for a in np.flatnonzero(t.mask(1))] == [0]  # a non-holder is asked too
    t.act(t.reveal_action(0))
    assert t.actor == 2  # player 1 holds no split card: no second question
    t.act(t.reveal_action(0))  # player 2 keeps its share hidden
    assert list(t["cash"][:3]) == [30, 20, 20]
    assert t["ledger"][0][st.LED_DIVIDENDS] == 10
    assert t["round"] == 1  # the rest of the movement ran and the next round began
    seen = seat_company(t.observe(1), 3, 2, AA)  # player 0 from player 1's seat
    assert seen[1 + st.MEM_DIV_REGULAR] == 1 and seen[1 + st.MEM_DIV_SPLIT] == 2
    assert seen[1 + st.MEM_KNOWN] == 1


# ---------------------------------------------------------------------------- game end
def test_end_score_with_debts_and_majority_tie():
    t = Table(3)
    t.clear_portfolios()
    t["round"] = t["rounds"] - 1
    t.to_last_sale()
    t.set_pairs([CC, BB, LL, AA, SS, EE], [PLUS1] * 6)
    t["regular"][0][CC] = 2
    t["split"][1][CC] = 1
    t["regular"][2][EE] = 1
    t["cash"][:3] = [10, 0, 3]
    t.set_debts(1, [3])
    assert t.done()
    # prices 6; CC: p0 2 = p1 one split card (2): $5K each; EE: p2 alone, $10K.
    # p0 10 + 5 + 2*6 = 27; p1 0 + 5 + 12 - 3 = 14; p2 3 + 10 + 6 = 19.
    assert list(t.game.scores(t.states, 0)) == [27, 14, 19]
    assert t["debt_len"][1] == 0
    assert list(t.total_rewards) == [1.0, -0.5, -0.5]
    assert t["phase"] == st.OVER and not t.mask(0).any()


def test_unpaid_debt_at_the_end_lowers_net_worth():
    t = Table(3)
    t.clear_portfolios()
    t["round"] = t["rounds"] - 1
    t.to_last_sale()
    t.set_pairs([CC, BB, LL, AA, SS, EE], [PLUS1] * 6)
    t["cash"][:3] = [1, 4, 4]
    t.set_debts(0, [3, 3])
    t.done()
    assert list(t.game.scores(t.states, 0)) == [-5, 4, 4]
    assert list(t.total_rewards) == [-0.5, 0.25, 0.25]  # two tied winners share


@pytest.mark.parametrize(("n", "rounds"), [(3, 7), (4, 6), (5, 5)])
def test_round_counts_and_the_deck_never_runs_out(n, rounds):
    t = Table(n, seed=n)
    rng = np.random.default_rng(n)
    assert t["rounds"] == rounds
    assert t["deck_len"] == 80 - n - 3 * n  # the first round's deal is done at reset
    seen_rounds = set()
    over = False
    while not over:
        seen_rounds.add(int(t["round"]))
        legal = np.flatnonzero(t.mask(t.actor))
        over = t.act(int(rng.choice(legal)))
    assert seen_rounds == set(range(rounds))
    assert t["round"] == rounds
    assert t["deck_len"] == 80 - n - rounds * 3 * n
    assert t["deck_len"] >= 0


def test_score_diff_and_round_diff_rewards():
    totals = {}
    for mode in ("score_diff", "round_diff"):
        t = Table(4, seed=3, reward_mode=mode, reward_scale=50.0)
        rng = np.random.default_rng(3)
        over = False
        while not over:
            over = t.act(int(rng.choice(np.flatnonzero(t.mask(t.actor)))))
        scores = t.game.scores(t.states, 0)
        assert np.allclose(t.total_rewards, (scores - scores.mean()) / 50.0, atol=1e-5)
        totals[mode] = t.total_rewards.copy()
    assert np.allclose(totals["score_diff"], totals["round_diff"], atol=1e-5)


def test_cards_won_face_up_are_public_and_my_face_down_cards_are_remembered():
    t = Table(3)
    t["pile"][:3, 0] = BB
    t["hand"][0] = [CC, AA]
    t.act(t.supply_action(up=0, pile_up=1, pile_down=1))
    t.act(t.supply_action(0, 0, 0))
    t.act(t.supply_action(0, 2, 2))
    before = int(t["regular"][1].sum())
    for track in range(3):
        t.act(t.bid_action(track, 0))  # player p takes pile p
    assert t["regular"][1][CC] >= 1 and t["regular"][1][AA] >= 1
    assert t["memory"][1][BB][st.MEM_KNOWN] == 1 and t["memory"][1][CC][st.MEM_KNOWN] == 1
    assert t["memory"][1][AA][st.MEM_KNOWN] == 0
    seen = seat_company(t.observe(2), 3, 2, CC)  # player 1 from player 2's seat
    assert seen[1 + st.MEM_KNOWN] == 1
    tips = section(t.observe(0), 3, "my_tips").reshape(3, 6)
    assert tips[1, AA] == 1 and tips.sum() == 1
    assert section(t.observe(2), 3, "my_tips")[6:12].sum() == 0
    assert int(t["regular"][1].sum()) == before + 3
