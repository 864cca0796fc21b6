"""Discord's limits at the largest Surface Combat battle the rules allow: 400 units with 64-character names
full of markdown, every flag, 40 rounds (rounds_base 20, Intensity 10, Daring 10). Every embed stays within
6,000 characters, 25 fields, 1,024 per field and 256 per title; the log pages lose no line; the loopback
Discord rejects nothing the bot posts."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import discord

from cogs.surface.info import force_fields
from cogs.surface.notices import plans_open_embed
from cogs.surface.report import paginate, report_embed, report_lines
from cogs.surface.setup_panel import setup_panel
from rules.battle import MAX_UNITS, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Order
from rules.systems.surface.details import SurfaceReport
from rules.units import NAME_MAX
from storage import BattleRecord, ClockRecord
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import stored, stored_battle

SIDES = ("Marines_of_the_*Long*_Night_" + "_" * 36, "Rebels_of_the_*Dawn*_" + "*" * 43)
FLAGS = ["space_marine", "mobile_infantry", "powered_armor", "armor", "battleoid"]
ROUNDS = ("rounds_base", "20"), ("intensity_max", "10"), ("daring_max", "10")


def unit_name(i: int) -> str:
    """Return a name of the longest length, escaped by markdown into nearly twice as many characters."""
    return (f"U{i:03d}_" + "*_" * 40)[:NAME_MAX]


def stats(i: int) -> dict[str, Any]:
    """Half the units miss most shots and bounce every hit, so all 40 rounds are fought with everyone in them;
    the rest hit often, so morale checks, routs and long deflection lists show up too."""
    if i % 2:
        return {"type": "grunts", "accuracy": 1, "evade": 99, "attack_strength": 0, "armor": 99, "capacity": 99,
                "morale": 0, "rally": 99, "flags": FLAGS}
    return {"type": "special-forces", "accuracy": 99, "evade": 99, "attack_strength": 1, "armor": 99,
            "capacity": 99, "morale": 0, "rally": 99, "flags": FLAGS}


@functools.cache
def biggest_battle() -> tuple[Battle[Any], SurfaceReport]:
    """Return the largest surface battle fought (every unit and every round the limits allow), and its report.

    Built once for the tests that only read it.
    """
    battle = Battle.new("surface", 1, 1, "N" * NAME_MAX)
    dice = Dice(random.Random(5))
    for i in range(MAX_UNITS):
        battle.apply(AddUnit(unit_name(i), SIDES[i % 2], Cell(0, 0), 10 ** 17 + i, stats(i)), dice)
    for key, value in ROUNDS:
        battle.apply(Order.parse(f"set-rule key:{key} value:{value}"), dice)
    battle.apply(Order.parse("start"), dice)
    for side in SIDES:
        battle.apply(Order.parse(f"surface-plan side:'{side}' intensity:10 daring:10"), dice)
    fought = battle.apply(Order.parse("surface-resolve"), dice)
    report = fought.details_as(SurfaceReport)
    assert report is not None
    return battle, report


def check_embed(embed: discord.Embed) -> None:
    """Fail unless Discord would accept the embed."""
    data = embed.to_dict()
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    fields = data.get("fields", [])
    assert len(fields) <= 25
    for f in fields:
        assert 0 < len(f["name"]) <= 256 and 0 < len(f["value"]) <= 1024
    footer = data.get("footer", {}).get("text", "")
    assert len(footer) <= 2048
    total = len(data.get("title", "")) + len(data.get("description", "")) + len(footer) + sum(
        len(f["name"]) + len(f["value"]) for f in fields)
    assert total <= 6000, total


def test_every_report_page_of_the_biggest_battle_fits_and_no_line_is_lost() -> None:
    battle, report = biggest_battle()
    assert report.rounds_fought == 40 and len(report.units) == MAX_UNITS
    lines = report_lines(report)
    pages = paginate(lines)
    assert len(pages) > 100
    assert "\n".join(pages) == "\n".join(lines), "paging keeps every line whole and in order"
    for number in (1, 2, len(pages) // 2, len(pages)):
        check_embed(report_embed(battle, report, number))
    assert "Log page 1/" in (report_embed(battle, report, 0).footer.text or "")
    assert f"Log page {len(pages)}/" in (report_embed(battle, report, len(pages) + 5).footer.text or "")


def test_forces_and_plans_messages_of_the_biggest_battle_fit() -> None:
    battle, _ = biggest_battle()
    embed = discord.Embed(title="N" * 256, description="d" * 200)
    for name, value in force_fields(battle):
        embed.add_field(name=name, value=value, inline=False)
    check_embed(embed)
    assert embed.fields[-1].name == "\u2026" and "more units" in str(embed.fields[-1].value)
    clock = ClockRecord(battle_id=1, turn_key="surface|1|plans", due_at=1e9)
    check_embed(plans_open_embed(battle, list(SIDES), clock))


def test_the_setup_panel_of_the_biggest_force_fits() -> None:
    battle = Battle.new("surface", 1, 1, "N" * NAME_MAX)
    dice = Dice(random.Random(5))
    for i in range(MAX_UNITS):
        battle.apply(AddUnit(unit_name(i), SIDES[i % 2] if i else "*" * NAME_MAX, Cell(0, 0), None, stats(i)), dice)
    record = BattleRecord(id=1, guild_id=1, channel_id=1, thread_id=None, name=battle.name, ruleset="surface",
                          status="setup", created_by=1, document="{}", version=1, created_at=0.0,
                          updated_at=0.0)
    embed, view = setup_panel(record, battle)
    check_embed(embed)
    assert embed.fields[0].name.startswith("Setup") and "Two forces only" in str(embed.fields[0].value)
    assert embed.fields[-1].name == "\u2026" and "more units" in str(embed.fields[-1].value)
    assert view is not None and len(view.children) == 4


SLOW = 180.0  # seconds the loopback waits for the heaviest steps on a busy machine (a time limit, not a measure)


async def until(condition: Callable[[], bool], within: float = SLOW) -> None:
    """Wait for a follow-up or an edit the bot makes after its first answer."""
    for _ in range(int(within / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still not there after {within:g} s")


async def test_the_biggest_battle_through_the_bot(table: Table) -> None:
    """Import 400 units in one file, fight 40 rounds, read the report and page it with its buttons."""
    await table.slash("battle new", name="N" * NAME_MAX, ruleset="surface")
    forces = {"ruleset": "surface", "forces": {side: [
        {"name": unit_name(i), "owner": table.alice.id if i % 2 == 0 else table.bob.id, "stats": stats(i)}
        for i in range(MAX_UNITS) if i % 2 == n] for n, side in enumerate(SIDES)}}
    imported = await table.discord.slash("surface import", user=table.gm, channel=table.channel, within=SLOW,
                                         options={"file": ("forces.json", json.dumps(forces).encode())})
    await until(lambda: "Imported 400 units" in text_of(imported))
    for key, value in ROUNDS:
        await table.slash("battle rules set", key=key, value=value)
    await table.slash("battle start")
    info = await table.slash("battle info")
    assert "more units" in text_of(info)
    await table.slash("surface plan", user=table.alice, side=SIDES[0], intensity=10, daring=10)
    fought = await table.discord.slash("surface plan", user=table.bob, channel=table.channel, within=SLOW,
                                       options={"side": SIDES[1], "intensity": 10, "daring": 10})
    # Forty rounds of 400 units are fought off the event loop; the report follows the plan's confirmation.
    await until(lambda: len(fought.messages) >= 2)
    await table.settle()
    posted = last_message(fought)
    assert "Log page 1/" in text_of(fought) and posted.files
    kept = (await stored_battle(table)).turn.systems["surface"]["report"]
    assert kept["rounds_fought"] == 40 and "log" not in kept, "the rounds live in the log, not in the battle"
    later = next(c["custom_id"] for row in posted.components for c in row["components"] if c["custom_id"].endswith(":n"))
    page_two = await table.discord.click(posted, later, user=table.carol, within=SLOW)
    await until(lambda: "Log page 2/" in text_of(page_two))
    private = last_message(page_two)
    assert private.ephemeral
    again = next(c["custom_id"] for row in private.components for c in row["components"]
                 if c["custom_id"].endswith(":n"))
    page_three = await table.discord.click(private, again, user=table.carol, within=SLOW)
    await until(lambda: "Log page 3/" in text_of(page_three))
    last = await table.discord.slash("surface report", user=table.gm, channel=table.channel, within=SLOW,
                                     options={"page": 100_000})
    await until(lambda: "Log page" in text_of(last))
    await table.settle()
    assert table.discord.rejections == []
    assert (await stored(table)).status == "active"
