"""What a Stonk Market hand scores (rulings M5, M6; compiled)."""

from numba import njit

from stonk_envs.games.stonk_market.state import DECK_SIZE, NUM_SUITS, SUIT_TOTALS


@njit(cache=True)
def is_stray(count, suit):
    """``count`` cards of ``suit`` held, but not more than half of the suit: a minority (M5)."""
    return count > 0 and 2 * count <= SUIT_TOTALS[suit]


@njit(cache=True)
def count_strays(hand):
    """The suits of ``hand`` held short of a majority."""
    strays = 0
    for suit in range(NUM_SUITS):
        if is_stray(hand[suit], suit):
            strays += 1
    return strays


@njit(cache=True)
def all_majorities(hand):
    """Every suit in ``hand`` is a majority: more than half of that suit's cards (M5)."""
    return count_strays(hand) == 0


@njit(cache=True)
def hand_score(hand, exchange):
    """The M6 score of one hand, given the Exchange card's suit."""
    score = 0
    for suit in range(NUM_SUITS):
        c = hand[suit]
        if suit == exchange:
            score -= c
        elif c == SUIT_TOTALS[suit]:
            score += 2 * c
        elif 2 * c > SUIT_TOTALS[suit]:
            score += c
    return score


@njit(cache=True)
def round_scores(hands, n, exchange, caller, bonus, out):
    """Write each player's round score (M5, M6) into ``out[:n]``; ``caller`` may be NONE."""
    for p in range(n):
        score = hand_score(hands[p], exchange)
        if p == caller:
            score = score + bonus if all_majorities(hands[p]) else 0
        out[p] = score


@njit(cache=True)
def round_score_bounds(n, bonus):
    """The lowest and highest round score any player can get.

    Lowest: 8 BioHippo or Socktopus Ltd. while the ninth is the Exchange card. Highest: a
    valid call holding every card but the Exchange's suit, whose other cards go to the
    other seats (each keeps at least one card: a deal gives and takes at least one). When
    the other seats outnumber those cards (6 players, a 5-card suit), each extra card they
    need breaks a full suit of T, costing T + 1 (n <= 6 needs at most one).
    """
    best = 0
    for e in range(NUM_SUITS):
        score = 2 * (DECK_SIZE - SUIT_TOTALS[e])
        extra = (n - 1) - (SUIT_TOTALS[e] - 1)
        if extra > 0:
            cheapest = DECK_SIZE
            for suit in range(NUM_SUITS):
                if suit != e:
                    cheapest = min(cheapest, SUIT_TOTALS[suit] + 1)
            score -= extra * cheapest
        best = max(best, score)
    return -(SUIT_TOTALS.max() - 1), best + bonus
