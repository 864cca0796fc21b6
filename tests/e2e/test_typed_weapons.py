"""Units made by hand fight: `/unit add` and `/unit edit` take weapons in each system's one-line notation."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Table, last_message, text_of


async def stored(table: Table) -> Any:
    """Return the channel's battle as stored."""
    found = await table.service.peek(table.discord.guild.id, table.channel.id)
    assert found is not None
    return found[1]


async def test_a_strategic_unit_added_with_typed_weapons_attacks_with_them(table: Table) -> None:
    await table.slash("battle new", name="Hand", ruleset="strategic-e", width=12, height=10)
    added = await table.slash("unit add", name="Eva-01", side="NERV", at="C3", owner=table.alice, ag=45, ws=60,
                              weapons="Pallet Rifle r30 2d10+6X pen4; Knife melee 1d10+10R pen12 Tearing")
    assert "Weapons: Pallet Rifle, Knife." in text_of(added)
    await table.slash("unit add", name="Sachiel", side="Angels", at="C5", ag=38)
    eva = (await stored(table)).unit("Eva-01")
    rifle, knife = eva.weapons
    assert (rifle.name, rifle.range, rifle.damage, rifle.dtype, rifle.pen) == ("Pallet Rifle", 30, "2d10+6", "X", 4)
    assert (knife.name, knife.melee, knife.damage, knife.dtype, knife.pen, knife.tearing) == (
        "Knife", True, "1d10+10", "R", 12, True)
    await table.slash("battle start")
    shot = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    assert not last_message(shot).ephemeral and "Pallet Rifle" in text_of(shot) and "BS" in text_of(shot)


async def test_unit_edit_rewrites_and_clears_typed_weapons(table: Table) -> None:
    await table.slash("battle new", name="Hand", ruleset="strategic-e", width=12, height=10)
    await table.slash("unit add", name="Eva-01", side="NERV", at="C3", weapons="Rifle r10 1d10+2")
    edited = await table.slash("unit edit", unit="Eva-01", weapons="Spear melee reach2 2d10; Gun r5 1d5")
    assert "Weapons: Spear, Gun." in text_of(edited)
    assert [(w.name, w.reach) for w in (await stored(table)).unit("Eva-01").weapons] == [("Spear", 2), ("Gun", 1)]
    await table.slash("unit edit", unit="Eva-01", weapons="none")
    assert (await stored(table)).unit("Eva-01").weapons == []


async def test_bad_weapon_notation_is_refused_privately_and_adds_nothing(table: Table) -> None:
    await table.slash("battle new", name="Hand", ruleset="strategic-e", width=12, height=10)
    cases = [
        ("Rifle", "weapon 1 (`Rifle`) has a name but no profile"),
        ("Rifle r10 1d10; Knife melee ??", "weapon 2 (`Knife melee ??`): `??` is not a range, damage, Pen or quality"),
        ("Rifle r10;; Knife melee", "weapon 2 is empty"),
        ("Rifle r10 1d10 pen400", "must be from 0 to 100"),
    ]
    for line, why in cases:
        refused = await table.slash("unit add", name="Eva-01", side="NERV", at="C3", weapons=line)
        assert refused.ephemeral and why in text_of(refused), text_of(refused)
    twice = await table.slash("unit add", name="Eva-01", side="NERV", at="C3", weapons="Rifle r10",
                              stats='{"weapons": []}')
    assert "given twice" in text_of(twice)
    assert (await stored(table)).find_unit("Eva-01") is None


async def test_a_combat_action_model_takes_its_own_notation(table: Table) -> None:
    await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16)
    added = await table.slash("unit add", name="Kell", side="Rangers", at="C3", owner=table.alice,
                              weapons="Rifle rifle pen1 ammo6 max:L; Blade close-combat")
    assert "Weapons: Rifle, Blade." in text_of(added)
    rifle, blade = (await stored(table)).unit("Kell").weapons
    assert (rifle.wclass, rifle.pen, rifle.ammo, rifle.max_band) == ("rifle", 1, 6, "L")
    assert blade.wclass == "close_combat"
    wrong = await table.slash("unit add", name="Vance", side="Rangers", at="C4", weapons="Pistol pistol r10")
    assert wrong.ephemeral and "`r10` is not a class (pistol, rifle" in text_of(wrong)


async def test_a_system_without_weapons_says_so(table: Table) -> None:
    await table.slash("battle new", name="Farm", ruleset="m42", width=20, height=20)
    refused = await table.slash("unit add", name="Alpha", side="Red", at="C3", weapons="Rifle r10 1d10")
    assert refused.ephemeral and "carry no weapons to write" in text_of(refused)
    assert (await stored(table)).find_unit("Alpha") is None


async def test_help_documents_the_battles_weapon_notation(table: Table) -> None:
    await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16)
    shown = text_of(await table.slash("help", role="gm"))
    assert "close-combat" in shown and "ammo6" in shown and "2d10+6X" not in shown
