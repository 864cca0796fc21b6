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

