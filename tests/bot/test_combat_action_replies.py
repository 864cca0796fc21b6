"""Combat Action reply builders at Discord's limits, with the largest battle a GM can set up."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from cogs.combat_action.embeds import outcome_embed, unit_embed
from cogs.combat_action.options import options_embed
from loopback.limits import check_message_body
from loopback.messages import MessageBody
from rules.battle import MAX_UNITS, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Start
from rules.systems import install

install()

LONG = "x" * 50
WEAPONS = [{"name": f"{LONG} weapon {i}", "class": c, "pen": 9, "ammo": 10}
           for i, c in enumerate(["rifle", "assault", "sniping", "heavy", "very heavy", "pistol", "starcraft",
                                  "heavy close combat"])]


def _dice() -> Dice:
    return Dice(random.Random(5))


def _fits(embed: discord.Embed) -> dict[str, Any]:
    """Check an embed the way Discord does (the loopback applies Discord's limits); return it as sent."""
    data = embed.to_dict()
    check_message_body(MessageBody(json={"embeds": [data]}), None, allow_empty=False)
    size = len(data.get("title", "")) + len(data.get("description", "")) + len(data.get("footer", {}).get("text", ""))
    size += sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", []))
    assert size <= 6000 and len(data.get("fields", [])) <= 25
    return data


@pytest.fixture(scope="module")
def crowded_state() -> dict[str, Any]:
    """Return the largest battle, saved: MAX_UNITS models with long names around one vehicle about to explode."""
    b = Battle.new("combat-action", 40, 40, "A battle with a long name " + "y" * 30)
    b.apply(AddUnit(name=f"{LONG} tank", side=f"{LONG} Red", at=Cell(10, 10),
                    stats={"kind": "vehicle", "pf": 0, "crew": 50, "capacity": 50, "weapons": WEAPONS}), _dice())
    for i in range(1, MAX_UNITS):
        side = f"{LONG} Red" if i < 50 else f"{LONG} Blue"
        stats: dict[str, Any] = {"kind": "infantry", "weapons": WEAPONS, "squad": LONG,
                                 "statuses": ["pinned", "flat_down"]}
        if i < 50:
            stats["inside"] = f"{LONG} tank"
        b.apply(AddUnit(name=f"{LONG} model {i:03d}", side=side, at=Cell(9 + i % 3, 9 + (i // 3) % 3), stats=stats),
                _dice())
    b.turn.mode = "free"
    b.apply(Start(), _dice())
    return b.to_dict()


def test_outcome_of_a_power_plant_among_hundreds_fits(crowded_state: dict[str, Any]) -> None:
    """A power plant going off among 349 models and 49 passengers: hundreds of rolls, one embed within limits."""
    b = Battle.from_dict(crowded_state)
    shooter = b.unit(f"{LONG} model 399")
    shooter.x, shooter.y = 10, 12
    text = f'fire unit:"{shooter.name}" weapon:"{LONG} weapon 6" target:"{LONG} tank"'
    order = b.parse_order(text)
    out = b.apply(order, Dice(random.Random(1), scripted=[6, 6]))
    assert len(out.tests) > 100 and any(e.kind == "transported_hit" for e in out.effects)
    data = _fits(outcome_embed(out, battle_name=b.name, actor_name="z" * 32))
    assert "did not fit" in data["description"]


def test_options_of_a_unit_with_every_weapon_and_hundreds_of_targets_fit(crowded_state: dict[str, Any]) -> None:
    """My options of a model with eight weapons and every enemy in range."""
    b = Battle.from_dict(crowded_state)
    unit = b.unit(f"{LONG} model 001")
    unit.inside = ""
    unit.statuses = []
    data = _fits(options_embed(b, unit))
    assert any(f["name"].startswith("Fire") for f in data["fields"])


def test_unit_embed_of_a_full_vehicle_fits(crowded_state: dict[str, Any]) -> None:
    """The stat block of a vehicle with eight long-named weapons, every location and a full hold."""
    b = Battle.from_dict(crowded_state)
    tank = b.unit(f"{LONG} tank")
    tank.damaged = list(tank.locations[:5])
    carried = tuple(u.name for u in b.iter_units() if u.inside == tank.id)
    data = _fits(unit_embed(tank, ap_left=2, carried=carried))
    assert len(carried) == 49 and any(f["name"] == "Hold" for f in data["fields"])


def _text(data: dict[str, Any]) -> str:
    return "\n".join([data.get("title", ""), data.get("description", "") or "",
                      *[f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]])


def _small(*units: tuple[str, str, str, dict[str, Any]]) -> Battle[Any]:
    b = Battle.new("combat-action", 20, 20, "Ford")
    for name, side, at, stats in units:
        b.apply(AddUnit(name=name, side=side, at=Cell.parse(at), stats=stats), _dice())
    b.turn.mode = "free"
    b.apply(Start(), _dice())
    return b


def _play(b: Battle[Any], text: str, *faces: int) -> Any:
    return b.apply(b.parse_order(text), Dice(random.Random(0), scripted=list(faces)))


def test_shot_reply_shows_every_term_and_die() -> None:
    """A73 1d6 + modifiers vs SS, each modifier with its rule; A79 the damage lookup; the dice; the AP left."""
    b = _small(("Kell", "Red", "A1", {"kind": "infantry", "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2}]}),
               ("Orr", "Blue", "A3", {"kind": "infantry", "pf": 1}))
    out = _play(b, "fire unit:Kell weapon:Rifle target:Orr", 3, 5)
    text = _text(_fits(outcome_embed(out, battle_name=b.name)))
    assert "Range 10 cm: **Point Blank** (PB)" in text and "d6 **3**" in text
    assert "+1 Rifle at Point Blank *(003:L57-68)*" in text and "Total **4** vs SS **4** \u2192 \u2705 **hit**" in text
    assert "d6 **5** + PF 1 \u2212 Pen 2 = 4 (clamped 1-6) \u2192 **Out of Action**" in text
    assert "Kell: **1 AP** spent \u00b7 **1 AP** left" in text and "`1d6`: [3]" in text


def test_machine_damage_reply_names_the_next_result_down() -> None:
    """A82: a location the machine lacks moves down the table, and the reply says so: a robot has no Hold."""
    b = _small(("Kell", "Red", "A1", {"kind": "infantry", "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2}]}),
               ("Bot", "Blue", "A3", {"kind": "robot", "pf": 6}))
    out = _play(b, "fire unit:Kell weapon:Rifle target:Bot", 6, 2)
    text = _text(_fits(outcome_embed(out, battle_name=b.name)))
    assert ("d6 **2** + Pen 2 \u2212 PF 6 = **-2** \u2192 **Weapon System** (Hold missing or already hit: next result "
            "down)") in text


def test_deviation_reply_gives_distance_direction_and_landing() -> None:
    """003:L108-114: miss x 3 cm for a grenade, the d6 direction (A80) and where it lands."""
    b = _small(("Kell", "Red", "A1", {"kind": "infantry", "weapons": [{"name": "Frag", "class": "grenades", "pen": 3}],
                                      "ss": 5}),
               ("Orr", "Blue", "A5", {"kind": "infantry"}))
    _play(b, "prime unit:Kell weapon:Frag")
    out = _play(b, "fire unit:Kell weapon:Frag target:Orr mode:grenade", 2, 4)
    text = _text(_fits(outcome_embed(out, battle_name=b.name)))
    assert "Frag deviates: miss 3 \u2192 **9 cm**, direction d6 **4** (180\u00b0 clockwise from the line of fire)" in text


def test_my_options_fields_leave_room_for_the_shared_reply(crowded_state: dict[str, Any]) -> None:
    """The My options button adds Combat Action's fields to the shared reply: they stay inside their budget."""
    from cogs.combat_action.front import FRONT_END, OPTIONS_BUDGET

    assert FRONT_END.option_fields is not None and FRONT_END.prompt_verbs is not None
    b = Battle.from_dict(crowded_state)
    unit = b.unit(f"{LONG} model 001")
    unit.inside, unit.statuses = "", []
    fields = FRONT_END.option_fields(b, unit)
    assert sum(len(name) + len(value) for name, value in fields) <= OPTIONS_BUDGET + 100
    assert all(len(value) <= 1024 for _, value in fields) and len(fields) <= 10
    verbs = FRONT_END.prompt_verbs(b, unit, 2)
    assert "/ca fire 1" in verbs and "/ca close-combat 2" in verbs and len(verbs) <= 8
