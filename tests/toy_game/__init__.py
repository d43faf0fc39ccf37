"""Two Cards, a toy fourth game defined outside the package: a game package plus one registry entry.

Each seat is dealt one hidden card of five; in seat order each seat passes or bets one chip;
then the highest card among the bettors takes the pot (a bettor alone takes back its own chip).
:data:`tests.toy_game.spec.TWO_CARDS` is its one entry in :mod:`stonk_envs.registry`.
"""
