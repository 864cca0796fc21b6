"""/aim, /hide, /maneuver, /defend, /extinguish, /break-free and /act end to end, with fixed dice."""

from __future__ import annotations

import pytest

from tests.e2e.combat_helpers import (
    KNIFE,
    RIFLE,
    add,
    arm,
    battle_with,
    dice,
    public,
    refused,
    start,
    stored_battle,
)
from tests.e2e.conftest import Table, last_message
from tests.e2e.turn_helpers import message_text, posted


@pytest.fixture
async def armed(table: Table) -> Table:
    """Return the table with the armed E-Scale battle started, Eva-01 standing in Forest."""
    await arm(table, forest="C3")
    await start(table)
    return table


async def test_aim_adds_its_bonus_to_the_next_attack(armed: Table) -> None:
    text = public(await armed.slash("aim", user=armed.alice, unit="Eva-01", mode="full"))
    assert "Aim: Eva-01" in text and "🎯 Eva-01 takes aim (full action): +20 on its next attack" in text
    assert "Eva-01: full action · 0 actions left this turn" in text
    battle = await stored_battle(armed)
    assert battle.unit("Eva-01").aim == 20 and "aiming" in battle.unit("Eva-01").statuses


async def test_an_attack_spends_the_aim(table: Table) -> None:
    await arm(table)
    await start(table)
    public(await table.slash("aim", user=table.alice, unit="Eva-01"))
    dice(table, 99)
    text = public(await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle",
                                    target="Sachiel"))
    assert "+10 Aim" in text and "Target **70**" in text
    assert (await stored_battle(table)).unit("Eva-01").aim == 0


async def test_hide_in_forest(armed: Table) -> None:
    dice(armed, 5)
    text = public(await armed.slash("hide", user=armed.alice, unit="Eva-01"))
    assert "Stealth (untrained: half AG) **20**" in text and "Target **20** · d100 **5**" in text
    # Side threads off: where it hides goes to its side's players by direct message; the channel reads only that it hid.
    assert "hidden on C3" not in text and "where, only NERV is told, in private" in text
    told = "\n".join(message_text(m) for m in armed.discord.dm_messages(armed.alice))
    assert "Eva-01 is hidden on C3 until it attacks" in told
    assert "hidden" in (await stored_battle(armed)).unit("Eva-01").statuses


async def test_a_failed_hide(armed: Table) -> None:
    dice(armed, 80)
    text = public(await armed.slash("hide", user=armed.alice, unit="Eva-01"))
    assert "Eva-01 fails to find cover and stays in plain sight." in text
    assert "hidden" not in (await stored_battle(armed)).unit("Eva-01").statuses


async def test_hide_needs_cover(armed: Table) -> None:
    await refused(armed, "hide", "cannot be hidden in", user=armed.bob, unit="Eva-02")


async def test_defend(armed: Table) -> None:
    text = public(await armed.slash("defend", user=armed.bob, unit="Eva-02"))
    assert "🛡 Eva-02 stands on guard until the next round: melee attacks against it take −20" in text
    assert "defending" in (await stored_battle(armed)).unit("Eva-02").statuses


async def test_maneuver_pushes_a_melee_opponent(table: Table) -> None:
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, ws=40, weapons=[KNIFE])
    await add(table, "Sachiel", "Angels", "D3", ws=30)
    await start(table)
    dice(table, 5, 90)  # Eva-01's WS test, then Sachiel's
    reply = await table.slash("maneuver", user=table.alice, unit="Eva-01", target="Sachiel")
    text = public(reply)
    assert "Eva-01 wins the opposed test and pushes Sachiel back." in text
    assert "Eva-01: success, 3 degrees · Sachiel: failure, 6 degrees" in text
    assert "➡ Sachiel is pushed D3 → E3" in text
    assert last_message(reply).files, "a push is shown on the map"
    assert str((await stored_battle(table)).unit("Sachiel").cell) == "E3"


async def test_maneuver_needs_melee_reach(armed: Table) -> None:
    await refused(armed, "maneuver", "not in melee reach", user=armed.alice, unit="Eva-01", target="Sachiel")


async def test_extinguish_next_to_water(table: Table) -> None:
    await battle_with(table)
    await table.slash("map paint", terrain="water", cells="D3")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, statuses=["on_fire"])
    await add(table, "Eva-02", "NERV", "C5", owner=table.bob)
    await add(table, "Sachiel", "Angels", "P12")  # a battle needs two sides
    await start(table)
    text = public(await table.slash("extinguish", user=table.alice, unit="Eva-01"))
    assert "💧 Eva-01 puts out its flames at once: water or a storm is at hand" in text
    assert "on_fire" not in (await stored_battle(table)).unit("Eva-01").statuses
    await refused(table, "extinguish", "Eva-02 is not on fire", user=table.bob, unit="Eva-02")


async def test_extinguish_away_from_water_takes_a_test(table: Table) -> None:
    await battle_with(table)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, ag=50, statuses=["on_fire"])
    await add(table, "Sachiel", "Angels", "P12")  # a battle needs two sides
    await start(table)
    dice(table, 40)
    text = public(await table.slash("extinguish", user=table.alice, unit="Eva-01"))
    assert "−20 Putting out the flames" in text and "Target **30** · d100 **40**" in text
    assert "🔥 Eva-01 is still on fire." in text
    assert "on_fire" in (await stored_battle(table)).unit("Eva-01").statuses


async def test_break_free_of_bakelite(table: Table) -> None:
    await battle_with(table, ruleset="strategic-p", width=10, height=10)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, s=40, statuses=["bakelite"])
    await add(table, "Sachiel", "Angels", "J10")  # a battle needs two sides
    await start(table)
    dice(table, 41)
    text = public(await table.slash("break-free", user=table.alice, unit="Eva-01"))
    assert "Eva-01 strains but is still held." in text
    dice(table, 40)
    text = public(await table.slash("break-free", user=table.alice, unit="Eva-01"))
    assert "Strength (S) **40**" in text and "Eva-01 is no longer held by Bakelite" in text
    assert "bakelite" not in (await stored_battle(table)).unit("Eva-01").statuses


async def test_break_free_needs_something_to_break(armed: Table) -> None:
    await refused(armed, "break-free", "Eva-01 is not held", user=armed.alice, unit="Eva-01")


async def test_act_tests_a_skill_with_terrain(table: Table) -> None:
    await battle_with(table)
    await table.slash("map paint", terrain="forest", cells="C3")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, ag=45, skills={"dodge": 55, "pilot": 60})
    await add(table, "Sachiel", "Angels", "P12")  # a battle needs two sides
    await start(table)
    dice(table, 30)
    text = public(await table.slash("act", user=table.alice, unit="Eva-01", stat="dodge", reason="the beam"))
    assert "Eva-01 tests Dodge for the beam." in text and "Dodge **55**" in text
    assert "Target **55** · d100 **30** → ✅ **success**, 2 degrees of success" in text
    assert "Eva-01: half action · 1 action left this turn" in text
    dice(table, 30)
    text = public(await table.slash("act", user=table.alice, unit="Eva-01", stat="ag", modifier=10))
    assert "Agility (AG) **45**" in text and "−10 Difficult terrain (DTV 2)" in text and "+10 Modifier" in text


async def test_act_refuses_a_skill_the_unit_lacks(armed: Table) -> None:
    await refused(armed, "act", "Eva-01 has no characteristic or skill `stealth`", user=armed.alice,
                  unit="Eva-01", stat="stealth")


async def test_act_offers_the_units_skills(table: Table) -> None:
    await battle_with(table)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, ag=45, skills={"dodge": 55}, weapons=[RIFLE])
    choices = await table.discord.autocomplete("act", "stat", "", user=table.alice, channel=table.channel,
                                               unit="Eva-01")
    labels = {c["value"]: c["name"] for c in choices}
    assert labels["ag"] == "Agility (AG) 45" and labels["dodge"] == "Dodge 55 (skill)"
    typed = await table.discord.autocomplete("act", "stat", "do", user=table.alice, channel=table.channel,
                                             unit="Eva-01")
    assert typed[0]["value"] == "dodge"


async def test_with_side_threads_where_a_unit_hides_goes_to_its_side(armed: Table) -> None:
    await armed.gm_slash("gm side-threads", on=True)
    [nerv] = [t for t in armed.discord.threads(armed.channel) if t.name.endswith("\u00b7 NERV")]
    dice(armed, 5)
    text = public(await armed.slash("hide", user=armed.alice, unit="Eva-01"))
    assert "Target **20** · d100 **5**" in text
    assert "Eva-01 hides until it attacks; where, only NERV is told, in private." in text
    assert "hidden on C3" not in text
    told = "\n".join(message_text(m) for m in posted(armed, nerv))
    assert "\U0001f512 NERV only" in told and "Eva-01 is hidden on C3 until it attacks" in told
    assert armed.discord.can_read(armed.bob, nerv), "NERV's other player is told too"
    assert not armed.discord.can_read(armed.carol, nerv)
    [angels] = [t for t in armed.discord.threads(armed.channel) if t.name.endswith("\u00b7 Angels")]
    assert "hidden on C3" not in "\n".join(message_text(m) for m in posted(armed, angels))
