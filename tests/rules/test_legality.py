"""Legality is generated, not tried: every order kind has a check phase, and `is_legal` agrees with `apply`.

DESIGN 3: "`battle.is_legal(order)` (a check phase apart from resolution, microseconds, never copying the
battle)" and "`battle.legal_orders(unit)` (generated from the check phases, not found by trying)".
"""

from __future__ import annotations

import dataclasses
import random
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError, RulesetError
from rules.orders import AddUnit, Order, Start
from rules.system import HandlerTable, System, register, registered
from rules.systems import install
from rules.systems.strategic.featuretable import features_of
from rules.turnorders import SetTurnMode
from rules.units import Unit

install()

W, H = 6, 6
RIFLE = {"name": "Rifle", "range": 60, "damage": "1d10+2", "type": "E"}
KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}
CA_GUNS = [{"name": "Rifle", "class": "rifle", "pen": 2}, {"name": "Frag", "class": "grenades", "pen": 3}]


def _order(battle: Battle, order: Order) -> None:
    battle.apply(order, Dice(random.Random(0)))


def _strategic(ruleset: str) -> Battle:
    b = Battle.new(ruleset, W, H)
    for name, side, at, extra in (("Ace", "Red", "A1", {"wounds": 14}), ("Mob", "Red", "B1", {"kind": "horde", "magnitude": 20}),
                                  ("Foe", "Blue", "F6", {"wounds": 14}), ("Near", "Blue", "B2", {"wounds": 14})):
        stats = {"ag": 40, "bs": 45, "ws": 45, "s": 40, "t": 30, "weapons": [RIFLE, KNIFE], **extra}
        _order(b, AddUnit(name=name, side=side, at=Cell.parse(at), owner=1, stats=stats))
    return b


def _combat_action() -> Battle:
    b = Battle.new("combat-action", W, H)
    for name, side, at, kind in (("A", "Red", "A1", "infantry"), ("T", "Red", "B1", "vehicle"),
                                 ("B", "Blue", "F6", "infantry"), ("R", "Blue", "E6", "robot")):
        _order(b, AddUnit(name, side, Cell.parse(at), 1, {"kind": kind, "ss": 4, "pf": 3, "mv": 15,
                                                         "weapons": CA_GUNS}))
    return b


def _m42() -> Battle:
    b = Battle.new("m42", 12, 12)
    for name, side, at in (("Red1", "Red", "B2"), ("Red2", "Red", "B9"), ("Blue1", "Blue", "J10")):
        _order(b, AddUnit(name=name, side=side, at=Cell.parse(at), stats={"ld": 3, "models": 3}))
    return b


def _surface() -> Battle:
    b = Battle.new("surface", 1, 1)
    for name, side, kind in (("Grunts", "Terran", "grunts"), ("Bugs", "Arachnid", "warriors")):
        try:
            _order(b, AddUnit(name, side, Cell(0, 0), None, {"type": kind}))
        except GameError:
            _order(b, AddUnit(name, side, Cell(0, 0), None, {"type": "grunts"}))
    return b


BUILDERS: dict[str, Callable[[], Battle]] = {
    "strategic-e": lambda: _strategic("strategic-e"), "strategic-p": lambda: _strategic("strategic-p"),
    "combat-action": _combat_action, "m42": _m42, "surface": _surface,
}


def _start(b: Battle, mode: str) -> None:
    if b.system.plays("set-turn-mode"):
        _order(b, SetTurnMode(mode=mode))
    _order(b, Start())


# --- random orders of every kind ------------------------------------------------------------------------------

WORDS = ("half", "full", "run", "charge", "walk", "advance", "assault", "standard", "open", "close", "hide",
         "jump", "pilot", "ag", "ws", "bs", "dodge", "stealth", "s", "hold", "forest", "water", "urban",
         "building", "open-ground", "bunker", "minefield", "bakelite_trap", "wall", "bogus", "", "Red", "Blue",
         "Rifle", "Knife", "Frag", "bridge", "head", "body", "initiative", "side", "free", "none")
TEXTS = ("hold", "none", "move to:B2", "attack weapon:Rifle target:Foe", "bogus order", "", "{}",
         '{"ruleset": "surface", "forces": {"Terran": [{"name": "New", "type": "grunts"}]}}',
         "[[terrain]]\nkey = 'x'\n", "width = 2\nheight = 2\nterrain = ['..', '..']\n")
DICE_TEXT = ("2d6", "d100", "1d10+3", "3d", "1d0", "bogus")
STAT_KEYS = ("ag", "wounds", "mv", "pf", "ld", "models", "name", "side", "owner", "type", "damage", "bogus",
             "statuses", "add_status", "actions", "accuracy", "magnitude")


def _cells(b: Battle) -> st.SearchStrategy[Cell]:
    # Squares on the map and a rim just off it (Cell has no negative coordinates).
    return st.builds(Cell, st.integers(0, b.width + 1), st.integers(0, b.height + 1))


def _names(b: Battle) -> st.SearchStrategy[str]:
    return st.sampled_from([u.name for u in b.iter_units()] + ["Nobody", ""])


def _text_for(b: Battle, name: str) -> st.SearchStrategy[str]:
    """Return values a string field of this name takes: the battle's own names and words, some wrong."""
    if name in ("unit", "target", "vehicle"):
        return _names(b)
    if name == "side":
        return st.sampled_from([s.name for s in b.sides] + ["Green", ""])
    if name == "weapon":
        weapons = {w.name for u in b.iter_units() for w in getattr(u, "weapons", ())}
        return st.sampled_from([*sorted(weapons), "Nothing", ""])
    if name in ("mode", "action"):
        return st.one_of(st.sampled_from(b.ruleset.move_modes), st.sampled_from(WORDS))
    if name == "terrain":
        return st.sampled_from([*sorted(b.ruleset.terrain), "lava"])
    if name == "feature":
        return st.sampled_from([*sorted(features_of(b.ruleset)), "castle"])
    if name == "key":
        return st.sampled_from([*sorted(b.ruleset.constants)[:12], "bogus"])
    if name == "value":
        return st.sampled_from(["0", "1", "3", "10", "200", "-5", "true", "x"])
    if name == "dice":
        return st.sampled_from(DICE_TEXT)
    if name in ("text", "forces"):
        return st.sampled_from(TEXTS)
    if name == "models":
        return st.sampled_from(["", "B3", "C2,C3", "A1,A1", "Z99", "bogus"])
    if name == "edges":
        return st.sampled_from(["B2|B3", "B2:n", "A1-C1:s", "bogus", ""])
    if name in ("height", "thickness", "opening"):
        return st.sampled_from(["1", "2.5", "0", "x"])
    if name == "obstacle":
        return st.sampled_from(["wall", "hedge", "door", "bogus"])
    return st.sampled_from(WORDS)


def _strategy(b: Battle, name: str, hint: Any, default: Any) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return st.one_of(st.none(), _strategy(b, name, inner[0], MISSING))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.one_of(st.integers(-3, 12), st.sampled_from([-1000, 100, 5000]))
    if hint is str:
        return _text_for(b, name)
    if hint is Cell:
        return _cells(b)
    if origin is tuple:
        inner_hint = typing.get_args(hint)[0]
        return st.lists(_cells(b) if inner_hint is Cell else _names(b), max_size=3).map(tuple)
    if origin is dict or hint is dict:
        values = st.one_of(st.integers(-5, 60), st.sampled_from(["x", "Red", "Green", "grunts", "pinned"]))
        return st.dictionaries(st.sampled_from(STAT_KEYS), values, max_size=3)
    raise AssertionError(f"no strategy for the field `{name}` of type {hint!r}: add one so the kind is covered")


def _fields(b: Battle, cls: type[Order]) -> dict[str, st.SearchStrategy[Any]]:
    hints = typing.get_type_hints(cls)
    return {f.name: _strategy(b, f.name, hints[f.name], f.default) for f in fields(cls)}


def _near(b: Battle, order: Order) -> st.SearchStrategy[Order]:
    """Return a generated order as it is, or with one of its fields drawn at random (often out of range)."""
    parts = _fields(b, type(order))
    if not parts:
        return st.just(order)
    return st.one_of(st.just(order), st.sampled_from(sorted(parts)).flatmap(
        lambda name: parts[name].map(lambda value: dataclasses.replace(order, **{name: value}))))


def _orders(b: Battle) -> st.SearchStrategy[Order]:
    """Return random orders of every kind the battle's system plays, fields in and out of range, and the orders
    legal_orders generates, as they are or with a field changed."""
    choices = []
    for kind, cls in sorted(b.system.orders.items()):
        if b.system.plays(kind):
            choices.append(st.fixed_dictionaries(_fields(b, cls)).map(lambda kw, cls=cls: cls(**kw)))
    generated = [o for u in b.iter_units() for o in b.legal_orders(u)]
    randoms = st.one_of(choices)
    if not generated:
        return randoms
    near = st.sampled_from(generated).flatmap(lambda o: _near(b, o))
    # A choice of two first: one_of would flatten the kinds' branches and draw a generated order once in forty.
    return st.booleans().flatmap(lambda pick: near if pick else randoms)


def _applies(b: Battle, order: Order, seed: int) -> bool:
    trial = Battle.from_dict(b.to_dict())
    try:
        trial.apply(order, Dice(random.Random(seed)))
    except GameError:
        return False
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ruleset=st.sampled_from(sorted(BUILDERS)), started=st.booleans(), mode=st.sampled_from(["free", "initiative"]),
       warmup=st.lists(st.integers(0, 10_000), max_size=4), data=st.data())
def test_is_legal_says_whether_apply_succeeds(ruleset: str, started: bool, mode: str, warmup: list[int],
                                              data: st.DataObject) -> None:
    """DESIGN 3: is_legal is the check phase apart from resolution; for any order of any kind, in and out of
    range, `is_legal(o)` holds exactly when `apply(o)` succeeds (applied on a copy), and it changes nothing."""
    b = BUILDERS[ruleset]()
    if started:
        _start(b, mode)
        for pick in warmup:  # some state: units that moved, shot, ended their turns
            units = [u for u in b.iter_units() if u.alive]
            legal = [o for u in units for o in b.legal_orders(u)]
            if legal:
                try:
                    b.apply(legal[pick % len(legal)], Dice(random.Random(pick)))
                except GameError:
                    pass
    for _ in range(6):
        order = data.draw(_orders(b))
        seed = data.draw(st.integers(0, 1000))
        before = b.to_dict()
        legal = b.is_legal(order)
        assert b.to_dict() == before, f"is_legal changed the battle: {order}"
        assert legal == _applies(b, order, seed), f"is_legal said {legal} for `{order}` in {ruleset}"


# --- every kind has a check ----------------------------------------------------------------------------------


@pytest.mark.parametrize("system", registered(), ids=lambda s: s.id)
def test_every_registered_kind_has_a_check(system: System) -> None:
    """DESIGN 3: every order kind of every system has a check phase apart from its resolution."""
    assert system.handlers.kinds, "a system plays some orders"
    missing = [k for k in sorted(system.handlers.kinds) if system.handlers.check(k) is None]
    assert missing == []


def test_a_system_with_a_kind_unchecked_cannot_be_registered() -> None:
    """A kind without a check would leave `is_legal` to try the order; registering such a system is refused."""
    table = HandlerTable()

    @table.handles("probe")
    def probe(battle: Any, order: Any, dice: Any, outcome: Any) -> None:
        """Stand for a handler whose check was forgotten."""

    system = System(id="probe", name="Probe", package="rules.systems.strategic", ruleset_ids=("probe-1",),
                    handlers=table, unit_type=Unit, legal_orders=lambda b, u: iter(()))
    with pytest.raises(RulesetError, match="no check phase for probe"):
        register(system)
    assert all(s.id != "probe" for s in registered())


# --- no copy, no serialisation ---------------------------------------------------------------------------------

COPYING = {"to_dict", "from_dict", "deepcopy", "_restore", "dumps", "loads"}


def _called_during(fn: Callable[[], object]) -> set[str]:
    """Return the names of the Python functions called while fn runs (a profiler hook sees every call)."""
    seen: set[str] = set()

    def hook(frame: types.FrameType, event: str, arg: object) -> None:
        if event == "call":
            seen.add(frame.f_code.co_name)

    sys.setprofile(hook)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("ruleset", sorted(BUILDERS))
def test_is_legal_and_legal_orders_never_copy_the_battle(ruleset: str) -> None:
    """DESIGN 3: is_legal never copies or serialises the battle, and legal_orders is generated, not tried."""
    b = BUILDERS[ruleset]()
    _start(b, "free")
    orders = [o for u in b.iter_units() for o in b.legal_orders(u)]
    probes = orders or [b.parse_order("end")]
    called = _called_during(lambda: [b.is_legal(o) for o in probes])
    called |= _called_during(lambda: [b.legal_orders(u) for u in b.iter_units()])
    assert not called & COPYING, sorted(called & COPYING)
    assert all(b.is_legal(o) for o in orders)
