"""A turn ping with more units than buttons fit: menus of 25 units, and Mute this turn on every ping."""

from __future__ import annotations

from tests.e2e.action_helpers import components, labels
from tests.e2e.conftest import Table, text_of
from tests.e2e.turn_helpers import new_since, posted, prompts

UNITS = 30


async def crowded_battle(table: Table) -> None:
    """Start a battle whose NERV phase calls 30 of alice's units."""
    await table.slash("battle new", name="Crowd", ruleset="strategic-e", width=20, height=20)
    for i in range(UNITS):
        await table.slash("unit add", name=f"Trooper {i + 1}", side="NERV", at=f"{chr(65 + i % 10)}{1 + i // 10}",
                          owner=table.alice, ag=40)
    await table.slash("unit add", name="Sachiel", side="Angels", at="P15", ag=38)


async def test_a_crowded_ping_offers_every_unit_in_menus_and_keeps_mute(table: Table) -> None:
    await crowded_battle(table)
    before = posted(table)
    await table.slash("battle start")
    [ping] = prompts(new_since(table, before))
    menus = [c for c in components(ping) if c["type"] == 3]
    assert [len(m["options"]) for m in menus] == [25, 5]
    offered = [o["value"] for m in menus for o in m["options"]]
    assert offered == [f"Trooper {i + 1}" for i in range(UNITS)], "every unit due has a place in a menu"
    assert {"Show map", "Mute this turn"} <= set(labels(ping))
    # Picking a unit answers its options privately to its player; someone else is refused.
    refused = await table.discord.select(ping, menus[1]["custom_id"], ["Trooper 28"], user=table.bob)
    assert refused.messages[-1].ephemeral and "Trooper 28 is not yours" in text_of(refused)
    picked = await table.discord.select(ping, menus[1]["custom_id"], ["Trooper 28"], user=table.alice)
    assert picked.messages[-1].ephemeral and "Trooper 28" in text_of(picked)
    assert any(c.startswith("bp:") for c in picked.messages[-1].custom_ids()), "the unit's actions come as buttons"


async def test_a_ping_of_eleven_units_keeps_two_buttons_each_and_mute(table: Table) -> None:
    await table.slash("battle new", name="Squad", ruleset="strategic-e", width=20, height=20)
    for i in range(11):
        await table.slash("unit add", name=f"T{i + 1}", side="NERV", at=f"{chr(65 + i)}1", owner=table.alice, ag=40)
    await table.slash("unit add", name="Sachiel", side="Angels", at="P15", ag=38)
    before = posted(table)
    await table.slash("battle start")
    [ping] = prompts(new_since(table, before))
    names = labels(ping)
    assert len([n for n in names if n.startswith("End turn")]) == 11 and names[-2:] == ["Show map", "Mute this turn"]


async def test_past_a_hundred_units_a_button_opens_the_next_menus(table: Table) -> None:
    await table.slash("battle new", name="Horde", ruleset="strategic-e", width=30, height=30)
    for i in range(104):
        await table.slash("unit add", name=f"U{i + 1}", side="NERV", at=f"{chr(65 + i % 26)}{1 + i // 26}",
                          owner=table.alice, ag=40)
    await table.slash("unit add", name="Sachiel", side="Angels", at="Z30", ag=38)
    before = posted(table)
    await table.slash("battle start")
    [ping] = prompts(new_since(table, before))
    menus = [c for c in components(ping) if c["type"] == 3]
    assert [len(m["options"]) for m in menus] == [25, 25, 25, 25]
    assert {"Units 101 on \u25b6", "Show map", "Mute this turn"} <= set(labels(ping))
    more = await table.click(ping, next(c["custom_id"] for c in components(ping) if c.get("label", "").startswith(
        "Units 101")), user=table.alice)
    rest = more.messages[-1]
    assert rest.ephemeral
    assert [o["value"] for c in components(rest) if c["type"] == 3 for o in c["options"]] == [
        "U101", "U102", "U103", "U104"]
