"""The codec's last guard: a number past 64 bits is refused with a message a user can read, never a crash."""

from __future__ import annotations

import pytest

from rules.errors import GameError
from storage.codec import decode, encode


def test_a_number_past_64_bits_is_refused_as_a_game_error() -> None:
    with pytest.raises(GameError, match="larger than a battle can store"):
        encode({"units": [{"owner": 10**25}]})
    assert decode(encode({"owner": 2**63 - 1})) == {"owner": 2**63 - 1}
