"""Over-long text a player types or a file holds is always answered, privately, within Discord's limits.

Discord refuses a message over 2,000 characters or an embed description over 4,096; a refusal that quoted
all of what was typed would then never arrive, and the user would see "thinking..." for ever.
"""

from __future__ import annotations

import pytest

from loopback.limits import MAX_CONTENT
from rules.units import NAME_MAX
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.setup_helpers import refused

HUGE = "x" * 10_000


def answered(table: Table, text: str) -> str:
    """Check the answer reached Discord whole and fits its limits."""
    assert table.discord.rejections == [], table.discord.rejections
    assert text.strip(), "the bot answered nothing"
    assert "Sorry, something went wrong" not in text
    return text


async def test_a_rule_value_of_two_thousand_characters_is_refused_shortly(table: Table) -> None:
    await table.setup_battle(ruleset="strategic-p")
    reply = await refused(table, "battle rules set", "`fp_per_ib` is a whole number", key="fp_per_ib", value="9" * 1999 + "x")
    text = answered(table, text_of(reply))
    assert len(last_message(reply).content) <= MAX_CONTENT and "9" * 100 not in text


@pytest.mark.parametrize("kind", ["unit", "side"])
async def test_a_ten_thousand_character_name_in_a_stat_block_file_names_its_line(table: Table, kind: str) -> None:
    await table.slash("battle new", name="Import Test", ruleset="strategic-p", width=20, height=15)
    name, side = (HUGE, "NERV") if kind == "unit" else ("Eva", HUGE)
    body = f'[[unit]]\nname = "Rei"\nside = "NERV"\nat = "A1"\n\n[[unit]]\nname = "{name}"\nside = "{side}"\nat = "B2"\n'
    line = "Line 7" if kind == "unit" else "Line 8"
    reply = await refused(table, "unit import", line, file=("units.toml", body.encode()))
    text = answered(table, text_of(reply))
    assert str(NAME_MAX) in text and HUGE[:200] not in text



LONG = "Zz9`<@1>" * 700  # 5,600 characters: near Discord's 6,000 for a text option, with a backtick and a mention


@pytest.mark.parametrize(("command", "options"), [
    ("gm set", {"unit": LONG, "field": "ag", "value": "5"}),
    ("gm set", {"unit": "Eva-01", "field": "owner", "value": "9" * 1000}),
    ("gm set", {"unit": "Eva-01", "field": "owner", "value": "9999999999999999999999"}),
    ("gm set", {"unit": "Eva-01", "field": "armour.head", "value": "[" * 1000}),
    ("move", {"unit": LONG, "to": "C4"}),
    ("range", {"to": "C4", "weapon": LONG, "unit": "Eva-01"}),
    ("map paint", {"terrain": LONG, "from": "A1"}),
    ("map paint", {"terrain": "forest", "cells": LONG}),
    ("unit edit", {"unit": "Eva-01", "stats": LONG}),
    ("unit edit", {"unit": LONG, "stats": "ag=40"}),
    ("unit add", {"name": "Shamshel", "side": "Angels", "at": "D4", "stats": "ag=" + "9" * 5000}),
    ("battle rules set", {"key": LONG, "value": LONG}),
    ("feature place", {"type": LONG, "at": "D4", "side": "NERV"}),
    ("feature place", {"type": "trench", "at": "D4", "side": LONG}),
])
@pytest.mark.parametrize("slow", [False, True], ids=["quick", "deferred"])
async def test_every_deferring_command_answers_over_long_input(table: Table, command: str,
                                                               options: dict[str, object], slow: bool) -> None:
    """Each command that may defer ends with a private refusal that Discord takes, quoting little of the input.

    Deferred, the refusal is a follow-up message, which Discord rejected when it was too long: the user then saw
    "thinking..." for ever. The slow variant has the watchdog defer every command that awaits anything at once.
    """
    await table.setup_battle()
    if slow:
        assert table.discord.bot is not None
        table.discord.bot.answer_within = 0.0  # type: ignore[attr-defined]
    reply = await refused(table, command, "", **options)
    text = answered(table, text_of(reply))
    assert "Zz9`<@1>" * 30 not in text and "9" * 100 not in text, text[:300]
    assert all(len(m.content) <= MAX_CONTENT for m in reply.messages)


async def test_a_ten_thousand_character_unit_name_in_a_battle_export(table: Table) -> None:
    from tests.e2e.test_import_limits import encoded, import_refused, small_export

    document = await small_export(table)
    raw = encoded(document).replace(b"Eva-01", b"E" * 10_000)
    text = await import_refused(table, raw, "The unit name is 10000 characters long; keep it to 64 or fewer")
    answered(table, text)
    assert "E" * 100 not in text and len(text) <= MAX_CONTENT
