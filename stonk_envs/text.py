"""Text from files, shown as text: control characters become visible escapes, never terminal commands.

A player name in a game record, or a policy file's name, may hold ``\\x1b[2J`` (clear the
screen), an OSC sequence (set the window title) or a right-to-left override. :func:`printable`
writes each such character as a Python escape (``\\x1b``, ``\\u202e``), so a terminal shows it
and does nothing. The HTML export escapes its text separately (``html.escape``).
"""

from __future__ import annotations

import unicodedata

UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories shown as escapes: controls, format characters (bidi overrides), surrogates,
private-use, unassigned, and line and paragraph separators."""


def printable(text: object) -> str:
    """``str(text)`` with every character of :data:`UNPRINTABLE` categories written as its escape."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in UNPRINTABLE else ch
        for ch in str(text)
    )
