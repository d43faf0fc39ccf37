"""Stockpile behind the shared adapter: a thin caller of the compiled core, plus text."""

from __future__ import annotations

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.core.rewards import reward_mode_code
from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile import core
from stonk_envs.games.stockpile.bounds import observation_bounds
from stonk_envs.games.stockpile.config import StockpileConfig
from stonk_envs.games.stockpile.observe import state_size
from stonk_envs.games.stockpile.state import (
    ACTION,
    BOOM,
    COMPANIES,
    DEMAND,
    DIVIDEND_PHASE,
    FEE_KIND,
    FORECAST_NAMES,
    NUM_COMPANIES,
    PHASE_NAMES,
    SELLING,
    SUPPLY,
)

TICKERS = ("CC", "BB", "LL", "AA", "SS", "EE")
PHASE_OF_BLOCK = (SUPPLY, DEMAND, ACTION, SELLING, DIVIDEND_PHASE, DIVIDEND_PHASE)


def card_name(kind: int) -> str:
    """Short name of a market card kind."""
    if kind < NUM_COMPANIES:
        return TICKERS[kind]
    if kind < BOOM:
        return f"fee${kind - FEE_KIND + 1}K"
    return "Boom!" if kind == BOOM else "Bust!"


class Stockpile(Game):
    """Stockpile: auctions of stockpiles, insider forecasts, splits and bankruptcies (S1-S17)."""

    name = "stockpile"
    simultaneous = False
    core = core

    def __init__(self, config: StockpileConfig):
        super().__init__(config)
        n = self.num_players
        c = config
        self._bases = np.zeros(7, np.int64)
        act.block_bases(n, len(c.bid_values), c.stock_per_company, self._bases)
        self.observation_bounds = observation_bounds(c)
        self.num_actions = int(self._bases[6])
        self.pass_action = int(self._bases[act.BLOCK_SELL] + act.SELL_DONE)
        self.state_size = int(state_size(n))
        self._reward_mode = reward_mode_code(c.reward_mode)
        self._bid_values = np.array(c.bid_values, np.int64)

    def init_args(self):
        c = self.config
        return (
            c.num_players, c.num_rounds, c.starting_cash, c.max_price, c.start_price, c.split_reset, c.split_bonus,
            c.dividend_regular, c.dividend_split, c.majority_bonus, c.majority_tie_bonus, c.action_move,
            c.stock_per_company, c.fee_copies, c.action_copies, self._bid_values, self._reward_mode,
            float(c.reward_scale), c.memory,
        )  # fmt: skip

    def scores(self, states, i):
        n = self.num_players
        return states["cash"][i, :n] - states["debt"][i, :n].sum(axis=1, dtype=np.float64)

    # actions as text ---------------------------------------------------------
    def decode(self, action: int) -> tuple[int, int, int]:
        """``(block, a, b)``: the action's block of :mod:`.actions` and its two parameters."""
        n = self.num_players
        block = int(np.searchsorted(self._bases, action, side="right")) - 1
        i = action - int(self._bases[block])
        if block == act.BLOCK_SUPPLY:
            return block, i // (n * n), i % (n * n)
        if block == act.BLOCK_BID:
            nb = len(self.config.bid_values)
            return block, i // nb, i % nb
        if block == act.BLOCK_PLAY:
            return block, i // NUM_COMPANIES, i % NUM_COMPANIES
        if block == act.BLOCK_SELL:
            return block, i // NUM_COMPANIES, i % NUM_COMPANIES
        return block, i, -1

    def describe_action(self, seat, action):
        n = self.num_players
        block, a, b = self.decode(action)
        if block == act.BLOCK_SUPPLY:
            return f"put hand card {a + 1} face-up on pile {b // n}, the other face-down on pile {b % n}"
        if block == act.BLOCK_BID:
            return f"bid ${self.config.bid_values[b]}K on pile {a}"
        if block == act.BLOCK_PLAY:
            return f"play Stock {'Boom' if a == 0 else 'Bust'}! on {COMPANIES[b]}"
        if block == act.BLOCK_SELL:
            if a == 3:
                return "done selling"
            what = ("sell a regular share of", "sell a split card of", "turn a split card back to regular of")[a]
            return f"{what} {COMPANIES[b]}"
        kind = "regular" if block == act.BLOCK_REVEAL_REGULAR else "split"
        return f"reveal {a} {kind} card(s) for the dividend"

    def name_action(self, states, i, seat, action, public=False):
        n = self.num_players
        s = states[i]
        block, a, b = self.decode(action)
        if block == act.BLOCK_SUPPLY and s["hand"][seat][a] >= 0 and not public:
            up, down = card_name(int(s["hand"][seat][a])), card_name(int(s["hand"][seat][1 - a]))
            return f"put {up} face-up on pile {b // n}, {down} face-down on pile {b % n}"
        if block in (act.BLOCK_REVEAL_REGULAR, act.BLOCK_REVEAL_SPLIT):
            kind = "regular" if block == act.BLOCK_REVEAL_REGULAR else "split"
            return f"reveal {a} {kind} card(s) of {COMPANIES[s['div_company']]} for the dividend"
        return self.describe_action(seat, action)

    def why_illegal(self, states, i, seat, action):
        s = states[i]
        if s["game_over"]:
            return "the game is over"
        phase = int(s["phase"])
        if seat != s["actor"]:
            return f"it is player_{s['actor']}'s decision in the {PHASE_NAMES[phase]} phase"
        block, a, b = self.decode(action)
        if PHASE_OF_BLOCK[block] != phase:
            return f"a {act.BLOCK_NAMES[block]} action is not allowed in the {PHASE_NAMES[phase]} phase"
        if block == act.BLOCK_BID:
            value = self.config.bid_values[b]
            if value > s["cash"][seat]:
                return f"the bid ${value}K is above player_{seat}'s cash ${s['cash'][seat]}K"
            top = self.config.bid_values[s["bid_v"][a]]
            return f"track {a} holds a bid of ${top}K; a new bid there must be higher"
        if block == act.BLOCK_PLAY:
            return f"player_{seat} holds no Stock {'Boom' if a == 0 else 'Bust'}! card to play"
        if block == act.BLOCK_SELL:
            if a == 0:
                return f"player_{seat} holds no regular share of {COMPANIES[b]}"
            return f"player_{seat} holds no split card of {COMPANIES[b]}"
        c = int(s["div_company"])
        if block == act.BLOCK_REVEAL_REGULAR:
            if s["sub"] != 0:
                return "the regular cards have been revealed; now reveal split cards"
            return f"player_{seat} holds {s['regular'][seat][c]} regular card(s) of {COMPANIES[c]}, not {a}"
        if s["sub"] != 1:
            return "reveal regular cards first"
        return f"player_{seat} holds {s['split'][seat][c]} split card(s) of {COMPANIES[c]}, not {a}"

    # board as text -----------------------------------------------------------
    def render(self, states, i, seat):
        s = states[i]
        n = self.num_players
        everything = seat is None
        head = f"Stockpile  round {min(s['round'] + 1, s['rounds'])}/{s['rounds']}  {PHASE_NAMES[s['phase']]} phase"
        if not s["game_over"]:
            head += f"  deciding: player_{s['actor']}"
            if s["phase"] == DIVIDEND_PHASE:
                head += f"  (dividend of {COMPANIES[s['div_company']]})"
        lines = [head]
        lines.append("prices  " + "  ".join(f"{TICKERS[c]} {s['price'][c]:>2}" for c in range(NUM_COMPANIES)))
        lines.append(f"public pair: {self._pair(s, n)}   deck: {s['deck_len']} cards")
        known = [f"{self._pair(s, q)} (player_{q})" for q in range(n) if everything or q == seat or s["pair_shown"][q]]
        known += [
            f"{self._pair(s, j)} (face-down)" for j in range(n + 1, NUM_COMPANIES) if everything or s["pair_shown"][j]
        ]
        if known:
            lines.append("known pairs: " + ", ".join(known))
        for t in range(n):
            if s["pile_len"][t] == 0 and s["bidder"][t] < 0:
                continue
            cards = []
            for j in range(s["pile_len"][t]):
                kind = int(s["pile"][t][j])
                if s["pile_up"][t][j] or everything or s["pile_by"][t][j] == seat:
                    cards.append(card_name(kind) + ("" if s["pile_up"][t][j] else "(down)"))
                else:
                    cards.append("??")
            bidder = int(s["bidder"][t])
            bid = f"bid ${self.config.bid_values[s['bid_v'][t]]}K by player_{bidder}" if bidder >= 0 else "no bid"
            lines.append(f"pile {t}: {' '.join(cards):<40} {bid}")
        for p in range(n):
            debt = int(s["debt"][p].sum())
            row = f"player_{p}{' (you)' if seat == p else ''}: cash ${s['cash'][p]}K"
            if debt:
                row += f"  debt ${debt}K"
            reg = s["regular"][p]
            spl = s["split"][p]
            if everything or seat == p:
                shares = " ".join(f"{TICKERS[c]}{reg[c]}" for c in range(NUM_COMPANIES) if reg[c])
                row += f"  shares {shares or 'none'}"
                hand = [card_name(int(k)) for k in s["hand"][p] if k >= 0]
                if hand:
                    row += "  hand " + " ".join(hand)
                if s["booms"][p] or s["busts"][p]:
                    row += f"  actions {s['booms'][p]} Boom! {s['busts'][p]} Bust!"
            else:
                row += f"  {int(reg.sum())} regular card(s)"
            if spl.sum():
                row += "  split " + " ".join(f"{TICKERS[c]}{spl[c]}" for c in range(NUM_COMPANIES) if spl[c])
            lines.append(row)
        if s["game_over"]:
            worth = ", ".join(f"player_{p} ${v:g}K" for p, v in enumerate(self.scores(states, i)))
            lines.append(f"game over: net worth {worth}")
        return "\n".join(lines)

    @staticmethod
    def _pair(s, i: int) -> str:
        return f"{TICKERS[s['pair_comp'][i]]} {FORECAST_NAMES[s['pair_fc'][i]]}"
