"""The clock of a real-time table: a timed tick's time left, kept through a pause, started anew by a change of
mode; bad settings named."""

import pytest

from stonk_envs.serve import clock as clock_module
from stonk_envs.serve.clock import Clock


@pytest.fixture
def now(monkeypatch):
    """A settable ``time.monotonic`` for the clock: ``now[0]`` seconds."""
    moment = [100.0]
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: moment[0])
    return moment


def test_a_timed_tick_keeps_its_time_left_through_a_pause(now):
    clock = Clock("timed", 5.0)
    now[0] += 2
    assert clock.left() == 3.0
    clock.set("timed", 5.0, paused=True)
    now[0] += 60
    assert clock.left() == 3.0 and clock.as_json() == {"mode": "timed", "seconds": 5.0, "paused": True, "left": 3.0}
    clock.set("timed", 5.0, paused=False)
    now[0] += 1
    assert clock.left() == 2.0
    clock.restart()
    assert clock.left() == 5.0


def test_waiting_has_no_time_left_and_a_switch_to_timed_starts_the_tick(now):
    clock = Clock()
    now[0] += 30
    assert clock.left() is None and clock.as_json()["left"] is None
    clock.set("timed", 4.0, paused=False)
    assert clock.left() == 4.0


@pytest.mark.parametrize(("mode", "seconds", "message"), [
    ("soon", 1, "clock mode must be one of ['wait', 'timed'], got 'soon'"),
    ("timed", 0.1, "clock seconds must be a number in 0.2..600, got 0.1"),
    ("timed", True, "clock seconds must be a number in 0.2..600, got True"),
    ("timed", "5", "clock seconds must be a number in 0.2..600, got '5'"),
])
def test_bad_settings_are_named(mode, seconds, message):
    with pytest.raises(ValueError) as caught:
        Clock().set(mode, seconds, False)
    assert str(caught.value) == message
