"""A unit's legal orders grouped into the actions a player presses, for every rule system with a map."""

from __future__ import annotations

import random
from typing import Any

from cogs.common.actions import action_groups, find_group, order_key
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, EditUnit, Move, Start
from rules.turnorders import SetTurnMode

RIFLE = {"name": "Pallet Rifle", "range": 100, "damage": "2d10+5", "type": "I", "pen": 4}
KNIFE = {"name": "Prog Knife", "melee": True, "damage": "1d10+2", "type": "R"}


def dice() -> Dice:
    """Return throwaway dice."""
    return Dice(random.Random(0))


def strategic(mode: str = "side") -> Battle[Any]:
    """Return a started E-Scale battle: Eva-01 (NERV) with a rifle and a knife, Sachiel (Angels) five squares east."""
    b = Battle.new("strategic-e", 20, 15, "Groups")
    b.apply(SetTurnMode(mode=mode), dice())
    b.apply(AddUnit(name="Eva-01", side="NERV", at=Cell.parse("C3"), stats={"bs": 50, "ag": 40,
                                                                              "weapons": [RIFLE, KNIFE]}), dice())
    b.apply(AddUnit(name="Sachiel", side="Angels", at=Cell.parse("H3"), stats={"wounds": 20}), dice())
    b.apply(Start(), dice())
    return b


def test_every_legal_order_falls_in_exactly_one_action() -> None:
    b = strategic()
    eva = b.unit("Eva-01")
    groups = action_groups(b, eva)
    orders = b.legal_orders(eva)
    assert sum(len(g.orders) for g in groups) == len(orders)
    assert {o for g in groups for o in g.orders} == set(orders)
    assert len({g.key for g in groups}) == len(groups)


def test_labels_say_the_action_its_cost_and_what_is_left() -> None:
    """The [turns] table: budget 2; half moves and attacks cost a Half action (1), full moves a Full action (2)."""
    b = strategic()
    labels = [g.label for g in action_groups(b, b.unit("Eva-01"))]
    # A charge is its own order: it ends in a melee attack.
    assert labels == ["Move: half \u00b7 1 of 2 AP", "Move: full \u00b7 2 of 2 AP",
                      "Move: run \u00b7 2 of 2 AP", "Attack: Pallet Rifle \u00b7 1 of 2 AP",
                      "Charge: Prog Knife \u00b7 2 of 2 AP", "Aim: half \u00b7 1 of 2 AP",
                      "Defend \u00b7 2 of 2 AP", "Hold (2 AP unused)", "End turn (2 AP unused)"]


def test_a_move_asks_for_a_square_and_an_attack_for_a_target() -> None:
    b = strategic()
    groups = {g.label.split(" \u00b7")[0]: g for g in action_groups(b, b.unit("Eva-01"))}
    half = groups["Move: half"]
    assert half.choosing == "square" and half.squares()[0] == Cell.parse("A1") and Cell.parse("C3") not in half.squares()
    assert half.order_for(Cell.parse("D3")) == Move(unit="Eva-01", to=Cell.parse("D3"), mode="half")
    assert half.order_for(Cell.parse("T15")) is None, "a square out of reach is not on offer"
    rifle = groups["Attack: Pallet Rifle"]
    assert rifle.choosing == "unit" and rifle.targets() == ["Sachiel"]
    assert rifle.order_for("sachiel") is not None and rifle.order_for("Eva-01") is None
    assert groups["Aim: half"].choosing is None and groups["End turn (2 AP unused)"].ends_turn


def test_an_action_keeps_its_key_after_the_unit_moves() -> None:
    b = strategic()
    before = {g.label.split(" \u00b7")[0]: g.key for g in action_groups(b, b.unit("Eva-01"))}
    b.apply(Move(unit="Eva-01", to=Cell.parse("D3"), mode="half"), dice())
    after = action_groups(b, b.unit("Eva-01"))
    rifle = find_group(after, before["Attack: Pallet Rifle"])
    assert rifle is not None and rifle.left == 1 and rifle.label == "Attack: Pallet Rifle \u00b7 1 of 1 AP"
    assert find_group(after, before["Move: full"]) is None, "a full move costs 2, more than the 1 AP left"
    assert order_key(Move(unit="Eva-01", to=Cell.parse("A1"), mode="half")) == before["Move: half"]


def test_fewer_action_points_left_offer_less() -> None:
    """The [turns] table: a Full action costs 2, so a unit with 1 AP left is offered no full move."""
    b = strategic()
    assert any(g.label.startswith("Move: full") for g in action_groups(b, b.unit("Eva-01")))
    b.turn.left = dict.fromkeys(b.turn.left, 1)
    labels = [g.label for g in action_groups(b, b.unit("Eva-01"))]
    assert not any(label.startswith("Move: full") for label in labels)
    assert "Move: half \u00b7 1 of 1 AP" in labels


def test_with_nothing_left_only_the_end_of_the_turn_is_offered() -> None:
    b = strategic()
    b.turn.left = dict.fromkeys(b.turn.left, 0)
    assert [g.label for g in action_groups(b, b.unit("Eva-01"))] == ["Hold", "End turn"]


def test_a_unit_not_due_has_no_actions() -> None:
    b = strategic()
    assert action_groups(b, b.unit("Sachiel")) == [], "it is the NERV phase"


def test_combat_action_units_get_their_own_actions() -> None:
    """The grouping reads only legal orders: a Combat Action rifleman's fire modes and postures become actions."""
    b = Battle.new("combat-action", 40, 40)
    rifle = {"name": "Rifle", "class": "rifle", "pen": 2}
    for name, side, at in (("A", "Red", "A1"), ("B", "Blue", "A5")):
        b.apply(AddUnit(name, side, Cell.parse(at), stats={"kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
                                                           "weapons": [rifle]}), dice())
    b.turn.mode = "free"
    b.apply(Start(), dice())
    groups = action_groups(b, b.unit("A"))
    kinds = {g.kind for g in groups}
    assert {"move", "fire", "flat-down", "aim"} <= kinds
    fire = [g for g in groups if g.kind == "fire"]
    assert fire and all(g.choosing == "unit" and g.targets() == ["B"] for g in fire)
    assert len({g.detail for g in fire}) == len(fire), "each fire mode is its own action, named by its mode"


def test_long_names_are_cut_in_the_middle_so_buttons_read_apart() -> None:
    b = strategic()
    names = [f"Positron Rifle of the Long Night {'x' * 27} {i:03d}" for i in range(3)]
    b.apply(EditUnit(unit="Eva-01", stats={"weapons": [{**RIFLE, "name": n} for n in names]}), dice())
    labels = [g.label for g in action_groups(b, b.unit("Eva-01")) if g.kind == "attack"]
    assert len(labels) == 3 and all(len(label) <= 80 for label in labels)
    assert [label.split(" \u00b7 ")[0][-3:] for label in labels] == ["000", "001", "002"]
