"""Two simulated weeks of a battle with an absent player, civil disorder, a substitute, a daily digest and
restarts: nothing is lost or doubled."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.clock import due_now, due_sides
from rules.battle import Battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import (
    at,
    clock,
    end_turn,
    local,
    message_text,
    new_since,
    posted,
    stored,
    stored_battle,
)


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



BERLIN, NEW_YORK, TOKYO = "Europe/Berlin", "America/New_York", "Asia/Tokyo"


@dataclass(frozen=True)
class Ping:
    """A message that mentioned players: when, what caused it, the turn it was about, whom, and its text."""

    at: float
    cause: str  # "deadline", "reminder", another timer's kind, or the name of the player whose order began a turn
    turn: str | None
    users: frozenset[int]
    text: str


async def owners_due(table: Table) -> frozenset[int]:
    """Return who the side turn running now pings: the owners of its sides' units (the GM for an unowned one).

    A player in civil disorder is pinged all the same, though their units played their standing orders at once:
    an order of theirs would end it.
    """
    record = await stored(table)
    battle = Battle.from_dict(record.state)
    sides = {side.lower() for side in due_sides(battle)}
    return frozenset((unit.owner or record.created_by) for unit in battle.iter_units() if unit.side.lower() in sides)


async def test_a_fortnight_in_three_zones_pings_everyone_at_their_hour_once_through_disorder_and_downtime(
        table: Table) -> None:
    """The whole of a battle's life over two weeks, through the loopback, with restarts and a day of downtime.

    alice plays in Berlin, bob in New York, carol and (later) dave in Tokyo; the GM plays the unowned Angel from
    Berlin. Every turn ends at 20:00 Berlin at the latest, reminders come 2 h before, and nothing pings between
    22:00 and 07:00 Berlin. alice plays two days and vanishes: civil disorder, then dave takes her seat by its
    button. bob takes three days of vacation and a daily digest at 07:00 his time.
    """
    # Two weeks over both autumn changes: Berlin's on 25 October, New York's on 1 November; Tokyo keeps its time.
    table.clock.now = at(BERLIN, 2026, 10, 20, 7, 0)
    await table.setup_battle()
    await table.slash("unit add", name="Ramiel", side="Angels", at="P12", owner=table.carol, ag=40)
    dave = table.discord.add_user("dave")
    zones = {table.alice: BERLIN, table.bob: NEW_YORK, table.carol: TOKYO, dave: TOKYO, table.gm: BERLIN}
    for user, zone in zones.items():
        await table.slash("settings timezone", user=user, zone=zone)
    await table.gm_slash("gm policy", policy="hold")
    await table.gm_slash("gm deadline", at="20:00", zone=BERLIN, hours=8)
    await table.gm_slash("gm reminders", times="2h")
    await table.gm_slash("gm quiet", hours="22:00-07:00")
    await table.discord.slash("settings digest", user=table.bob, channel=table.discord.dm_channel(table.bob),
                              options={"mode": "on", "at": "7:00"})
    await table.slash("battle start")
    told = posted(table)
    await table.slash("vacation start", user=table.bob, **{"from": "2026-10-27", "to": "2026-10-29"})
    [notice] = new_since(table, told)
    assert "is away from" in notice.content and notice.pings.users == {table.alice.id, table.carol.id, table.gm.id}
    away = (at(NEW_YORK, 2026, 10, 27, 0, 0), at(NEW_YORK, 2026, 10, 30, 0, 0))
    gone = at(BERLIN, 2026, 10, 22, 0, 0)  # alice's last order is on the 21st
    late = at(BERLIN, 2026, 11, 2, 0, 0)  # dave lets the last days' deadlines pass
    # Each plays at an hour of their own day (their zone's), whenever their unit is due.
    hours = {table.alice: 17, table.bob: 8, table.carol: 9, dave: 21, table.gm: 12}
    units = {table.alice: "Eva-01", table.bob: "Eva-02", table.carol: "Ramiel", dave: "Eva-01", table.gm: "Sachiel"}
    down = (at(BERLIN, 2026, 10, 31, 10, 0), at(BERLIN, 2026, 11, 1, 16, 0))  # over New York's change
    end = at(BERLIN, 2026, 11, 3, 7, 0)
    record = await stored(table)
    pings: list[Ping] = []
    turns: dict[str, frozenset[int]] = {}  # each turn begun: whom it should ping
    deadlines: list[float] = []
    digest_at: list[float] = []
    fired_ids: list[int] = []
    first_turn = (await clock(table)).turn_key  # begun before the fortnight's watch began
    seen = posted(table)

    async def note(cause: str) -> None:
        nonlocal seen
        turn = (await clock(table)).turn_key
        if turn is not None and turn not in turns:
            turns[turn] = await owners_due(table)
        pings.extend(Ping(table.clock.now, cause, turn, frozenset(m.pings.users), m.content)
                     for m in new_since(table, seen) if m.pings.users)
        seen = posted(table)

    step = 0
    while table.clock.now < end:
        table.clock.advance(hours=1)
        if down[0] <= table.clock.now < down[1]:
            if table.clock.now == down[0]:
                await table.discord.stop_bot()
            continue
        step += 1
        if step % 60 == 0 or table.clock.now == down[1]:
            await table.restart()
        battle = await stored_battle(table)
        for user, hour in hours.items():
            unit = battle.find_unit(units[user])
            playing = (unit is not None and unit.id in due_now(battle)
                       and unit.owner == (None if user is table.gm else user.id))
            if (not playing or local(table.clock.now, zones[user]).hour != hour
                    or (user is table.alice and table.clock.now > gone) or (user is dave and table.clock.now > late)
                    or (user is table.bob and away[0] <= table.clock.now < away[1])):
                continue
            await end_turn(table, user=user, **({"unit": "Sachiel"} if user is table.gm else {}))
            await note(user.name)
            battle = await stored_battle(table)
        digests_before = digests(table)
        fired = await table.tick()
        fired_ids.extend(f.timer.id for f in fired)
        deadlines += [f.timer.due_at for f in fired if f.timer.kind == "deadline"]
        await note(",".join(sorted({f.timer.kind for f in fired})))
        digest_at += [table.clock.now] * (digests(table) - digests_before)
        for post in titled(table, "Civil disorder"):
            free = [c for c in post.custom_ids() if c.startswith("bp:cdfree:")]
            if free and local(table.clock.now, zones[table.gm]).hour == hours[table.gm]:
                await table.click(post, free[0], user=table.gm)
                await note("seat freed")
        for post in titled(table, "A seat is free"):
            take = [c for c in post.custom_ids() if c.startswith("bp:seat:")]
            if take and local(table.clock.now, zones[dave]).hour == hours[dave]:
                await table.click(post, take[0], user=dave)
                await note("seat taken")

    assert len(fired_ids) == len(set(fired_ids)), "no timer acted on twice, whichever bot ran it"
    # Nothing between 22:00 and 07:00 in Berlin, the battle's zone.
    assert all(7 <= local(p.at, BERLIN).hour < 22 for p in pings), [local(p.at, BERLIN) for p in pings]
    # Every turn begun pinged the players it waits for, once, in one message: none lost, none doubled.
    starts = [p for p in pings if "your turn in" in p.text]
    reminders = [p for p in pings if p.text.startswith("\u23f0")]
    assert len(starts) + len(reminders) == len(pings), "nothing else pings anybody"
    begun = [turn for turn in turns if turn != first_turn]
    assert len(begun) >= 16
    assert sorted(p.turn or "" for p in starts) == sorted(begun)
    wrong = [(p.turn, sorted(p.users)) for p in starts if p.users != turns[p.turn or ""]]
    assert wrong == [], "each turn pings its side's players: the substitute instead of alice once he sat"
    assert any(dave.id in users for users in turns.values())
    # ... at the hour that began it: a deadline at 20:00 Berlin (before and after its change), or a player's
    # order at their own hour, or the first pass after the downtime.
    for p in starts:
        if "deadline" in p.cause.split(","):
            assert local(p.at, BERLIN).timetuple()[3:5] == (20, 0) or p.at == down[1], local(p.at, BERLIN)
        else:
            [user] = [u for u in hours if u.name == p.cause]
            assert local(p.at, zones[user]).hour == hours[user]
    assert {p.cause for p in starts} >= {"deadline", "gm", "bob", "dave", "alice"}
    assert any(p.at == down[1] for p in starts), "the turn whose deadline passed in the downtime began at restart"
    # Reminders 2 h before the deadline: 18:00 Berlin in summer and winter time, and once 11:00, when bob's
    # vacation moved the deadline to 13:00 (the 8 h of turn left when he came back at midnight in New York).
    hours_of = sorted({local(p.at, BERLIN).strftime("%d %H:%M") for p in reminders})
    assert [h for h in hours_of if not h.endswith("18:00")] == ["30 11:00"], hours_of
    summer, winter = (local(at(BERLIN, 2026, 10, day, 12, 0), BERLIN).utcoffset() for day in (20, 27))
    assert {local(p.at, BERLIN).utcoffset() for p in reminders} == {summer, winter}
    assert {local(due, BERLIN).utcoffset() for due in deadlines} == {summer, winter}
    per_user = [(p.turn, user) for p in reminders for user in p.users]
    assert len(per_user) == len(set(per_user)), "one reminder a turn for each player"
    assert {u for p in reminders for u in p.users} >= {table.alice.id, table.bob.id, dave.id}
    assert not any(table.bob.id in p.users and away[0] <= p.at < away[1] for p in reminders), "none on vacation"
    # Every deadline that passed did so at 20:00 Berlin (bob played just in time for the one his vacation moved).
    assert len(deadlines) >= 4 and all(local(due, BERLIN).timetuple()[3:5] == (20, 0) for due in deadlines)
    # bob's digest at 07:00 New York, before and after its change, one a day: 20 October to 2 November but the
    # 31st, when the bot was down all morning; the digest it owed came once, when it was back (10:00 on the 1st).
    digest_days = [local(moment, NEW_YORK) for moment in digest_at]
    assert len({d.date() for d in digest_days}) == len(digest_days) == 13
    assert [d for d in digest_days if d.hour != 7] == [local(down[1], NEW_YORK)]
    assert {d.utcoffset() for d in digest_days} == {local(at(NEW_YORK, 2026, month, day, 7, 0), NEW_YORK).utcoffset()
                                                    for month, day in ((10, 20), (11, 2))}
    # alice fell into civil disorder once; dave took her seat by its button; each tenure keeps its own orders.
    assert len(titled(table, "Civil disorder")) == 1 and len(titled(table, "A seat is free")) == 1
    [seat] = await table.db.seats.of_battle(record.id)
    assert (seat.user_id, seat.status, seat.taken_by) == (table.alice.id, "taken", dave.id)
    assert seat.taken_at is not None
    events = await table.db.events.list(record.id, limit=10_000, newest_first=False)
    assert all(e.created_at < seat.taken_at for e in events if e.actor_id == table.alice.id)
    assert [e for e in events if e.actor_id == dave.id]
    assert all(e.created_at >= seat.taken_at for e in events if e.actor_id == dave.id)
    assert (await stored_battle(table)).unit("Eva-01").owner == dave.id
    stats = await table.slash("battle stats", user=table.bob)
    lines = {line.split(":")[0]: line for line in text_of(stats).splitlines()}
    assert "2 missed deadlines" in lines[f"<@{table.alice.id}>"] and "1 missed deadline" in lines[f"<@{dave.id}>"]
    assert "0 missed deadlines" in lines[f"<@{table.bob.id}>"], "a deadline moved by a vacation is not missed"
