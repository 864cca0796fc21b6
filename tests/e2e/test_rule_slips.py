"""Combat Action and M42 rules that once slipped, each played through slash commands against its seed sentence."""

from __future__ import annotations

import json

from rules.coords import Cell
from rules.systems.strategic.actions.features import PlaceFeature
from tests.e2e.combat_helpers import POSITRON, add, battle_with, dice, give, public, start
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import stored, stored_battle

RIFLE = {"name": "Rifle", "class": "rifle", "pen": 2}


def stats(**fields: object) -> str:
    """Return a Combat Action stat block as the `stats` option takes it."""
    return json.dumps({"kind": "infantry", "ss": 4, "pf": 0, "mv": 10, "weapons": [RIFLE], **fields})


async def combat_action(table: Table, rules: str = "", **units: tuple[str, str, str]) -> None:
    """Create a Combat Action battle in free turns with units (side, square, stats) for alice, then start it."""
    made = await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16,
                             **({"rules": rules} if rules else {}))
    assert not last_message(made).ephemeral, text_of(made)
    await table.slash("turn mode", mode="free")
    for name, (side, at, block) in units.items():
        added = await table.slash("unit add", name=name, side=side, at=at, stats=block, owner=table.alice)
        assert not last_message(added).ephemeral, text_of(added)
    started = await table.slash("battle start")
    assert not last_message(started).ephemeral, text_of(started)


async def last_outcome(table: Table) -> dict[str, object]:
    """Return the stored outcome of the battle's latest order."""
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=1, newest_first=True)
    outcome = events[0].outcome
    assert isinstance(outcome, dict)
    return outcome


async def test_a_large_scale_hit_is_out_of_action_with_no_damage_roll(table: Table) -> None:
    """003:L100 "In the large scale game, all hits on Living Creatures are automatically considered OoA results."
    (RULES.md 4.7, A88): the hit skips the table, so no damage die is rolled or shown."""
    await combat_action(table, "large_scale=true", A=("Red", "C3", stats()), B=("Blue", "C5", stats(pf=2)))
    dice(table, 6)  # the to-hit die; a damage die, if one were rolled, would come from the seed
    shot = await table.slash("ca fire", user=table.alice, unit="A", weapon="Rifle", target="B")
    text = text_of(shot)
    assert "every hit on a living creature is **Out of Action**, with no table roll" in text, text
    dice_shown = text.split("\nDice\n", 1)[1]
    assert dice_shown.count("\U0001f3b2") == 1 and "(A to hit B)" in dice_shown, dice_shown
    outcome = await last_outcome(table)
    rolls = outcome["rolls"]
    assert isinstance(rolls, list) and [r["purpose"] for r in rolls] == ["A to hit B"]
    assert (await stored_battle(table)).unit("B").state == "ooa"


async def test_a_pinned_model_loses_its_aim_unless_the_gm_keeps_it(table: Table) -> None:
    """003:L169 "All models in a pinned unit lose their ready-to-fire status immediately" (A100): a model in
    partial cover aims, is pinned and fires without the aim bonus; with `pinned_clears_ready` off it keeps it."""
    await combat_action(table, A=("Red", "C3", stats()), B=("Blue", "C5", stats()))
    await table.slash("map paint", terrain="partial", cells="C3")
    await table.slash("ca posture", user=table.alice, unit="A", posture="aim")
    pinned = await table.slash("unit edit", unit="A", stats="statuses=aimed,pinned")
    assert "A is pinned and loses its ready-to-fire status: its aim is gone." in text_of(pinned), text_of(pinned)
    assert "aimed" not in (await stored_battle(table)).unit("A").statuses
    dice(table, 1)
    shot = text_of(await table.slash("ca fire", user=table.alice, unit="A", weapon="Rifle", target="B"))
    assert "Point Blank" in shot and "Aimed" not in shot, shot
    await table.slash("battle rules set", key="pinned_clears_ready", value="false")
    await table.slash("turn close-round")
    await table.slash("unit edit", unit="A", stats="statuses=none")
    await table.slash("ca posture", user=table.alice, unit="A", posture="aim")
    kept = await table.slash("unit edit", unit="A", stats="statuses=aimed,pinned")
    assert "ready-to-fire" not in text_of(kept)
    dice(table, 1)
    shot = text_of(await table.slash("ca fire", user=table.alice, unit="A", weapon="Rifle", target="B"))
    assert "+1 Aimed" in shot, shot


async def test_an_out_of_control_drift_says_the_distance_its_move_went(table: Table) -> None:
    """003:L146 out-of-control ground vehicles "move again the same distance they moved the previous turn": a 15 cm
    move north, then a drift 45 degrees right of its front (A80), goes 3 diagonal squares, 15 cm by every count."""
    truck = json.dumps({"kind": "vehicle", "ss": 4, "pf": 0, "mv": 20, "facing": "N"})
    await combat_action(table, T=("Red", "J10", truck), S=("Blue", "J16", stats()))
    moved = await table.slash("move", user=table.alice, unit="T", to="J7", mode="walk")
    assert "J10 \u2192 J7: **15 cm**" in text_of(moved), text_of(moved)
    dice(table, 6, 2)  # a hit, then 2 + Pen 2 - PF 0 = 4: Control System, out of control
    hit = text_of(await table.slash("ca fire", user=table.alice, unit="S", weapon="Rifle", target="T"))
    assert "Control System" in hit, hit
    await table.slash("turn close-round")
    dice(table, 5)  # the direction die: 5-6 is 45 degrees right of the front
    drift = text_of(await table.slash("ca activate", user=table.alice, unit="T"))
    assert "J7 \u2192 M4: **15 cm**" in drift and "drifts 15 cm to M4" in drift, drift
    assert str((await stored_battle(table)).unit("T").cell) == "M4"


async def test_a_model_just_inside_a_narrow_window_stands_inside(table: Table) -> None:
    """004:L94 "models from the unit may then be placed within the unit leader's normal Command Radius anywhere
    inside the structure": the square behind a 0.4" window is inside the building, so /place puts a model there;
    the window's "each full half-inch of width" (004:L104, A95) counts only models placed at the window."""
    await table.slash("battle new", name="Shed", ruleset="m42", width=12, height=8)
    await table.slash("map paint", terrain="building", **{"from": "E2"}, to="H6")
    edged = await table.slash("map edge", edges="D4|E4", obstacle="wall", height=3.0, opening=0.4)
    assert not last_message(edged).ephemeral, text_of(edged)
    await table.slash("unit add", name="Alpha", side="Red", at="F4", owner=table.alice, ld=3, models=2)
    await table.slash("battle start")
    placed = await table.slash("place", user=table.alice, unit="Alpha", models="E4")
    assert not last_message(placed).ephemeral, text_of(placed)
    battle = await stored_battle(table)
    assert [str(m) for m in battle.unit("Alpha").models] == ["E4"]


STORMY = """\
# battlepost map: Storm over the woods
# ruleset: strategic-e
# legend: . plain, F forest, M mountain, ~ water, U urban
..........
..........
..FF......
..........
[storm]
..........
..........
...x......
..........
"""


async def test_an_act_test_counts_the_bakelite_once(table: Table) -> None:
    """000:L107 "on a failure they take a 3d10 reduction to WS and Agility": a 13 comes off a test made with /act
    once, not twice."""
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await table.slash("map paint", terrain="urban", cells="C3")
    await add(table, "General", "Red", "H8", owner=table.alice, supreme_commander=True)
    await give(table, PlaceFeature(feature="bakelite_trap", side="Red", at=Cell.parse("C3")))
    await add(table, "Pilot", "Blue", "C3", owner=table.bob, ag=40, ws=40, skills={"dodge": 30})
    await start(table)
    dice(table, 90, 4, 4, 5)  # the Pilot's Dodge fails; 3d10 = 13
    sprung = public(await table.slash("trap trigger", user=table.alice, side="Red", at="C3"))
    assert "\u221213 WS and Agility" in sprung, sprung
    dice(table, 27)
    text = public(await table.slash("act", user=table.bob, unit="Pilot", stat="ag"))
    assert text.count("Bakelite Trap") == 1 and "\u221213 Bakelite Trap" in text, text
    assert "Target **27**" in text and "success" in text, text


async def test_fire_spreads_into_a_storm_whose_unit_resists_at_plus_30(table: Table) -> None:
    """001:L62 "Units in a Storm square take a +30 to tests to resist fires"; RULES.md A36 (revised): "A Storm square
    can burn: fire spreads into Storm-covered Forest like any other Forest, and a unit there tests to resist
    catching fire with the Storm's +30"."""
    await battle_with(table, ruleset="strategic-e", width=10, height=4)
    await table.slash("battle rules set", key="storm_moves", value="false")
    imported = await table.slash("map import", file=("stormy.txt", STORMY.encode()))
    assert "1 storm square" in text_of(imported), text_of(imported)
    await add(table, "Eva-01", "NERV", "A3", owner=table.alice, bs=50, weapons=[POSITRON])
    await add(table, "Sachiel", "Angels", "C3", wounds=20, ap=4, t=40, ag=30)
    await add(table, "Rei", "Angels", "D3", wounds=20, ag=30)
    await start(table)
    # to hit, damage 2d10, the fire chance, the fire's rounds, Sachiel's Agility test
    dice(table, 14, 5, 5, 5, 2, 1)
    shot = public(await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Positron Rifle",
                                    target="Sachiel"))
    assert "C3 catches fire for 2 rounds" in shot, shot
    # The fire spreads to D3 under the storm: its rounds, then Rei's Agility 30 + 30 Storm - 15 (Forest DTV 2 + 1
    # under a Storm, 001:L42, L62) = 45, rolled exactly.
    dice(table, 2, 45)
    text = text_of(await table.slash("turn close-round"))
    assert "D3 catches fire for 2 rounds (spread from C3)" in text and "(Rei avoids catching fire)" in text, text
    [test] = (await last_outcome(table))["tests"]  # type: ignore[misc]
    assert test["target"] == 45 and test["success"], test
    assert {"label": "Storm", "value": 30, "source": "A53"} in test["breakdown"]["modifiers"], test
    battle = await stored_battle(table)
    assert battle.square_state(Cell.parse("D3"))["fire"] == 2 and battle.square_state(Cell.parse("D3"))["storm"]
    assert "on_fire" not in battle.unit("Rei").statuses
