"""Stockpile settings: the defaults are the rules of docs/stockpile.md."""

from __future__ import annotations

from dataclasses import dataclass

from stonk_envs.core.rewards import REWARD_MODES
from stonk_envs.core.validation import (
    check_bool,
    check_choice,
    check_int,
    check_int_sequence,
    check_number,
    check_optional_int,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROUNDS_BY_PLAYERS = {3: 7, 4: 6, 5: 5}
"""Rounds for each player count."""
MAX_BID_VALUES = 16
MAX_STOCK_PER_COMPANY = 15
MAX_FEE_COPIES = 8
MAX_ACTION_COPIES = 8
MAX_ROUNDS = 1000
"""More rounds than any deck can deal (the deck check below is the real limit)."""
MIN_REWARD_SCALE, MAX_REWARD_SCALE = 1e-3, 1e12
"""reward_scale's range: a finite scale whose rewards stay finite in float32."""


@dataclass(frozen=True)
class StockpileConfig:
    """Options of a Stockpile game; every number of the rulings is one of these."""

    num_players: int = 4
    """Players, 3-5."""
    rounds: int | None = None
    """Rounds; None takes the count for the player count (3p 7, 4p 6, 5p 5)."""
    starting_cash: int = 20
    """Cash of each player at the start, $K."""
    max_price: int = 10
    """Top of the price track; stepping above it is a split."""
    start_price: int = 5
    """Every company's starting price, and the price after a bankruptcy."""
    split_reset: int = 6
    """Price a company resets to when it splits."""
    split_bonus: int = 10
    """$K paid per card already in a split portfolio when its company splits again."""
    dividend_regular: int = 2
    """$K per revealed regular card at a dividend."""
    dividend_split: int = 4
    """$K per revealed split card at a dividend."""
    majority_bonus: int = 10
    """$K for a sole majority holder at the end."""
    majority_tie_bonus: int = 5
    """$K for each tied majority holder at the end."""
    action_move: int = 2
    """Price steps of a Stock Boom! (up) or Stock Bust! (down) card."""
    bid_values: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 20, 25)
    """Values of a bidding track, $K, in the track's order: strictly increasing from 0. A
    tuple or list (a list is stored as a tuple); a set is refused, as it has no order."""
    stock_per_company: int = 10
    """Stock cards of each company in the market deck."""
    fee_copies: int = 4
    """Trading fee cards of each value $1K, $2K and $3K."""
    action_copies: int = 4
    """Stock Boom! cards, and as many Stock Bust! cards."""
    reward_mode: str = "win_loss"
    """One of ``win_loss``, ``score_diff``, ``round_diff``, ``round_diff_close`` (see stonk_envs.core.rewards)."""
    reward_scale: float = 100.0
    """$K that count as 1.0 in the ``score_diff``, ``round_diff`` and ``round_diff_close`` modes."""
    memory: bool = True
    """Append the perfect-recall public memory to the observation; False keeps the
    observation without it (the layout before the memory was added)."""

    def __post_init__(self):
        ints = {
            "num_players": (MIN_PLAYERS, MAX_PLAYERS),
            "starting_cash": (0, 10_000),
            "max_price": (1, 100),
            **dict.fromkeys(("split_bonus", "dividend_regular", "dividend_split", "majority_bonus",
                             "majority_tie_bonus"), (0, 1000)),
            "action_move": (1, 10),
            "stock_per_company": (1, MAX_STOCK_PER_COMPANY),
            "fee_copies": (0, MAX_FEE_COPIES),
            "action_copies": (0, MAX_ACTION_COPIES),
        }
        for name, (low, high) in ints.items():
            self._set(name, check_int(name, getattr(self, name), low, high))
        for name in ("start_price", "split_reset"):
            self._set(name, check_int(f"{name} (at most max_price={self.max_price})", getattr(self, name), 1,
                                      self.max_price))
        self._set("rounds", check_optional_int("rounds", self.rounds, 1, MAX_ROUNDS))
        self._set("memory", check_bool("memory", self.memory))
        self._set("reward_mode", check_choice("reward_mode", self.reward_mode, REWARD_MODES))
        self._set("reward_scale", check_number("reward_scale", self.reward_scale, MIN_REWARD_SCALE, MAX_REWARD_SCALE))
        bids = check_int_sequence("bid_values", self.bid_values, 2, MAX_BID_VALUES, 0, 10_000)
        if bids[0] != 0 or any(bids[k + 1] <= bids[k] for k in range(len(bids) - 1)):
            raise ValueError(f"bid_values must start at 0 and strictly increase, got {bids}")
        self._set("bid_values", bids)
        n = self.num_players
        needed = self.num_rounds * 3 * n
        available = self.deck_size - n
        if needed > available:
            raise ValueError(
                f"{self.num_rounds} rounds (rounds={self.rounds}) of {n} players need {needed} market cards, "
                f"but the deck (stock_per_company={self.stock_per_company}, fee_copies={self.fee_copies}, "
                f"action_copies={self.action_copies}) holds {available} after the starting shares"
            )

    def _set(self, name: str, value) -> None:
        object.__setattr__(self, name, value)

    @property
    def num_rounds(self) -> int:
        """The rounds this game lasts (``rounds``, or the count for the player count)."""
        return ROUNDS_BY_PLAYERS[self.num_players] if self.rounds is None else self.rounds

    @property
    def deck_size(self) -> int:
        """Cards in the market deck (80 by default)."""
        return 6 * self.stock_per_company + 3 * self.fee_copies + 2 * self.action_copies
