"""Battle state and outcomes are typed all the way down: no `Any` in any field, and JSON only where declared.

The check walks the annotations of every dataclass a battle or an outcome holds (the battle, its sides and
last action, each system's units, squares, turn state, the outcome with its highlight, every effect and
test kind each system registers) and every dataclass those fields name, recursively.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, ForwardRef, TypeVar

from rules.battle import Battle, LastAction, Side
from rules.core_details import CORE_DETAILS
from rules.core_effects import CORE_EFFECTS
from rules.details import StoredDetails, TurnNotes
from rules.effects import StoredEffect
from rules.outcome import Highlight, Mark, Outcome
from rules.rolltests import CORE_TESTS, StoredTest, Tally
from rules.squares import Square
from rules.stored import JSON
from rules.system import registered
from rules.systems import install
from rules.systems.surface.state import SurfaceState
from rules.turnstate import TurnState

install()

# Fields that hold stored JSON by design, and why they are not typed further.
STORED_BY_DESIGN = {
    "rules.battle.Battle.homebrew": "a homebrew file's checked rows, re-checked against the ruleset on every load",
    "rules.battle.Battle._history": "undo snapshots: whole saved battles",
    "rules.battle.Battle._brewed": "the homebrew rows the merged ruleset was built from",
    "rules.effects.StoredEffect.details": "an effect stored in a shape this version no longer records",
    "rules.rolltests.StoredTest.details": "a test stored in a shape this version no longer records",
    "rules.details.StoredDetails.stored": "an order's details stored in a shape this version does not read",
    "rules.systems.strategic.details.Change.old": "a stat block field's stored value before the GM set it",
    "rules.systems.strategic.details.Change.new": "a stat block field's stored value after the GM set it",
    "rules.systems.strategic.effects.Destroyed.last": "the destroyed unit's saved form, for the log",
    "rules.turnstate.TurnState.systems": "a rule system's own turn document, read through its own accessors",
    "rules.systems.surface.state.SurfaceState.unread_report": "a kept report in a shape this version does not read",
}
# Still a free-form dict; listed so the list can only shrink (typing it makes this test ask to drop it).
NOT_YET_TYPED: set[str] = set()


@dataclass
class Findings:
    """What a walk found: fields with `Any` in their type, and fields holding JSON documents."""

    untyped: set[str] = field(default_factory=set)
    stored: set[str] = field(default_factory=set)


def _is_json_ref(tp: object) -> bool:
    return isinstance(tp, ForwardRef) and tp.__forward_arg__ == "JSON"


def _walk_type(tp: object, where: str, found: Findings, seen: set[type]) -> None:
    if tp is Any:
        found.untyped.add(where)
        return
    if _is_json_ref(tp):
        found.stored.add(where)
        return
    if isinstance(tp, TypeVar):
        if tp.__bound__ is not None:
            _walk_type(tp.__bound__, where, found, seen)
        return
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        walk(tp, found, seen)
        return
    for arg in typing.get_args(tp):
        if arg is not Ellipsis:
            _walk_type(arg, where, found, seen)


def walk(cls: type, found: Findings | None = None, seen: set[type] | None = None) -> Findings:
    """Walk a dataclass's fields, and the dataclasses they name, collecting untyped and JSON fields."""
    found = found if found is not None else Findings()
    seen = seen if seen is not None else set()
    if cls in seen:
        return found
    seen.add(cls)
    hints = typing.get_type_hints(cls, localns={"JSON": JSON})
    for f in dataclasses.fields(cls):
        _walk_type(hints[f.name], f"{cls.__module__}.{cls.__qualname__}.{f.name}", found, seen)
    return found


def roots() -> list[type]:
    """Return the dataclasses of battle state and outcomes, every system's units, effects and tests."""
    out: list[type] = [Battle, Side, LastAction, Square, TurnState, Outcome, Highlight, Mark, Tally, StoredEffect,
                       StoredTest, StoredDetails, TurnNotes, *CORE_EFFECTS.values(), *CORE_TESTS.values(),
                       *CORE_DETAILS.values()]
    for system in registered():
        out += [system.unit_type, *system.effect_kinds.values(), *system.test_kinds.values(),
                *system.detail_kinds.values()]
    # A system's own turn document (TurnState.systems) is read through that system's typed state.
    out.append(SurfaceState)
    return out


def test_every_system_is_walked() -> None:
    ids = {s.id for s in registered()}
    assert {"strategic", "combat_action", "surface", "m42"} <= ids
    walked = roots()
    assert all(s.unit_type in walked for s in registered())
    assert len({c for c in walked if getattr(c, "KIND", "")}) > 100  # every effect and test kind
    assert all(cls in walked for s in registered() for cls in s.details.values())  # every order's details


def test_no_field_of_battle_state_or_outcomes_is_any() -> None:
    found = Findings()
    seen: set[type] = set()
    for cls in roots():
        walk(cls, found, seen)
    new = sorted(found.untyped - NOT_YET_TYPED)
    assert not new, "fields typed with Any (give them a dataclass or a precise alias): " + ", ".join(new)
    done = sorted(NOT_YET_TYPED - found.untyped)
    assert not done, "typed now, drop from NOT_YET_TYPED: " + ", ".join(done)
    undeclared = sorted(found.stored - set(STORED_BY_DESIGN))
    assert not undeclared, "fields holding JSON documents that are not declared stored forms: " + ", ".join(undeclared)
    assert set(STORED_BY_DESIGN) <= found.stored, sorted(set(STORED_BY_DESIGN) - found.stored)


# --- the check catches what it should: throwaway classes ----------------------------------------


@dataclass
class _Inner:
    ok: int
    loose: tuple[str, Any]


@dataclass
class _LeakyBattle(Battle[Any]):
    foo: dict[str, Any] = field(default_factory=dict)
    bar: Any = None
    nested: list[_Inner] = field(default_factory=list)
    doc: dict[str, JSON] = field(default_factory=dict)


def test_the_check_finds_an_any_dict_added_to_battle_and_any_nested_deeper() -> None:
    found = walk(_LeakyBattle)
    here = f"{__name__}."
    assert {f"{here}_LeakyBattle.foo", f"{here}_LeakyBattle.bar", f"{here}_Inner.loose"} <= found.untyped
    assert f"{here}_Inner.ok" not in found.untyped
    # What the battle itself carries is found through the subclass too, and nothing more.
    assert found.untyped - {f"{here}_LeakyBattle.foo", f"{here}_LeakyBattle.bar", f"{here}_Inner.loose"} == set()
    assert f"{here}_LeakyBattle.doc" in found.stored and f"{here}_LeakyBattle.doc" not in STORED_BY_DESIGN


def test_the_real_battle_has_no_untyped_field() -> None:
    assert walk(Battle).untyped == set()
