"""Every reply at the largest battle the limits allow: 400 units with 64-character names on 100x100, 8 sides.

The loopback Discord refuses what Discord refuses (6,000 embed characters, 25 fields, 25 options, 5 rows,
80-character labels, 100-character ids), and a refusal is logged as an error, which fails the test.
"""

from __future__ import annotations

import random
from typing import Any

from loopback.replies import Reply
from rules.battle import MAX_SIDES, MAX_UNITS
from rules.coords import Cell
from rules.orders import AddUnit
from rules.systems.strategic.statblock import MAX_WEAPONS
from rules.turnorders import SetTurnMode
from rules.units import NAME_MAX
from tests.e2e.action_helpers import components, option_values, press, private
from tests.e2e.combat_helpers import give
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import posted, prompts, stored


def long(prefix: str, i: int) -> str:
    """Return a name of exactly 64 characters ending in a number."""
    tail = f" {i:03d}"
    return (prefix + " " + "x" * NAME_MAX)[: NAME_MAX - len(tail)] + tail


def rifle(i: int) -> dict[str, Any]:
    """Return a long-named rifle that reaches across the map."""
    return {"name": long("Positron Rifle of the Long Night", i), "range": 500, "damage": "1d10", "type": "I"}


async def biggest(table: Table) -> None:
    """Set up 400 units of 8 sides with the longest names on 100x100; alice commands the first side."""
    await table.slash("battle new", name=long("Battle of the Endless Plain", 1), ruleset="strategic-e",
                      width=100, height=100)
    await give(table, SetTurnMode(mode="initiative"))
    rng = random.Random(5)
    for i in range(MAX_UNITS):
        side = long("Grand Army", i % MAX_SIDES)
        stats: dict[str, Any] = {"ag": 60, "bs": 40, "weapons": [rifle(n) for n in range(MAX_WEAPONS if i < 2 else 1)],
                                 "statuses": ["pinned", "prone"]}
        at = Cell(50, 50) if i == 0 else Cell(rng.randrange(100), rng.randrange(100))
        owner = table.alice.id if i % MAX_SIDES == 0 else table.bob.id
        await give(table, AddUnit(name=long("Regiment", i), side=side, at=at, owner=owner, stats=stats))


def fine(table: Table, reply: Reply) -> Reply:
    """Check a reply came and Discord accepted everything so far."""
    assert reply.messages, "the bot answered nothing"
    assert table.discord.rejections == []
    return reply


async def test_every_reply_fits_at_the_largest_battle(table: Table) -> None:
    await biggest(table)
    unit = long("Regiment", 0)
    for command, options in (
        ("battle info", {}), ("battle list", {}), ("battle rules show", {}), ("unit info", {"unit": unit}),
        ("map text", {}), ("feature list", {}), ("help", {}),
    ):
        fine(table, await table.slash(command, user=table.alice, **options))
    await table.slash("battle start")
    [ping] = prompts(posted(table))
    assert len(ping.custom_ids()) <= 25 and ping.files
    fine(table, await table.slash("turn status", user=table.alice))
    fine(table, await table.slash("battle log", user=table.alice))
    fine(table, await table.slash("map show", user=table.alice))
    fine(table, await table.slash("move", user=table.alice, unit=unit))
    record = await stored(table)
    await give(table, SetTurnMode(mode="free"))
    moved = fine(table, await table.slash("move", user=table.alice, unit=unit, to="AY52", mode="half"))
    panel = last_message(moved)
    assert 20 <= len(panel.custom_ids()) <= 25, "twenty rifles in range fill the panel, within its 25 places"
    attacks = [c for c in components(panel) if c["type"] == 2 and c["label"].startswith("Attack")]
    assert len({c["label"] for c in attacks}) == len(attacks) == MAX_WEAPONS, "each rifle's button reads apart"
    targets = private(fine(table, await table.click(panel, attacks[0]["custom_id"], user=table.alice)))
    assert len(option_values(targets)) == 25
    squares = private(fine(table, await press(table, panel, "Move: half", table.alice)))
    assert option_values(squares)
    shot = fine(table, await table.slash("attack", user=table.alice, unit=unit, weapon=rifle(0)["name"],
                                         target=long("Regiment", 1)))
    assert not last_message(shot).ephemeral, text_of(shot)
    fine(table, await table.gm_slash("battle export"))
    question = private(fine(table, await table.gm_slash("gm end")))
    ended = fine(table, await table.click(question, f"bp:ok:{record.id}:end"))
    # Ending the largest battle draws its whole map and its statistics before the summary is posted: on a busy
    # machine that can outlast the stand-in's quiet spell, so wait for the post itself.
    await table.discord.until(lambda: "Battle over" in text_of(ended) or ended.followups, "the battle's summary")
    assert "Battle over" in text_of(ended) or ended.followups[-1].files
