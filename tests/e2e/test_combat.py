"""/attack end to end: the breakdown, every roll, damage with armour and cover, the map, and every refusal."""

from __future__ import annotations

import pytest

from rules.outcome import Highlight
from tests.e2e.combat_helpers import (
    RIFLE,
    add,
    arm,
    battle_with,
    dice,
    differs,
    public,
    refused,
    square_pixels,
    start,
    stored,
    stored_battle,
)
from tests.e2e.conftest import Table, last_message


@pytest.fixture
async def armed(table: Table) -> Table:
    """Return the table with the armed battle started, in free turns."""
    await arm(table)
    await start(table)
    return table


async def test_a_hit_shows_the_breakdown_the_dice_and_the_wounds(armed: Table) -> None:
    before = (await stored(armed)).version
    dice(armed, 14, 6, 4)  # to hit, then the two damage dice
    reply = await armed.slash("attack", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    text = public(reply)
    for line in (
        "Eva-01 fires at Sachiel: hit",
        "**Pallet Rifle** · 2d10+5 I · Pen 4",
        "C3 → H3: **5** squares · R 10 km · **Short** range (2–5 squares, +10)",
        "Line of fire: clear",
        "Ballistic Skill (BS) **50**",
        "+10 Range: Short *(A04)*",
        "Target **60** · d100 **14** → ✅ **hit**, 4 degrees of success",
        "Location: attack roll 14 reversed = 41 → **Body**",
        "🎲 `2d10+5`: [6, 4] = **15** I",
        "AP 4 (Body) − Pen 4 = armour **0**",
        "15 − 0 armour − 4 TB = **11**",
        "Sachiel loses **11 wounds** → 9 left",
        "Eva-01: half action · 1 action left this turn",
        "`2d10+5`: [6, 4] = **15** (damage to Sachiel)",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"
    record = await stored(armed)
    assert record.version == before + 1
    assert {u["name"]: u["wounds"] for u in record.state["units"]}["Sachiel"] == 9


async def test_the_attached_map_marks_the_shot(armed: Table) -> None:
    dice(armed, 14, 6, 4)
    reply = await armed.slash("attack", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    message = last_message(reply)
    assert message.embeds[0]["image"]["url"] == "attachment://map.png"
    attached = message.files[0].data
    assert attached[:8] == b"\x89PNG\r\n\x1a\n"
    battle = await stored_battle(armed)
    highlight = Highlight(actor="C3", target="H3", line=["C3", "H3"], hit=True)
    assert attached == (await armed.service.render(battle, highlight)).png
    plain = (await armed.service.render(battle)).png
    assert differs(square_pixels(attached, battle, "H3"), square_pixels(plain, battle, "H3"))


async def test_a_miss_changes_no_wounds_but_spends_the_action(armed: Table) -> None:
    dice(armed, 95)
    reply = await armed.slash("attack", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    text = public(reply)
    assert "Eva-01 fires at Sachiel: miss" in text and "❌ **miss**, 3 degrees of failure" in text
    assert "Damage to" not in text
    battle = await stored_battle(armed)
    assert battle.unit("Sachiel").wounds == 20 and battle.turn.left[battle.unit("Eva-01").id] == 1


async def test_a_destroyed_unit_leaves_the_map(armed: Table) -> None:
    await armed.slash("unit edit", unit="Sachiel", wounds=5)
    dice(armed, 14, 6, 4)
    reply = await armed.slash("attack", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    text = public(reply)
    assert "Sachiel loses **11 wounds** → 0 left" in text and "💀 **Sachiel is destroyed**" in text
    assert "💀 Sachiel (Angels) is destroyed on H3 and leaves the map" in text
    battle = await stored_battle(armed)
    assert battle.find_unit("Sachiel") is None


async def test_a_called_shot_and_a_gm_adjustment_are_in_the_breakdown(armed: Table) -> None:
    dice(armed, 14, 6, 4)
    reply = await armed.slash("attack", unit="Eva-01", weapon="Pallet Rifle", target="Sachiel", adjust=-5,
                              called="head")
    text = public(reply)
    assert "−20 Called shot (head)" in text and "−5 GM adjustment" in text
    assert "Modifiers −15 in all" in text and "Target **35**" in text
    assert "Called shot: **Head**" in text and "AP 4 (Head)" in text


async def test_melee_counts_terrain_strength_and_tearing_but_no_cover(table: Table) -> None:
    await arm(table, forest="C3")
    await add(table, "Shamshel", "Angels", "C3", wounds=20)
    await start(table)
    dice(table, 12, 3, 8)  # to hit, then Tearing's two d10
    reply = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Prog Knife", target="Shamshel")
    text = public(reply)
    for line in (
        "Eva-01 strikes Shamshel: hit",
        "Melee from C3 to C3: **0** squares apart, reach the same square",
        "Weapon Skill (WS) **40**",
        "−10 Difficult terrain (DTV 2)",
        "Target **30** · d100 **12**",
        "Location: attack roll 12 reversed = 21 → **Left Arm**",
        # Tearing: the dice actually used; the dropped die is struck out, the kept dice add up to the damage.
        "🎲 `2d10kh1+2+4`: [~~3~~, 8] = **14** R (Strength Bonus +4 included; Tearing: one die more, the lowest struck out)",
        "🎲 `2d10kh1+2+4`: [~~3~~, 8] = **14** (damage to Shamshel)",
        "AP 0 (Left Arm) + cover 2 (Forest 2), melee ignores cover → **0** − Pen 2 = armour **0** (never below 0)",
        "14 − 0 armour − 3 TB = **11**",
        "⚔ Eva-01 and Shamshel are locked in melee",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"
    battle = await stored_battle(table)
    assert battle.unit("Shamshel").wounds == 9 and battle.unit("Eva-01").engaged == [battle.unit("Shamshel").id]


async def test_a_blast_hits_everyone_on_the_square_with_half_cover(table: Table) -> None:
    await arm(table, forest="H3")
    await add(table, "Mob", "Angels", "H3", kind="horde", magnitude=20)
    await start(table)
    # to hit, the d2 that picks the first target, then location and damage for each hit
    dice(table, 20, 2, 50, 7, 14, 9)
    reply = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="N2 Mine", at="H3")
    text = public(reply)
    for line in (
        "Eva-01 fires at H3: hit",
        "**Standard** range",
        "Blast on H3: up to **2** target(s)",
        "1. Mob on H3: drawn at random",
        "2. Sachiel on H3: drawn at random",
        "Location: location d100 50 reversed = 5 → **Head**",
        "AP 0 (Head) + cover 2 (Forest 2), half against area attacks → **1** − Pen 0 = armour **1**",
        "Mob loses **2 Magnitude** (1 per damaging hit + 1 Explosive/Devastating) → 18 left",
        "Sachiel loses **3 wounds** → 17 left",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"
    battle = await stored_battle(table)
    assert battle.unit("Mob").magnitude == 18 and battle.unit("Sachiel").wounds == 17


async def test_a_line_hits_one_unit_in_each_square_it_crosses(table: Table) -> None:
    await arm(table)
    await add(table, "Ramiel", "Angels", "F3")
    await start(table)
    dice(table, 20, 50, 6)  # to hit, then Ramiel's own hit location and damage
    reply = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Beam", at="E3")
    text = public(reply)
    for line in (
        "Line: crosses 3 squares, D3 → F3",
        "1. Ramiel on F3: in the line's path",
        "Location: location d100 50 reversed = 5 → **Head**",
        "Ramiel loses **3 wounds** → 7 left",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"
    assert (await stored_battle(table)).unit("Sachiel").wounds == 20


async def test_an_energy_hit_sets_the_forest_ablaze(table: Table) -> None:
    await arm(table, forest="H3")
    await start(table)
    # to hit, location from the attack roll, damage 2d10, fire chance, fire rounds, Sachiel's Agility test
    dice(table, 14, 5, 5, 5, 2, 90)
    reply = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Positron Rifle", target="Sachiel")
    text = public(reply)
    for line in (
        "Chance of forest fire on H3: d100 **5** against 20% → it happens",
        "🔥 H3 catches fire for 2 rounds (set alight by the hit)",
        "🔥 Sachiel catches fire on H3",
        "Sachiel avoids catching fire",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"
    battle = await stored_battle(table)
    assert battle.square_state(battle.unit("Sachiel").cell)["fire"] == 2
    assert "on_fire" in battle.unit("Sachiel").statuses


async def test_a_bridge_takes_wounds(table: Table) -> None:
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await table.slash("map paint", terrain="bridge", cells="C3")
    await add(table, "Gunner", "Red", "C1", owner=table.alice, bs=50, weapons=[RIFLE])
    await add(table, "Lookout", "Blue", "J10")  # a battle needs two sides
    await start(table)
    dice(table, 5, 10, 10)
    reply = await table.slash("attack", user=table.alice, unit="Gunner", weapon="Pallet Rifle", target="bridge",
                              at="C3")
    text = public(reply)
    assert "Gunner fires at the bridge on C3: hit" in text and "Bridge on C3" in text
    assert "25 − 6 − 4 = **15** wounds → 15/20 taken" in text
    battle = await stored_battle(table)
    assert battle.cells["C3"]["bridge_wounds"] == 15


# --- refusals: ephemeral, and the stored battle unchanged ----------------------------------------


async def test_out_of_range(armed: Table) -> None:
    await refused(armed, "attack", "reaches at most 4 squares", user=armed.alice, unit="Eva-01", weapon="Pistol",
                  target="Sachiel")


async def test_beyond_the_end_of_a_line(armed: Table) -> None:
    await refused(armed, "attack", "The Beam reaches 3 squares in a line; H3 is farther", user=armed.alice,
                  unit="Eva-01", weapon="Beam", target="Sachiel")


async def test_unknown_weapon(armed: Table) -> None:
    await refused(armed, "attack", "Eva-01 has no weapon `Lance`", user=armed.alice, unit="Eva-01",
                  weapon="Lance", target="Sachiel")


async def test_target_off_the_map(armed: Table) -> None:
    await refused(armed, "attack", "Z9 is off the map", user=armed.alice, unit="Eva-01", weapon="N2 Mine", at="Z9")


async def test_target_not_on_the_map(armed: Table) -> None:
    await refused(armed, "attack", "There is no unit `Ramiel`", user=armed.alice, unit="Eva-01",
                  weapon="Pallet Rifle", target="Ramiel")


async def test_nothing_to_attack(armed: Table) -> None:
    await refused(armed, "attack", "Say what to attack", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle")


async def test_someone_elses_unit(armed: Table) -> None:
    await refused(armed, "attack", "Eva-01 is not yours", user=armed.bob, unit="Eva-01", weapon="Pallet Rifle",
                  target="Sachiel")


async def test_only_a_gm_adjusts(armed: Table) -> None:
    await refused(armed, "attack", "Only a GM can set `adjust` on `attack`", user=armed.alice, unit="Eva-01", weapon="Pallet Rifle",
                  target="Sachiel", adjust=10)


async def test_not_your_phase(table: Table) -> None:
    await arm(table, mode=None)  # the ruleset's default: side phases, NERV first
    await start(table)
    await refused(table, "attack", "It is the NERV phase", unit="Sachiel", weapon="Pallet Rifle", target="Eva-01")


async def test_no_actions_left(table: Table) -> None:
    await arm(table, mode=None)
    await start(table)
    for _ in range(2):
        dice(table, 99)
        shot = public(await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle",
                                        target="Sachiel"))
    assert "Eva-01 has nothing left to do, so its turn ends." in shot
    await refused(table, "attack", "Eva-01 has ended its turn this round", user=table.alice, unit="Eva-01",
                  weapon="Pallet Rifle", target="Sachiel")


# --- autocomplete ---------------------------------------------------------------------------------


async def test_weapon_choices_show_range_and_damage(armed: Table) -> None:
    choices = await armed.discord.autocomplete("attack", "weapon", "", user=armed.alice, channel=armed.channel,
                                               unit="Eva-01")
    labels = {c["value"]: c["name"] for c in choices}
    assert labels["Pallet Rifle"] == "Pallet Rifle · range 100 dm (R 10 km) · 2d10+5 I, Pen 4"
    assert labels["Prog Knife"] == "Prog Knife · melee (same square) · 1d10+2 R, Pen 2 · Tearing"
    assert labels["N2 Mine"].endswith("· Blast(2)")


async def test_target_choices_put_enemies_first_with_their_distance(armed: Table) -> None:
    choices = await armed.discord.autocomplete("attack", "target", "", user=armed.alice, channel=armed.channel,
                                               unit="Eva-01")
    assert choices[0] == {"name": "Sachiel (Angels, H3, 5 squares away)", "value": "Sachiel"}
    assert [c["value"] for c in choices] == ["Sachiel", "Eva-02"]
