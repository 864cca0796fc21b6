"""The core's shared tables: turn orders and lifecycle handlers every system plays, order kinds per system."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from rules import lifecycle, turnorders, turns
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import IllegalOrderError, InvalidOrderError, RulesetError
from rules.orders import AddUnit, EditUnit, Order, Paint, RemoveUnit, SetRule, Start
from rules.system import HandlerTable, System
from rules.systems.combat_action import SYSTEM as COMBAT_ACTION
from rules.systems.combat_action.actions.play import Aim as CaAim
from rules.systems.strategic import SYSTEM as STRATEGIC
from rules.systems.strategic.actions.other import Aim as StrategicAim
from rules.systems.surface import SYSTEM as SURFACE
from rules.units import Unit


def dice(*faces: int) -> Dice:
    """Return dice that show these faces first, then roll from a fixed seed."""
    return Dice(random.Random(0), scripted=list(faces))


def combat_battle(mode: str = "initiative") -> Battle[Any]:
    """Return a started combat-action battle of two infantry models."""
    b = Battle.new("combat-action", 10, 10)
    for name, side, at in (("A", "Red", "A1"), ("B", "Blue", "A5")):
        b.apply(AddUnit(name, side, Cell.parse(at), owner=1, stats={"kind": "infantry", "ss": 4, "mv": 10}), dice())
    b.turn["mode"] = mode
    b.apply(Start(), dice(6, 1))
    return b


# --- 1. turn orders live in the core --------------------------------------------------------------


def test_turn_orders_are_the_cores_own_table() -> None:
    """The turn structure's orders are declared once, in `rules.turnorders`, and `rules.turns` knows them all."""
    assert turnorders.TABLE.kinds == turns.TURN_KINDS
    for kind in turns.TURN_KINDS:
        assert STRATEGIC.handlers.orders[kind] is turnorders.TABLE.orders[kind]
        assert COMBAT_ACTION.handlers.orders[kind] is turnorders.TABLE.orders[kind]


@pytest.mark.parametrize("kind", sorted(turns.TURN_KINDS - {"end-turn"}))
def test_systems_with_activations_play_the_core_turn_handlers(kind: str) -> None:
    """Strategic and Combat Action resolve every turn order with the core handler, without a copy."""
    core = turnorders.TABLE.handler(kind)
    assert core is not None
    assert STRATEGIC.handlers.handler(kind) is core
    assert COMBAT_ACTION.handlers.handler(kind) is core


def test_a_system_overrides_a_shared_handler_and_not_its_check() -> None:
    """A system's own handler for a shared kind wins; the shared table's check does not guard it."""
    shared = HandlerTable()

    def shared_handler(battle: Any, order: Any, dice: Any, outcome: Any) -> None:
        """Stand for a shared handler."""

    def shared_check(battle: Any, order: Any) -> None:
        """Stand for a shared check."""

    def own_handler(battle: Any, order: Any, dice: Any, outcome: Any) -> None:
        """Stand for a system's own handler."""

    shared.handles("probe")(shared_handler)
    shared.checks("probe")(shared_check)
    inheriting, overriding = HandlerTable(shared), HandlerTable(shared)
    overriding.handles("probe")(own_handler)
    assert inheriting.handler("probe") is shared_handler and inheriting.check("probe") is shared_check
    assert overriding.handler("probe") is own_handler and overriding.check("probe") is None
    assert "probe" in inheriting.kinds and "probe" in overriding.kinds


def test_combat_action_holds_with_the_core_hold() -> None:
    """Combat Action gains `hold` from the core: the unit due holds and play passes to the next one."""
    b = combat_battle()
    due = turns.names_of(b, turns.next_due(b))
    assert len(due) == 1
    out = b.apply(b.parse_order(f"hold unit:{due[0]}"), dice())
    assert [e["type"] for e in out.effects][:1] == ["held"]
    assert turns.names_of(b, turns.next_due(b)) != due


def test_combat_action_keeps_its_own_end_of_activation() -> None:
    """003 End Phase: Combat Action's end-turn drops an unused aim, which the core end-turn knows nothing of."""
    b = combat_battle(mode="free")
    b.apply(CaAim(unit="A"), dice())
    assert "aimed" in b.unit("A").statuses
    b.apply(b.parse_order("end-turn unit:A"), dice())
    assert "aimed" not in b.unit("A").statuses
    assert COMBAT_ACTION.handlers.handler("end-turn") is not turnorders.TABLE.handler("end-turn")


def test_a_mapless_system_does_not_play_turn_orders() -> None:
    """Surface Combat has no per-unit activations, so a turn order is refused as not part of it."""
    b = Battle.new("surface", 1, 1)
    assert "hold" not in SURFACE.handlers.kinds
    with pytest.raises(RulesetError, match="not played in surface"):
        b.apply(turnorders.Hold(unit="X"), dice())


# --- 2. lifecycle handlers are shared -------------------------------------------------------------


@pytest.mark.parametrize(("kind", "fn"), [("start", lifecycle.start), ("end", lifecycle.end),
                                          ("set-rule", lifecycle.set_rule), ("remove-unit", lifecycle.remove_unit)])
def test_strategic_plays_the_shared_lifecycle_handlers(kind: str, fn: object) -> None:
    """Starting, ending, overriding a rule and removing a unit have one implementation."""
    assert STRATEGIC.handlers.handler(kind) is fn


@pytest.mark.parametrize(("kind", "fn"), [("end", lifecycle.end), ("set-rule", lifecycle.set_rule),
                                          ("remove-unit", lifecycle.remove_unit), ("paint", lifecycle.paint)])
def test_combat_action_plays_the_shared_lifecycle_handlers(kind: str, fn: object) -> None:
    """Combat Action paints, ends, overrides rules and removes units with the shared handlers."""
    assert COMBAT_ACTION.handlers.handler(kind) is fn


def test_set_rule_back_to_the_default_clears_the_override_in_every_system() -> None:
    """`/battle rules set` to the default value removes the override, in Combat Action as in Strategic."""
    b = Battle.new("combat-action", 5, 5)
    default = b.ruleset.constant("ap_per_model").value
    out = b.apply(SetRule("ap_per_model", str(default + 1)), dice())
    assert b.constants["ap_per_model"] == default + 1
    assert out.effects[0] == {"type": "rule_set", "key": "ap_per_model", "old": default, "new": default + 1,
                              "default": default}
    b.apply(SetRule("ap_per_model", str(default)), dice())
    assert "ap_per_model" not in b.constants


def test_combat_action_paint_refuses_a_rectangle_and_a_list_at_once() -> None:
    """The shared paint reads one shape of squares, and says so."""
    b = Battle.new("combat-action", 5, 5)
    with pytest.raises(InvalidOrderError, match="not both"):
        b.apply(Paint(terrain=b.ruleset.default_terrain, frm=Cell(0, 0), cells=(Cell(1, 1),)), dice())


def test_combat_action_edits_side_and_owner_like_every_system() -> None:
    """The fields every unit has (side, owner) are edited the same way in every system."""
    b = Battle.new("combat-action", 5, 5)
    b.apply(AddUnit("A", "Red", Cell(0, 0), stats={"kind": "infantry"}), dice())
    b.apply(EditUnit("A", {"side": "Blue", "owner": 7}), dice())
    assert (b.unit("A").side, b.unit("A").owner) == ("Blue", 7)


@pytest.mark.parametrize("ruleset", ["strategic-e", "combat-action", "surface"])
def test_a_second_unit_of_the_same_name_is_refused_in_every_system(ruleset: str) -> None:
    """A name is what players see, so two units may not share one (any case)."""
    b = Battle.new(ruleset, 5, 5)
    stats = {"type": "grunts"} if ruleset == "surface" else None
    b.apply(AddUnit("Scout", "Red", Cell(0, 0), stats=stats), dice())
    with pytest.raises(IllegalOrderError, match="already a unit called Scout"):
        b.apply(AddUnit("scout", "Blue", Cell(1, 1), stats=stats), dice())


def test_removing_a_unit_after_the_end_is_refused() -> None:
    """An ended battle changes no more, whichever shared handler is asked."""
    b = combat_battle(mode="free")
    b.apply(b.parse_order("end"), dice())
    with pytest.raises(IllegalOrderError, match="has ended"):
        b.apply(RemoveUnit("A"), dice())


# --- 3. order kinds per system --------------------------------------------------------------------


def test_two_systems_read_the_same_kind_as_their_own_order() -> None:
    """`aim` is a Strategic order with a mode and a Combat Action order without one; each battle reads its own."""
    strategic = Battle.new("strategic-e", 5, 5).parse_order("aim unit:A mode:full")
    combat = Battle.new("combat-action", 5, 5).parse_order("aim unit:A")
    assert strategic == StrategicAim(unit="A", mode="full")
    assert combat == CaAim(unit="A")
    with pytest.raises(InvalidOrderError, match="not an option of `aim`"):
        Battle.new("combat-action", 5, 5).parse_order("aim unit:A mode:full")


def test_text_without_a_battle_refuses_a_kind_that_means_two_orders() -> None:
    """Without its battle, an order whose kind two systems declare differently is refused, never guessed."""
    with pytest.raises(InvalidOrderError, match="different order in each of combat_action, strategic"):
        Order.parse("aim unit:A")
    assert Order.parse("move unit:A to:B2").kind == "move"  # a kind that means one thing still reads


@dataclass(frozen=True)
class _ProbeA(Order):
    unit: str


@dataclass(frozen=True)
class _ProbeB(Order):
    target: str
    strength: int = 1


def _system(table: HandlerTable, sid: str) -> System:
    return System(id=sid, name=sid, package="rules.systems.strategic", ruleset_ids=(), handlers=table,
                  unit_type=Unit, legal_orders=lambda b, u: iter(()))


def test_any_two_systems_may_declare_one_kind() -> None:
    """Two systems each declare `probe` with other fields; neither's table sees the other's class."""
    table_a, table_b = HandlerTable(), HandlerTable()
    table_a.order("probe")(_ProbeA)
    table_b.order("probe", "owner")(_ProbeB)
    a, b = _system(table_a, "a"), _system(table_b, "b")
    assert a.parse_order("probe unit:X") == _ProbeA(unit="X")
    assert b.parse_order("probe target:X strength:3") == _ProbeB(target="X", strength=3)
    assert b.parse_order(str(_ProbeB(target="X", strength=3))) == _ProbeB(target="X", strength=3)
    with pytest.raises(InvalidOrderError, match="not an option"):
        a.parse_order("probe target:X")
