"""The clock of a real-time table: each tick waits for every person ("wait for me"), or passes after a
set number of seconds, the moves not made by then waiting; paused, no tick passes."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

WAIT = "wait"
TIMED = "timed"
MODES = (WAIT, TIMED)
MIN_SECONDS, MAX_SECONDS = 0.2, 600.0


def check_clock(mode: object, seconds: object) -> tuple[str, float]:
    """``(mode, seconds)`` checked, or ValueError naming the bad one."""
    if mode not in MODES:
        raise ValueError(f"clock mode must be one of {list(MODES)}, got {mode!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
        MIN_SECONDS <= seconds <= MAX_SECONDS
    ):
        raise ValueError(f"clock seconds must be a number in {MIN_SECONDS:g}..{MAX_SECONDS:g}, got {seconds!r}")
    return str(mode), float(seconds)


@dataclass
class Clock:
    """When the current tick passes without the people's moves."""

    mode: str = WAIT
    seconds: float = 5.0
    paused: bool = False
    started: float = field(default_factory=lambda: time.monotonic())
    """When the current tick began (``time.monotonic``); moved on by a pause so the tick keeps its time left."""
    paused_at: float | None = None

    def set(self, mode: str, seconds: float, paused: bool) -> None:
        """Change the mode, the tick's length and the pause; a timed tick keeps the time it has run."""
        mode, seconds = check_clock(mode, seconds)
        now = time.monotonic()
        if mode != self.mode:  # a tick that waited so far starts its time now
            self.started = now
            self.paused_at = now if self.paused else None
        if paused and not self.paused:
            self.paused_at = now
        elif self.paused and not paused:
            self.started += now - (self.paused_at or now)
            self.paused_at = None
        self.mode, self.seconds, self.paused = mode, seconds, bool(paused)

    def restart(self) -> None:
        """A new tick begins."""
        self.started = time.monotonic()
        if self.paused:
            self.paused_at = self.started

    def left(self) -> float | None:
        """Seconds until the tick passes without the missing moves; None when it waits for them."""
        if self.mode != TIMED:
            return None
        now = self.paused_at if self.paused else time.monotonic()
        return max(0.0, self.started + self.seconds - now)

    def as_json(self) -> dict:
        left = self.left()
        return {"mode": self.mode, "seconds": self.seconds, "paused": self.paused,
                "left": None if left is None else round(left, 2)}
