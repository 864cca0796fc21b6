"""Action panels and menus at Discord's limits: 400 units on 100x100, 64-character names, dozens of weapons."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

from bot.service import TableService
from cogs.actions.areas import MENU, split, within
from cogs.actions.choosers import square_chooser, target_chooser
from cogs.common.action_items import Ref
from cogs.common.action_panel import panel_view
from cogs.common.actions import action_groups
from cogs.common.map_button import with_map_button
from rules.battle import MAX_UNITS, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Start
from rules.systems.strategic.statblock import MAX_WEAPONS
from rules.turnorders import SetTurnMode
from rules.units import NAME_MAX
from storage import Database

EMBED_TOTAL = 6000
LONG = "W" * (NAME_MAX - 4)


def weapon(i: int) -> dict[str, Any]:
    """Return a long-named rifle that reaches across the map."""
    return {"name": f"{LONG}{i:03d}"[-NAME_MAX:], "range": 500, "damage": "1d10", "type": "I"}


def biggest() -> Battle[Any]:
    """Return a 100x100 battle of 400 units with the longest names; the first carries the most long-named weapons a unit may."""
    b = Battle.new("strategic-e", 100, 100, "B" * NAME_MAX)
    b.apply(SetTurnMode(mode="free"), Dice.seeded(0))
    rng = random.Random(3)
    for i in range(MAX_UNITS):
        stats: dict[str, Any] = {"ag": 60, "bs": 40}
        if i == 0:
            stats["weapons"] = [weapon(n) for n in range(MAX_WEAPONS)]
        name = f"{'Unit with a very long name indeed'}{'x' * NAME_MAX}"[: NAME_MAX - 4] + f"{i:04d}"
        at = Cell(50, 50) if i == 0 else Cell(rng.randrange(100), rng.randrange(100))
        b.apply(AddUnit(name=name, side=f"Side {i % 2} " + "s" * 40, at=at, stats=stats), Dice.seeded(0))
    b.apply(Start(), Dice.seeded(0))
    return b


@pytest.fixture(scope="module")
def battle() -> Battle[Any]:
    return biggest()


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "limits.sqlite3")
    try:
        yield TableService(db)
    finally:
        await db.close()


def embed_size(embed: discord.Embed) -> int:
    """Return the characters Discord counts toward an embed's 6,000."""
    data = embed.to_dict()
    return (len(data.get("title", "")) + len(data.get("description", "")) + len(data.get("footer", {}).get("text", ""))
            + sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", [])))


def check_view(view: discord.ui.View) -> None:
    """Assert a view is one Discord accepts: 5 rows of 5, labels of 80, 25 options of 100, ids of 100."""
    rows = view.to_components()
    assert len(rows) <= 5 and sum(len(r["components"]) for r in rows) <= 25
    for row in rows:
        for c in row["components"]:
            assert len(c["custom_id"]) <= 100
            if c["type"] == 2:
                assert len(c.get("label", "")) <= 80
            else:
                assert 1 <= len(c["options"]) <= 25 and len(c.get("placeholder", "")) <= 150
                assert all(len(o["label"]) <= 100 and len(o.get("description", "")) <= 100 for o in c["options"])
                assert len({o["value"] for o in c["options"]}) == len(c["options"])


def test_a_panel_with_more_actions_than_buttons_keeps_the_rest_in_a_menu(battle: Battle[Any]) -> None:
    unit = battle.unit("u1")
    groups = action_groups(battle, unit)
    assert len(groups) > 25
    view = panel_view(2**40, unit.id, groups)
    assert view is not None
    check_view(view)
    shown = [c for row in view.to_components() for c in row["components"]]
    buttons = [c for c in shown if c["type"] == 2]
    menus = [c for c in shown if c["type"] == 3]
    assert len(menus) == 1 and len(buttons) + len(menus[0]["options"]) == min(len(groups), 19 + 25)
    assert any(b["label"].startswith("End turn") for b in buttons), "ending the turn stays a button"
    with_map_button(view, 2**40)
    check_view(view)
    ids = [c["custom_id"] for row in view.to_components() for c in row["components"]]
    assert f"bp:map:{2**40}" in ids, "a Whole map button still finds room"


async def test_square_menus_narrow_until_they_fit(battle: Battle[Any], service: TableService) -> None:
    unit = battle.unit("u1")
    run = next(g for g in action_groups(battle, unit) if g.label.startswith("Move: run"))
    assert len(run.squares()) > 20 * MENU, "a run across an open 100x100 map reaches hundreds of squares"
    ref = Ref(2**40, unit.id, run.key, 2**63 - 1)
    embed, png, view = await square_chooser(service, battle, ref, unit, run)
    check_view(view)
    assert view.to_components()[0]["components"][0]["custom_id"].startswith("bp:ar:"), "areas come first"
    assert embed_size(embed) <= EMBED_TOTAL and png is not None and len(png.png) < 10 * 1024 * 1024
    areas = split(run.squares())
    cells = run.squares()
    steps = 1
    while len(cells) > MENU:
        areas = split(cells)
        assert len(areas) <= MENU and sum(len(a.cells) for a in areas) == len(cells)
        assert all(a.holds(c) for a in areas for c in a.cells)
        cells = within(cells, areas[-1])
        steps += 1
    assert steps <= 3
    _embed, _png, last = await square_chooser(service, battle, ref, unit, run, areas[-1])
    check_view(last)


async def test_target_menus_list_the_nearest_25(battle: Battle[Any], service: TableService) -> None:
    unit = battle.unit("u1")
    rifle = next(g for g in action_groups(battle, unit) if g.choosing == "unit")
    assert len(rifle.targets()) > MENU
    embed, _png, view = await target_chooser(service, battle, Ref(2**40, unit.id, rifle.key, 2**63 - 1), unit, rifle)
    check_view(view)
    assert embed_size(embed) <= EMBED_TOTAL and "The 25 nearest of" in (embed.description or "")
