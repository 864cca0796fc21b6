"""Substitutes: a seat freed with /seat release is taken with its Take seat button; each tenure stays apart."""

from __future__ import annotations

import pytest

from bot.seats import release
from bot.service import SYSTEM_USER_ID, Actor
from rules.errors import IllegalOrderError
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_turn, message_text, new_since, posted, prompts, stored, stored_battle


async def start(table: Table) -> None:
    """Start the standard battle with carol commanding an Angel."""
    await table.setup_battle()
    await table.slash("unit add", name="Ramiel", side="Angels", at="P12", owner=table.carol, ag=40)
    await table.slash("battle start")


def take_button(message: object) -> str:
    """Return the Take seat button's custom id on a seat's post."""
    ids = [c for c in message.custom_ids() if c.startswith("bp:seat:")]  # type: ignore[attr-defined]
    assert len(ids) == 1, ids
    return ids[0]


async def test_a_substitute_takes_a_freed_seat_with_its_units_and_pings(table: Table) -> None:
    await start(table)
    dave = table.discord.add_user("dave")
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    freed = await table.slash("seat release", user=table.alice)
    post = last_message(freed)
    assert not post.ephemeral and "A seat is free: NERV" in text_of(freed)
    assert (await stored_battle(table)).unit("Eva-01").owner is None

    version = (await stored(table)).version
    twice = await table.slash("seat release", user=table.alice)
    assert last_message(twice).ephemeral and "already free, waiting for a substitute" in text_of(twice)
    other_side = await table.click(post, take_button(post), user=table.carol)
    assert last_message(other_side).ephemeral and "You already command angels in this battle" in text_of(other_side)
    assert (await stored(table)).version == version

    taken = await table.click(post, take_button(post), user=dave)
    assert "dave took this seat" in text_of(taken)
    assert last_message(taken).custom_ids() == []
    assert (await stored_battle(table)).unit("Eva-01").owner == dave.id
    await table.slash("move", user=dave, unit="Eva-01", to="D4")

    # Each tenure apart in the log: alice's move and release, then dave's seat and move.
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=100, newest_first=False)
    played = [(e.kind, e.actor_id) for e in events if e.kind in ("move", "edit-unit")]
    assert played == [("move", table.alice.id), ("edit-unit", table.alice.id), ("edit-unit", dave.id),
                      ("move", dave.id)]

    # The next NERV phase calls dave, not alice.
    before = posted(table)
    await end_turn(table, user=dave)
    await end_turn(table, user=table.bob)
    await end_turn(table, user=table.carol)
    await end_turn(table, user=table.gm, unit="Sachiel")
    nerv = [p for p in prompts(new_since(table, before)) if "NERV" in p.content]
    assert nerv and nerv[-1].pings.users == {dave.id, table.bob.id}
    [seat] = await table.db.seats.of_battle(record.id)
    assert (seat.user_id, seat.status, seat.taken_by) == (table.alice.id, "taken", dave.id)


async def test_with_approval_on_the_gm_lets_the_substitute_in(table: Table) -> None:
    await start(table)
    dave = table.discord.add_user("dave")
    await table.slash("seat approval", mode="on")
    refused = await table.slash("seat release", user=table.alice, player=table.bob)
    assert last_message(refused).ephemeral and "Only a GM can free another player's seat" in text_of(refused)
    assert (await stored_battle(table)).unit("Eva-02").owner == table.bob.id

    freed = await table.slash("seat release", player=table.bob)
    assert "The GM freed the seat" in text_of(freed)
    post = last_message(freed)
    asked = await table.click(post, take_button(post), user=dave)
    assert "dave asks to take this seat" in text_of(asked)
    assert (await stored_battle(table)).unit("Eva-02").owner is None
    message = last_message(asked)
    [approve] = [c for c in message.custom_ids() if c.startswith("bp:seatok:")]
    by_player = await table.click(message, approve, user=table.alice)
    assert last_message(by_player).ephemeral and "Only a GM can approve a substitute" in text_of(by_player)
    await table.click(message, approve, user=table.gm)
    assert (await stored_battle(table)).unit("Eva-02").owner == dave.id


async def test_releasing_without_a_seat_changes_nothing(table: Table) -> None:
    await start(table)
    outsider = table.discord.add_user("erin")
    version = (await stored(table)).version
    none = await table.slash("seat release", user=outsider)
    assert last_message(none).ephemeral and "You command no unit in this battle" in text_of(none)
    assert (await stored(table)).version == version


async def missed_twice(table: Table) -> None:
    """Let alice miss two NERV deadlines in a row (the default for civil disorder) while everyone else plays."""
    await table.gm_slash("gm deadline", hours=24)
    await table.gm_slash("gm policy", policy="hold")
    for _ in range(2):
        await end_turn(table, user=table.bob)
        await table.tick(hours=25)
        await end_turn(table, user=table.carol)
        await end_turn(table, user=table.gm, unit="Sachiel")


def disorder_posts(table: Table, before: list[object]) -> list[object]:
    """Return the civil disorder posts made since a snapshot."""
    return [m for m in new_since(table, before) if any("Civil disorder" in e.get("title", "") for e in m.embeds)]


async def test_two_missed_deadlines_bring_civil_disorder_until_the_player_acts(table: Table) -> None:
    await start(table)
    before = posted(table)
    await missed_twice(table)
    [post] = disorder_posts(table, before)
    assert "Civil disorder: NERV" in message_text(post) and f"<@{table.alice.id}> let 2 deadlines" in message_text(post)
    assert post.pings.users == set()
    record = await stored(table)
    absence = await table.db.seats.absence(record.id, table.alice.id)
    assert (absence.missed, absence.missed_total) == (2, 2) and absence.disorder_since is not None

    # Round 3's NERV phase: Eva-01 played its standing order at once, by the bot; bob is still due.
    events = await table.db.events.list(record.id, limit=5)
    assert (events[0].kind, events[0].actor_id) == ("standing-turn", SYSTEM_USER_ID)
    battle = await stored_battle(table)
    assert battle.round == 3
    await table.restart()
    # Eva-01's turn is played this round; a standing order is an order of alice's all the same.
    await table.slash("turn standing", user=table.alice, unit="Eva-01", order="hold")
    back = [m for m in new_since(table, before) if "civil disorder is over" in m.content]
    assert len(back) == 1
    absence = await table.db.seats.absence(record.id, table.alice.id)
    assert (absence.missed, absence.missed_total, absence.disorder_since) == (0, 2, None)


async def test_the_other_players_remove_an_absent_player(table: Table) -> None:
    await start(table)
    erin = table.discord.add_user("erin")
    before = posted(table)
    await missed_twice(table)
    [post] = disorder_posts(table, before)
    free = next(c for c in post.custom_ids() if c.startswith("bp:cdfree:"))
    remove = next(c for c in post.custom_ids() if c.startswith("bp:cdout:"))
    outsider = await table.click(post, remove, user=erin)
    assert last_message(outsider).ephemeral and "Only the GM or a player of this battle" in text_of(outsider)
    assert (await stored_battle(table)).unit("Eva-01").owner == table.alice.id
    removed = await table.click(post, remove, user=table.carol)
    assert "carol removed" in text_of(removed)
    assert (await stored_battle(table)).unit("Eva-01").owner is None
    # The post's buttons went with the decision; a press arriving anyway (another process) changes nothing.
    assert next(m for m in posted(table) if m.id == post.id).custom_ids() == []
    record = await stored(table)
    assert (await table.db.seats.absence(record.id, table.alice.id)).disorder_since is None
    bob = Actor(user_id=table.bob.id, guild_id=record.guild_id, name="bob")
    with pytest.raises(IllegalOrderError, match="is not in civil disorder any more"):
        await release(table.service, bob, record, table.alice.id, absent=True)
    assert free.startswith("bp:cdfree:") and (await stored(table)).version == record.version


async def test_an_absent_players_seat_goes_to_a_substitute(table: Table) -> None:
    await start(table)
    dave = table.discord.add_user("dave")
    before = posted(table)
    await missed_twice(table)
    [post] = disorder_posts(table, before)
    free = next(c for c in post.custom_ids() if c.startswith("bp:cdfree:"))
    await table.click(post, free, user=table.bob)
    [seat_post] = [m for m in new_since(table, before) if any("A seat is free" in e.get("title", "") for e in m.embeds)]
    await table.click(seat_post, take_button(seat_post), user=dave)
    assert (await stored_battle(table)).unit("Eva-01").owner == dave.id


async def test_the_substitute_joins_the_side_thread_and_the_player_who_left_leaves_it(table: Table) -> None:
    await start(table)
    dave = table.discord.add_user("dave")
    await table.gm_slash("gm side-threads", on=True)
    [nerv] = [t for t in table.discord.threads(table.channel) if t.name.endswith("\u00b7 NERV")]
    assert table.alice.id in nerv.members and dave.id not in nerv.members
    freed = await table.slash("seat release", user=table.alice)
    post = last_message(freed)
    assert table.alice.id not in nerv.members
    await table.click(post, take_button(post), user=dave)
    assert dave.id in nerv.members and table.alice.id not in nerv.members
    assert table.discord.can_read(dave, nerv)


async def test_a_deadline_passing_while_the_player_is_on_vacation_is_not_missed(table: Table) -> None:
    await start(table)
    # No allowance left to move deadlines: both pass while alice is away, yet she is away by leave, not absent.
    await table.gm_slash("gm vacation-allowance", days=0)
    away = await table.slash("vacation start", user=table.alice, **{"from": "2025-06-15", "to": "2025-06-25"})
    assert last_message(away).ephemeral and "less than a minute of allowance left" in text_of(away), text_of(away)
    before = posted(table)
    await missed_twice(table)
    record = await stored(table)
    absence = await table.db.seats.absence(record.id, table.alice.id)
    assert (absence.missed, absence.missed_total, absence.disorder_since) == (0, 0, None)
    assert disorder_posts(table, before) == []
    # Back early, the next deadline she lets pass counts: the exemption lasts only as long as the vacation.
    await table.slash("vacation end", user=table.alice)
    await end_turn(table, user=table.bob)
    await table.tick(hours=25)
    absence = await table.db.seats.absence(record.id, table.alice.id)
    assert (absence.missed, absence.missed_total) == (1, 1)
