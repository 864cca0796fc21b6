"""A GM's own M42 actions through slash commands: imported with /battle rules import, offered by /action and My
options with their distance, taken like Advance, listed by /battle rules show, kept through a restart, undo and
export/import; bad tables refused line by line."""

from __future__ import annotations

import json

import pytest

from rules.coords import Cell
from rules.replay import same_state
from rules.systems.m42.kinds import actions_of
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import EXAMPLES, gm_imports_homebrew, refused, stored, stored_battle
from tests.e2e.turn_helpers import posted, prompts

ACTIONS = EXAMPLES / "m42" / "actions.toml"


def actions_file(text: str | None = None, name: str = "actions.toml") -> tuple[str, bytes]:
    """Return a homebrew attachment (the example table unless a text is given)."""
    return (name, (text if text is not None else ACTIONS.read_text(encoding="utf-8")).encode())


@pytest.fixture
async def m42(table: Table) -> Table:
    """Return the table with an open M42 field: Alpha (Ld 3, one model) for alice on C5, Ghost for bob on X5."""
    await table.slash("battle new", name="Open Field", ruleset="m42", width=26, height=10)
    await table.slash("unit add", name="Alpha", side="Red", at="C5", owner=table.alice, ld=3, models=1)
    await table.slash("unit add", name="Ghost", side="Blue", at="X5", owner=table.bob, ld=3, models=1)
    return table


async def offered(table: Table, current: str) -> list[tuple[str, str]]:
    """Return what /action's autocomplete offers alice: (label, value) pairs."""
    found = await table.discord.autocomplete("action", "action", current, user=table.alice, channel=table.channel)
    return [(c["name"], c["value"]) for c in found]


async def test_gm_imports_actions_and_they_are_listed_and_offered(m42: Table) -> None:
    table = m42
    text = await gm_imports_homebrew(table, actions_file())
    assert "Homebrew imported from actions.toml" in text and "Actions (2)" in text and "/action" in text
    listing = text_of(await table.slash("battle rules show", user=table.bob))
    assert "**Forced March** (`forced-march`): 9\"; its distance is `forced_march_inches`" in listing
    assert "**Charge** (`charge`): 4\", an assault: it may close within the standoff (A93)" in listing
    assert "`forced_march_inches` = **9** [homebrew]" in listing
    assert await offered(table, "forc") == [("Forced March (9\")", "forced-march")]
    assert ("At-The-Double (12\")", "at-the-double") in await offered(table, "")
    modes = await table.discord.autocomplete("move", "mode", "charg", user=table.alice, channel=table.channel)
    assert [c["value"] for c in modes] == ["charge"]
    assert table.discord.rejections == []


async def test_a_homebrew_action_is_taken_shown_in_my_options_and_set_by_the_gm(m42: Table) -> None:
    """A89: "Other actions are configurable". One square is one inch: Forced March (9") from C5 ends at L5, not M5."""
    table = m42
    await table.slash("battle rules import", file=actions_file())
    await table.slash("battle start")
    record = await stored(table)
    [prompt] = prompts(posted(table))
    options = text_of(await table.click(prompt, f"bp:opts:{record.id}:Alpha", user=table.alice))
    assert "**Forced March**: 9\", 4.5\" through area terrain" in options
    assert "**Charge**: 4\", 2\" through area terrain" in options and "(an assault" in options
    await refused(table, "action", "cannot forced-march to M5", user=table.alice, unit="Alpha",
                  action="forced-march", to="M5")
    moved = await table.slash("action", user=table.alice, unit="Alpha", action="forced-march", to="L5")
    assert not last_message(moved).ephemeral and "Alpha: Forced March C5 \u2192 L5, 9\" of 9\"" in text_of(moved)
    assert (await stored_battle(table)).unit("Alpha").cell == Cell.parse("L5")
    await table.slash("battle rules set", key="forced_march_inches", value="12")
    assert await offered(table, "forc") == [("Forced March (12\")", "forced-march")]
    await refused(table, "battle rules set", "must be between 1 and 48", key="forced_march_inches", value="60")


async def test_actions_survive_a_restart_undo_and_export_import(m42: Table) -> None:
    table = m42
    await table.slash("battle rules import", file=actions_file())
    await table.slash("battle start")
    await table.restart()
    moved = await table.slash("move", user=table.alice, unit="Alpha", to="L5", mode="forced-march")
    assert not last_message(moved).ephemeral, text_of(moved)
    export = await table.slash("battle export")
    data = last_message(export).files[0].data
    document = json.loads(data)
    other = table.discord.add_channel(table.discord.guild, "archive")
    await table.discord.slash("battle import", user=table.gm, channel=other, options={"file": ("war.json", data)})
    await table.settle()
    imported = await table.db.battles.in_channel(table.discord.guild.id, other.id)
    assert imported is not None and same_state(imported.state, document["final_state"])
    assert imported.state["homebrew"]["action"][0]["key"] == "forced_march"
    await table.gm_slash("gm undo", count=3)
    battle = await stored_battle(table)
    assert battle.homebrew == {} and "forced-march" not in actions_of(battle)
    assert await offered(table, "forc") == []


@pytest.mark.parametrize(("text", "fragment"), [
    ('[[action]]\nkey = "dash"\nname = \n', "not valid TOML: Invalid value (at line 3"),
    ('[[action]]\nkey = "dash"\nname = "Dash"\ninches = 8\nshooting = true\n',
     "Line 5 ([[action]] #1 `dash`), field `shooting`: not a field of a homebrew action"),
    ('[[action]]\nkey = "dash"\nname = "Dash"\ninches = -2\n', "field `inches`: -2 is negative"),
    ('[[action]]\nkey = "dash"\nname = "Dash"\ninches = 1000\n', "field `inches`: 1000 is outside 1 to 48"),
    ('[[action]]\nkey = "advance"\nname = "Dash"\ninches = 8\n', "`advance` is Advance, a built-in action of m42"),
    ('[[action]]\nkey = "dash"\nname = "Assault"\ninches = 8\n', "\"Assault\" is the name of a built-in action"),
    ('[[terrain]]\nkey = "scree"\nname = "Scree"\nchar = "S"\n', "takes no homebrew terrain"),
])
async def test_bad_tables_are_refused_and_change_nothing(m42: Table, text: str, fragment: str) -> None:
    await refused(m42, "battle rules import", fragment, file=actions_file(text, "bad.toml"))


async def test_a_table_over_256_kib_is_refused(m42: Table) -> None:
    big = "# padding\n" * (27 * 1024)
    await refused(m42, "battle rules import", "may be at most 256 KiB", file=actions_file(big))
    assert (await stored(m42)).state.get("homebrew") is None
