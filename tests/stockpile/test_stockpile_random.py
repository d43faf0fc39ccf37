"""500 random legal games with the invariants checked after every step."""

import numpy as np
import pytest
from sp_helpers import Table

from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile import state as st

GAMES = {3: 167, 4: 167, 5: 166}
COMPOSITION = np.array([10] * 6 + [4] * 3 + [4, 4])
"""Market cards per kind (S5): 10 stock cards per company, 4 of each fee, 4 Boom!, 4 Bust!."""


def card_counts(s, n):
    """Where every market card is, summed per kind."""
    counts = np.zeros(st.NUM_KINDS, np.int64)
    np.add.at(counts, s["deck"][: s["deck_len"]], 1)
    for t in range(n):
        np.add.at(counts, s["pile"][t][: s["pile_len"][t]], 1)
    np.add.at(counts, s["hand"][:n][s["hand"][:n] >= 0], 1)
    counts[:6] += s["regular"][:n].sum(axis=0) + s["split"][:n].sum(axis=0)
    counts[st.BOOM] += s["booms"][:n].sum()
    counts[st.BUST] += s["busts"][:n].sum()
    for p in range(n):
        for amount in s["debt"][p][: s["debt_len"][p]]:
            counts[st.FEE_KIND + amount - 1] += 1
    return counts + s["discard"]


def check_invariants(t, start_cash):
    s = t.states[0]
    n = t.n
    assert (card_counts(s, n) == COMPOSITION).all()
    assert sorted(s["pair_comp"]) == list(range(6)) and sorted(s["pair_fc"]) == list(range(6))
    ledger = s["ledger"][:n].astype(np.int64)
    cash = s["cash"][:n]
    incomes = ledger[:, : st.LED_BIDS].sum(axis=1)
    payments = ledger[:, st.LED_BIDS :].sum(axis=1)
    assert (cash == start_cash + incomes - payments).all()
    assert (cash >= 0).all()
    fee_cards_paid = s["discard"][st.FEE_KIND : st.FEE_KIND + 3]
    assert ledger[:, st.LED_FEES].sum() == fee_cards_paid @ np.array([1, 2, 3])
    for p in range(n):  # a debt is only ever held while cash cannot pay the oldest one
        if s["debt_len"][p]:
            assert cash[p] < s["debt"][p][0]
    assert ((s["price"] >= 1) & (s["price"] <= 10)).all()


def debt_of(s, p):
    return int(s["debt"][p][: s["debt_len"][p]].sum())


def check_decision_money(t, before, actor, action):
    """A sale or a dividend answer changes the actor's cash by its proceeds less the debts it paid."""
    s = t.states[0]
    if s["phase"] != before["phase"] or before["phase"] not in (st.SELLING, st.DIVIDEND_PHASE):
        return
    i = action - int(t.bases[act.BLOCK_SELL])
    if before["phase"] == st.SELLING:
        if i == act.SELL_DONE:
            return
        price = int(before["price"][i % 6])
        proceeds = 2 * price if act.SELL_SPLIT <= i < act.UNSPLIT else price
    elif before["sub"] == 0:
        proceeds = (action - int(t.bases[act.BLOCK_REVEAL_REGULAR])) * t.game.config.dividend_regular
    else:
        proceeds = (action - int(t.bases[act.BLOCK_REVEAL_SPLIT])) * t.game.config.dividend_split
    paid = debt_of(before, actor) - debt_of(s, actor)
    assert paid >= 0
    assert int(s["cash"][actor]) - int(before["cash"][actor]) == proceeds - paid


def perturb_hidden(states, observer, other, rng):
    """Change only what ``observer`` cannot see of ``other`` (and the face-down pairs and deck)."""
    s = states[0]
    n = int(s["n"])
    hand = s["hand"][other]
    hand[hand >= 0] = (hand[hand >= 0] + 1 + rng.integers(10)) % st.NUM_KINDS
    for t in range(n):
        for j in range(s["pile_len"][t]):
            if s["pile_by"][t][j] == other and not s["pile_up"][t][j]:
                s["pile"][t][j] = (s["pile"][t][j] + 1) % st.NUM_KINDS
    regular = s["regular"][other]
    held = np.flatnonzero(regular)
    if held.size:
        c = rng.choice(held)
        regular[c] -= 1
        regular[(c + 1 + rng.integers(5)) % 6] += 1
    s["booms"][other], s["busts"][other] = s["busts"][other], s["booms"][other]
    hidden = [j for j in range(6) if j not in (observer, n) and not s["pair_shown"][j]]
    if other in hidden and len(hidden) > 1:
        j = rng.choice([h for h in hidden if h != other])
        for field in ("pair_comp", "pair_fc"):
            s[field][other], s[field][j] = s[field][j], s[field][other]
    rng.shuffle(s["deck"][: s["deck_len"]])


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(GAMES))
def test_random_games(n):
    rng = np.random.default_rng(100 + n)
    low, high = None, None
    steps_per_game = []
    for g in range(GAMES[n]):
        t = Table(n, seed=1000 * n + g)
        if low is None:
            low, high = t.game.observation_bounds
        start = t.game.config.starting_cash
        over, steps = False, 0
        while not over:
            actor = t.actor
            masks = [t.mask(p) for p in range(n)]
            assert masks[actor].any()
            assert not any(masks[p].any() for p in range(n) if p != actor)
            for p in range(n):
                obs = t.observe(p)
                assert ((obs >= low) & (obs <= high)).all()
            observer = int(rng.integers(n))
            other = int((observer + 1 + rng.integers(n - 1)) % n)
            seen = t.observe(observer)
            changed = t.states.copy()
            perturb_hidden(changed, observer, other, rng)
            out = np.zeros_like(seen)
            t.game.observe(changed, 0, observer, out)
            assert (out == seen).all(), f"seat {other}'s hidden cards leak to seat {observer}"
            mask = np.zeros_like(masks[0])
            t.game.legal_mask(changed, 0, observer, mask)
            assert (mask == masks[observer]).all()
            before = t.states[0].copy()
            action = int(rng.choice(np.flatnonzero(masks[actor])))
            over = t.act(action)
            check_decision_money(t, before, actor, action)
            assert abs(float(t.rewards.sum())) < 1e-5
            check_invariants(t, start)
            steps += 1
            assert steps < 2000
        assert t["round"] == t["rounds"] and t["phase"] == st.OVER
        scores = t.game.scores(t.states, 0)
        winners = scores == scores.max()
        assert t.total_rewards[winners].min() >= 0 > (t.total_rewards[~winners].max() if (~winners).any() else -1)
        steps_per_game.append(steps)
    # each round has at least n placements, n bids, n DONEs and n dividend answers
    assert min(steps_per_game) >= 4 * n * t["rounds"]
