"""Two simulated weeks of a battle with an absent player, civil disorder, a substitute, a daily digest and
restarts: nothing is lost or doubled."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_turn, message_text, posted, stored, stored_battle


def titled(table: Table, title: str) -> list[object]:
    """Return the channel's posts whose embed title starts with a text."""
    return [m for m in posted(table) if any(e.get("title", "").startswith(title) for e in m.embeds)]


def digests(table: Table) -> int:
    """Return how many daily digests bob got."""
    return sum("Your daily digest" in message_text(m) for m in table.discord.messages(table.discord.dm_channel(table.bob)))


async def test_a_fortnight_with_an_absent_player_and_a_substitute(table: Table) -> None:
    await table.setup_battle()
    await table.slash("unit add", name="Ramiel", side="Angels", at="P12", owner=table.carol, ag=40)
    await table.slash("battle start")
    await table.gm_slash("gm deadline", hours=24)
    await table.gm_slash("gm policy", policy="hold")
    dave = table.discord.add_user("dave")
    await table.discord.slash("settings digest", user=table.bob, channel=table.discord.dm_channel(table.bob),
                              options={"mode": "on"})
    record = await stored(table)
    substitute_in = False
    sent_at: list[float] = []  # the (fake) times bob's digests went out
    for day in range(14):
        # Most of a day passes with the NERV phase open (bob's digest goes out on the way), then they play.
        before = digests(table)
        await table.tick(hours=20)
        sent_at += [table.clock()] * (digests(table) - before)
        battle = await stored_battle(table)
        if substitute_in and battle.unit("Eva-01").owner == dave.id:
            await end_turn(table, user=dave)
        await end_turn(table, user=table.bob)
        if (await table.db.clocks.get(record.id)).turn_key == f"{battle.round}|side|NERV":
            before = digests(table)
            await table.tick(hours=5)  # alice's deadline passes
            sent_at += [table.clock()] * (digests(table) - before)
        await end_turn(table, user=table.carol)
        await end_turn(table, user=table.gm, unit="Sachiel")
        if day == 3 and not substitute_in:
            [post] = titled(table, "Civil disorder")
            free = next(c for c in post.custom_ids() if c.startswith("bp:cdfree:"))
            await table.click(post, free, user=table.carol)
            [seat] = titled(table, "A seat is free")
            await table.click(seat, next(c for c in seat.custom_ids() if c.startswith("bp:seat:")), user=dave)
            substitute_in = True
        if day % 3 == 2:
            await table.restart()
    # alice missed days 0 and 1, fell into disorder once, and her units played by themselves until dave came.
    assert len(titled(table, "Civil disorder")) == 1 and len(titled(table, "A seat is free")) == 1
    absence = await table.db.seats.absence(record.id, table.alice.id)
    assert absence.missed_total == 2
    battle = await stored_battle(table)
    assert battle.unit("Eva-01").owner == dave.id and battle.round >= 14
    events = await table.db.events.list(record.id, limit=10_000, newest_first=False)
    assert any(e.actor_id == dave.id and e.kind == "end-turn" for e in events)
    assert not any(e.actor_id == table.alice.id for e in events)
    # bob's digest (08:00 in his zone, UTC): at the first scheduler pass from then on, one a day at most.
    assert len(sent_at) == digests(table) >= 7
    days = [datetime.fromtimestamp(moment, tz=UTC).date() for moment in sent_at]
    assert len(set(days)) == len(days)
    assert all(later - earlier <= 48 * 3600 for earlier, later in itertools.pairwise(sent_at))
    # Each tenure keeps its numbers: alice her two missed deadlines and no order, dave his orders.
    stats = await table.slash("battle stats", user=table.bob)
    lines = {line.split(":")[0]: line for line in text_of(stats).splitlines()}
    assert last_message(stats).ephemeral and "2 missed deadlines" in lines[f"<@{table.alice.id}>"]
    assert "0 orders" in lines[f"<@{table.alice.id}>"] and "0 missed deadlines" in lines[f"<@{dave.id}>"]
