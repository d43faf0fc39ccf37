"""A clean stop on SIGINT/SIGTERM, shared by both trainers' runs."""

from __future__ import annotations

import contextlib
import signal


class StopRequested(Exception):
    """Raised at a rollout boundary after a stop signal, once the checkpoint is written."""


@contextlib.contextmanager
def stop_on_signals(run):
    """While training, the first SIGINT/SIGTERM sets ``run.stop_requested``; a second one interrupts.

    ``run`` has a ``stop_requested`` flag and a progress ``bar`` to write the notice to.
    """

    def handler(signum, frame):
        if run.stop_requested:
            raise KeyboardInterrupt
        run.stop_requested = True
        run.bar.write("stopping at the end of this rollout (signal again to stop at once)")

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
