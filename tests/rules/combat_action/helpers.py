"""Helpers for Combat Action rules tests: fixed dice and a small active battle."""

from __future__ import annotations

import random
from typing import Any

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, SetRule, Start
from rules.outcome import Outcome

RIFLE = {"name": "Rifle", "class": "rifle", "pen": 2}
GRENADE = {"name": "Frag", "class": "grenades", "pen": 3}
SWORD = {"name": "Sword", "class": "close combat", "pen": 2}


def dice(*faces: int) -> Dice:
    """Return dice that show these faces in order."""
    return Dice(random.Random(0), scripted=list(faces))


def battle(units: list[tuple[str, str, str, dict[str, Any]]], rules: dict[str, str] | None = None,
           mode: str = "free") -> Battle[Any]:
    """Return an active combat-action battle (free turns unless told) with these units."""
    b = Battle.new("combat-action", 40, 40)
    for key, value in (rules or {}).items():
        b.apply(SetRule(key, value), dice())
    for name, side, at, stats in units:
        b.apply(AddUnit(name, side, Cell.parse(at), stats=stats), dice())
    b.turn.mode = mode
    b.apply(Start(), dice(*([3] * 20)))
    return b


def infantry(**extra: Any) -> dict[str, Any]:
    """Return an infantry model's stat block: SS 4, PF 0, MV 10 cm, a rifle and a grenade."""
    return {"kind": "infantry", "ss": 4, "pf": 0, "mv": 10, "weapons": [RIFLE, GRENADE], **extra}


def vehicle(**extra: Any) -> dict[str, Any]:
    """Return a ground vehicle's stat block with a hold for four models."""
    return {"kind": "vehicle", "ss": 4, "pf": 6, "mv": 20, "capacity": 4, "crew": 2, **extra}


def play(b: Battle[Any], text: str, *faces: int) -> Outcome:
    """Apply an order written in its text form, with these dice faces."""
    return b.apply(b.parse_order(text), dice(*faces))


def effects(outcome: Outcome, kind: str) -> list[dict[str, Any]]:
    """Return the effects of one kind in an outcome, in their stored form."""
    return [e.to_dict() for e in outcome.effects if e.kind == kind]
