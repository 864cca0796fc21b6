"""The end summary of a Surface battle tells the battle its reports told: each number is checked against them."""

from __future__ import annotations

import re

from loopback.models import StoredMessage
from tests.e2e.conftest import Table, embed_text, text_of
from tests.e2e.turn_helpers import confirmed, message_text, new_since, posted

SIDES = ("Marines", "Rebels")
UNITS = {"Marines": ("Hammer", "Titan"), "Rebels": ("Cell 7", "Old Guard")}


def side_field(message: StoredMessage, side: str) -> str:
    """Return a side's field of a message's first embed."""
    [value] = [f["value"] for f in message.embeds[0]["fields"] if f["name"] == side]
    return str(value)


def counted(units_line: str) -> int:
    """Return how many units a `Units: 1 fought on, 1 routed and rallied` line counts."""
    return sum(int(n) for n in re.findall(r"(\d+) [a-z]", units_line.split("Units: ", 1)[1].split("\n")[0]))


async def fight_to_the_end(table: Table) -> list[StoredMessage]:
    """Plan and fight game turns until the battle is over by its rules; return every posted report."""
    await table.slash("battle new", name="Landing at Kessel", ruleset="surface")
    # Cell 7 breaks easily and never rallies: a routed unit that disintegrates after the battle.
    for name, side, kind, owner, ratings in (
            ("Hammer", "Marines", "space-marines", table.alice, '{"morale": 9}'),
            ("Titan", "Marines", "battleoids", table.alice, '{"morale": 9}'),
            ("Cell 7", "Rebels", "rebels", table.bob, '{"morale": 1, "rally": 0}'),
            ("Old Guard", "Rebels", "armor", table.bob, '{"morale": 9}')):
        await table.slash("surface add", name=name, side=side, **{"type": kind}, owner=owner, ratings=ratings)
    await table.slash("battle start")
    reports: list[StoredMessage] = []
    for _ in range(8):
        before = posted(table)
        await table.slash("surface plan", user=table.alice, side="Marines", intensity=0)
        await table.slash("surface plan", user=table.bob, side="Rebels", intensity=0)
        new = new_since(table, before)
        reports += [m for m in new if m.embeds and "Round 1" in embed_text(m.embeds[0])]
        if any("Battle over?" in message_text(m) for m in new):
            return reports
        await table.slash("surface next-turn")
    raise AssertionError("eight game turns and no side beaten")


async def test_the_summary_agrees_with_every_report_of_the_battle(table: Table) -> None:
    reports = await fight_to_the_end(table)
    logs = [embed_text(m.embeds[0]) for m in reports]
    assert all("Log page 1/1" in log for log in logs), "each engagement's whole log is on its one page"
    # What the reports say: rounds fought, each side's losses, every unit's damage and who fell.
    rounds = [int(re.search(r"(\d+) fought of \d+ planned", log).group(1)) for log in logs]  # type: ignore[union-attr]
    lost = {s: sum(int(re.search(r"lost (\d+)/\d+ damage points", side_field(m, s)).group(1))  # type: ignore[union-attr]
                   for m in reports) for s in SIDES}
    taken = {u: sum(int(n) for log in logs for n in re.findall(rf"fires at \*\*{re.escape(u)}\*\*[^\n]*?damage (\d+) ", log))
             for side in SIDES for u in UNITS[side]}
    fell = {u for log in logs for u in sum(UNITS.values(), ())
            if re.search(r"damage \d+ \u2192 destroyed", "\n".join(line for line in log.split("\n")
                                                                  if f"fires at **{u}**" in line))
            or f"After the battle, **{u}** disintegrates" in log}
    for m in reports:  # each unit is counted once in a report's fates
        for side in SIDES:
            field = side_field(m, side)
            assert counted(field) <= len(UNITS[side]), field
    # Each report's chart shows as many rounds as the report says were fought, ending at the side's losses.
    for m, fought in zip(reports, rounds, strict=True):
        alt = m.files[0].description or ""
        for side in SIDES:
            columns = re.findall(r"(round \d+|after the battle): (\d+)", alt.split(f"{side}: ", 1)[1].split(".")[0])
            assert [c for c, _ in columns if c.startswith("round")] == [f"round {n}" for n in range(1, fought + 1)], alt
            assert int(columns[-1][1]) == int(re.search(r"lost (\d+)/", side_field(m, side)).group(1)), alt  # type: ignore[union-attr]

    ended = await confirmed(table, await table.slash("battle end"))
    summary = [m for m in ended.messages if m.embeds and "Battle over: Landing at Kessel" in embed_text(m.embeds[0])]
    assert summary, text_of(ended)
    text = embed_text(summary[-1].embeds[0])
    total = sum(rounds)
    assert f"Fought over **{total} round{'s' if total != 1 else ''}** in {len(reports)} engagement" in text
    for side in SIDES:
        field = side_field(summary[-1], side)
        assert f"lost {lost[side]} damage point" in field
        casualties = [u for u in UNITS[side] if u in fell]
        assert f"Casualties ({len(casualties)})" in field and f"Survivors ({len(UNITS[side]) - len(casualties)})" in field
        assert counted(field) == len(UNITS[side])
        for unit in UNITS[side]:
            said = re.search(rf"{re.escape(unit)} \([^)]*took (\d+) damage point", field)
            assert said is not None and int(said.group(1)) == taken[unit], (unit, taken[unit], field)
    assert (await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)) is None
