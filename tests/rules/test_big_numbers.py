"""Numbers past what storage holds are refused where they enter, with a message, never crashing the save.

The stored state is JSON of 64-bit whole numbers; a user id, stat or order field of 10^25 once reached the
storage codec and crashed it. Each entry point below either refuses such a number with a GameError or
yields a battle the codec stores.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.unit.stats_text import parse_stats
from rules.battle import Battle
from rules.errors import GameError
from rules.filelimits import MAX_WHOLE
from rules.orders import Order, SetRule
from rules.systems.strategic.actions.gm import GmSet
from rules.systems.surface.orders import ImportForces
from storage.codec import encode
from tests.rules.conftest import add, dice

big = st.one_of(st.integers(min_value=MAX_WHOLE + 1, max_value=10**40), st.integers(max_value=-MAX_WHOLE - 1,
                min_value=-(10**40)), st.integers(min_value=-(2**70), max_value=2**70))
SETTINGS = settings(deadline=None, max_examples=40, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def strategic() -> Battle[Any]:
    b = Battle.new("strategic-p", 20, 15, "GM")
    add(b, "Alpha", "Blue", "C3", ag=45)
    return b


def stored_or_refused(b: Battle[Any], apply: Any) -> None:
    """Apply a change: a refusal is fine; an accepted change must leave a battle the codec stores."""
    try:
        apply()
    except GameError as exc:
        assert exc.message.strip() and len(exc.message) < 600, exc.message
        return
    encode(b.to_dict())


def test_an_owner_of_twenty_two_digits_is_refused() -> None:
    b = strategic()
    before = b.unit("Alpha").owner
    with pytest.raises(GameError, match="`owner` must be a whole number from 1 to"):
        b.apply(GmSet(target="Alpha", changes={"owner": "9999999999999999999999"}), dice())
    assert b.unit("Alpha").owner == before
    encode(b.to_dict())


def test_a_forces_file_with_an_owner_of_ten_to_the_twenty_five() -> None:
    doc = {"ruleset": "surface", "forces": {"Red": [{"name": "Hammer", "owner": 10**25, "stats": {"type": "grunts"}}]}}
    b = Battle.new("surface", 1, 1, "Test")
    with pytest.raises(GameError, match=r"At `forces.Red\[0\].owner`: the file holds the number `10000000000000"):
        b.apply(ImportForces(forces=json.dumps(doc)), dice())
    assert list(b.iter_units()) == []


@SETTINGS
@given(big, st.sampled_from(["owner", "ag", "wounds", "armour.head", "skills.dodge", "actions"]))
def test_gm_set_of_any_number_is_refused_or_stored(number: int, field: str) -> None:
    b = strategic()
    stored_or_refused(b, lambda: b.apply(GmSet(target="Alpha", changes={field: str(number)}), dice()))
    b = strategic()
    stored_or_refused(b, lambda: b.apply(GmSet(target="Alpha", changes={field: number}), dice()))


@SETTINGS
@given(big)
def test_a_forces_owner_or_rating_of_any_number_is_refused_or_stored(number: int) -> None:
    for row in ({"name": "Hammer", "owner": number, "stats": {"type": "grunts"}},
                {"name": "Hammer", "owner": None, "stats": {"type": "grunts", "accuracy": number}}):
        b = Battle.new("surface", 1, 1, "Test")
        order = ImportForces(forces=json.dumps({"ruleset": "surface", "forces": {"Red": [row]}}))
        stored_or_refused(b, functools.partial(b.apply, order, dice()))


@SETTINGS
@given(big)
def test_typed_stats_order_fields_and_rule_values_of_any_number(number: int) -> None:
    try:
        typed = parse_stats(f"wounds={number} ag={number}")
    except GameError:
        typed = {}
    b = strategic()
    stored_or_refused(b, lambda: b.apply(GmSet(target="Alpha", changes=typed), dice()) if typed else None)
    b = strategic()
    stored_or_refused(b, lambda: b.apply(Order.parse(f"test unit:Alpha stat:ag modifier:{number}"), dice()))
    b = strategic()
    stored_or_refused(b, lambda: b.apply(SetRule(key="fp_per_ib", value=str(number)), dice()))


@pytest.mark.parametrize("text", ["--5", "+-5", "5e3", "٣", "9" * 5_000, "", "-"])
def test_whole_numbers_typed_are_read_strictly(text: str) -> None:
    from rules.filelimits import whole

    with pytest.raises(GameError, match="must be a whole number from"):
        whole(text, "modifier")
    assert whole(" -12 ", "modifier") == -12 and whole("+7", "modifier") == 7
