"""Seat holders: one type, and the codes and keys that checkpoints hold for it."""

import numpy as np
import pytest

from stonk_envs.policies.seats import (
    FROZEN,
    LEARNER,
    RANDOM,
    SeatHolder,
    SeatKind,
    built_in_codes,
    is_past,
)


def test_the_codes_are_those_saved_checkpoints_hold():
    assert (LEARNER, RANDOM, FROZEN) == (-1, -2, -4)
    assert SeatHolder(SeatKind.BUILT_IN, 0).code == -3
    assert SeatHolder(SeatKind.BUILT_IN, 2).code == -203
    assert SeatHolder(SeatKind.PAST, 1500).code == 1500
    assert built_in_codes(np.array([0, 1])).tolist() == [-3, -103]
    assert is_past(np.array([-1, 0, 7])).tolist() == [False, True, True]


@pytest.mark.parametrize("holder", [SeatHolder(SeatKind.LEARNER), SeatHolder(SeatKind.RANDOM),
                                    SeatHolder(SeatKind.FROZEN), SeatHolder(SeatKind.BUILT_IN, 3),
                                    SeatHolder(SeatKind.PAST, 0), SeatHolder(SeatKind.PAST, 42)])
def test_every_holder_comes_back_from_its_code(holder):
    assert SeatHolder.from_code(holder.code) == holder


def test_the_sb3_keys_are_those_saved_checkpoints_hold():
    keys = {"current": SeatHolder(SeatKind.LEARNER), "random": SeatHolder(SeatKind.RANDOM),
            "heuristic": SeatHolder(SeatKind.BUILT_IN), "past:300": SeatHolder(SeatKind.PAST, 300)}
    for key, holder in keys.items():
        assert holder.key == key
        assert SeatHolder.from_key(key) == holder


def test_bad_holders_are_refused_by_name():
    with pytest.raises(ValueError, match="no seat holder has code -5"):
        SeatHolder.from_code(-5)
    with pytest.raises(ValueError, match="unknown league member 'past:x'"):
        SeatHolder.from_key("past:x")
    with pytest.raises(ValueError, match="a learner seat holder has no number 3"):
        SeatHolder(SeatKind.LEARNER, 3)
    with pytest.raises(ValueError, match="no key for a frozen seat holder"):
        print(SeatHolder(SeatKind.FROZEN).key)
