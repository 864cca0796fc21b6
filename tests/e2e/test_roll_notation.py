"""/roll reads Avrae's notation in a battle and outside one, shows every die, and refuses what it cannot roll."""

from __future__ import annotations

import re

from cogs.common.embeds import roll_line
from tests.e2e.conftest import Table, last_message, text_of
from web.logview import plain


async def test_a_battle_roll_shows_each_die_and_logs_every_face(table: Table) -> None:
    await table.setup_battle()
    reply = await table.slash("roll", user=table.alice, dice="8d6rr1kh4 for the barrage")
    text = text_of(reply)
    assert "alice rolls" in text and "for the barrage" in text
    shown = re.search(r"8d6rr1kh4 \(([^)]*)\) = \*\*(\d+)\*\*", text)
    assert shown is not None, text
    dice = shown.group(1).split(", ")
    kept = [int(d) for d in dice if not d.startswith("~~")]
    assert len(kept) == 4 and sum(kept) == int(shown.group(2)), "the total is the sum of the dice not struck"
    assert all(d != "1" for d in kept), "a 1 is rolled again until it is not a 1"
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    [event] = await table.db.events.list(record.id, limit=1)
    [logged] = event.outcome["rolls"]
    assert len(logged["faces"]) == len(dice), "every die rolled is in the log, struck ones too"
    assert logged["notation"] == "8d6rr1kh4"
    # The web view's log reads the same breakdown: every die, the struck ones struck (a combining stroke).
    struck = re.sub(r"~~(\d+)~~", lambda m: "".join(c + "\u0336" for c in m[1]), shown.group(1))
    assert f"8d6rr1kh4 ({struck}) = {shown.group(2)}" in plain(roll_line(logged), lambda _id: None)


async def test_parentheses_and_products_outside_a_battle(table: Table) -> None:
    reply = await table.slash("roll", user=table.carol, dice="(1d6+2)*3 fire")
    text = text_of(reply)
    found = re.search(r"\(1d6 \((\d)\) \+ 2\) \* 3 = \*\*(\d+)\*\*", text)
    assert found is not None, text
    assert int(found.group(2)) == (int(found.group(1)) + 2) * 3 and "(fire)" in text


async def test_what_cannot_be_rolled_is_refused_privately_with_why(table: Table) -> None:
    await table.setup_battle()
    for dice, fragment in [("1d20 adv adv", "Say `adv` or `dis` once"),
                           ("99999999999d6", "Roll between 1 and 100 dice at a time"),
                           ("1d6e>0", "would explode every face of a d6 for ever"),
                           ("(1d6+2", "opens a parenthesis it does not close")]:
        reply = await table.slash("roll", user=table.alice, dice=dice)
        message = last_message(reply)
        assert message.ephemeral and fragment in text_of(reply), (dice, text_of(reply))
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    assert [e.kind for e in await table.db.events.list(record.id, limit=100)].count("roll") == 0
