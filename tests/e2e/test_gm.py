"""GM tools: undo with dice, overrides, skips, hidden rolls and reveals, assignment, the end summary."""

from __future__ import annotations

import pytest

from loopback import InteractionError
from rules.replay import replay, same_state, steps_from_log
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import (
    board,
    clock,
    end_battle,
    end_turn,
    event_kinds,
    message_text,
    new_since,
    posted,
    prompts,
    start_side_battle,
    stored,
    stored_battle,
)

MANAGE_GUILD = 1 << 5


async def log_entries(table: Table) -> list[dict[str, object]]:
    """Return the battle's whole log as the export writes it."""
    record = await stored(table)
    events = await table.db.events.list(record.id, limit=1000, newest_first=False)
    return [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone}
            for e in events]


async def test_undo_of_a_turn_with_rolls_restores_it_dice_and_all(table: Table) -> None:
    await start_side_battle(table)
    before = (await stored(table)).state
    act = await table.slash("act", user=table.alice, unit="Eva-01", stat="ag", modifier=10)
    assert "d100" in text_of(act)
    await end_turn(table, user=table.alice)
    await end_turn(table, user=table.bob)
    assert (await clock(table)).turn_key == "1|side|Angels"

    shown = posted(table)
    undone = await table.gm_slash("gm undo", count=3)
    text = text_of(undone)
    assert "Undone: 3 orders" in text and "`/act unit:Eva-01 stat:ag modifier:10`" in text
    assert "`/turn end unit:Eva-02`" in text and "end-turn" not in text and not last_message(undone).ephemeral
    assert same_state((await stored(table)).state, before)
    kinds = await event_kinds(table)
    assert [undone for _, undone in kinds[-4:]] == [True, True, True, False] and kinds[-1][0] == "undo"
    # The NERV phase is back: its players are called again, with a fresh deadline.
    [prompt] = prompts(new_since(table, shown))
    assert "NERV phase" in prompt.content and prompt.pings.users == {table.alice.id, table.bob.id}
    assert (await clock(table)).turn_key == "1|side|NERV"
    assert (lambda b: b.turn.left[b.unit("Eva-01").id])(await stored_battle(table)) == 2
    record = await stored(table)
    initial = await table.db.events.initial_state(record.id)
    assert initial is not None
    assert same_state(replay(initial, steps_from_log(await log_entries(table))).to_dict(), record.state)


async def test_undo_past_the_start_is_refused(table: Table) -> None:
    await table.slash("battle new", name="Short", ruleset="strategic-e", width=6, height=6)
    empty = await table.gm_slash("gm undo")
    assert last_message(empty).ephemeral and "There is nothing to undo" in text_of(empty)
    await table.slash("unit add", name="Eva-01", side="NERV", at="A1")
    await table.slash("unit add", name="Eva-02", side="NERV", at="B1")
    version = (await stored(table)).version
    refused = await table.gm_slash("gm undo", count=5)
    assert last_message(refused).ephemeral
    assert "Only 2 orders can be undone in this battle (back to its creation), not 5" in text_of(refused)
    assert (await stored(table)).version == version


async def test_gm_overrides_ignore_movement_and_turns(table: Table) -> None:
    await start_side_battle(table)
    moved = await table.gm_slash("gm move", unit="Sachiel", to="A1")
    assert "The GM put Sachiel on A1 (from P10)." in text_of(moved) and last_message(moved).files
    edited = await table.gm_slash("gm edit", unit="Eva-01", wounds=3, add_status="pinned", actions=1)
    assert "The GM set Eva-01:" in text_of(edited) and "wounds 10 \u2192 3" in text_of(edited)
    await table.gm_slash("gm set", unit="Eva-02", field="ag", value="60")
    await table.gm_slash("gm set", unit="Eva-02", field="armour.head", value="7")
    battle = await stored_battle(table)
    assert str(battle.unit("Sachiel").cell) == "A1" and battle.turn.left[battle.unit("Sachiel").id] == 2
    eva = battle.unit("Eva-01")
    assert (eva.wounds, eva.statuses, battle.turn.left[battle.unit("Eva-01").id]) == (3, ["pinned"], 1)
    assert battle.unit("Eva-02").chars["ag"] == 60 and battle.unit("Eva-02").armour["head"] == 7
    assert "pinned" in message_text(board(table))

    version = (await stored(table)).version
    bad = await table.gm_slash("gm set", unit="Eva-02", field="colour", value="red")
    assert last_message(bad).ephemeral and "`colour` is not a field of a unit" in text_of(bad)
    worse = await table.gm_slash("gm set", unit="Eva-02", field="ag", value="lots")
    assert last_message(worse).ephemeral and "`ag` must be a whole number" in text_of(worse)
    blocked = await table.gm_slash("gm move", unit="Eva-02", to="Z40")
    assert last_message(blocked).ephemeral and "off the map" in text_of(blocked)
    assert (await stored(table)).version == version


async def test_gm_skip_passes_the_phase_or_one_unit(table: Table) -> None:
    await start_side_battle(table)
    skipped = await table.gm_slash("gm skip")
    assert "The GM skipped the NERV phase (Eva-01 and Eva-02)." in text_of(skipped)
    shown = posted(table)
    await table.gm_slash("gm skip", unit="Sachiel")
    [prompt] = prompts(new_since(table, shown))
    assert "round 2, NERV phase" in prompt.content


async def test_hidden_rolls_stay_hidden_until_revealed(table: Table) -> None:
    await start_side_battle(table)
    rolled = await table.gm_slash("gm roll", dice="1d100", purpose="ambush")
    message = last_message(rolled)
    assert message.ephemeral and "Hidden roll" in text_of(rolled) and "ambush" in text_of(rolled)
    record = await stored(table)
    [event] = await table.db.events.list(record.id, limit=1)
    assert event.hidden and event.kind == "roll"
    assert f"/gm reveal seq:{event.seq}" in text_of(rolled)

    theirs = await table.slash("battle log", user=table.alice)
    assert "hidden roll (the GM may reveal it)" in text_of(theirs) and "ambush" not in text_of(theirs)
    mine = await table.slash("battle log")
    assert "ambush" in text_of(mine) and "\U0001f512" in text_of(mine) and "roll dice:1d100" in text_of(mine)

    revealed = await table.gm_slash("gm reveal", seq=event.seq)
    assert f"The GM reveals hidden roll #{event.seq}" in text_of(revealed)
    assert "ambush" in text_of(revealed) and not last_message(revealed).ephemeral
    now = await table.slash("battle log", user=table.alice)
    assert "roll dice:1d100" in text_of(now)
    again = await table.gm_slash("gm reveal", seq=event.seq)
    assert last_message(again).ephemeral and "is not hidden" in text_of(again)
    missing = await table.gm_slash("gm reveal", seq=999)
    assert last_message(missing).ephemeral and "There is no order #999" in text_of(missing)


async def test_assign_hands_a_unit_to_a_player(table: Table) -> None:
    await start_side_battle(table)
    assigned = await table.gm_slash("gm assign", unit="Sachiel", player=table.carol)
    assert "owner" in text_of(assigned)
    assert (await stored_battle(table)).unit("Sachiel").owner == table.carol.id
    await table.gm_slash("gm skip")
    shown = await end_turn(table, user=table.carol)
    assert "Sachiel ends its turn" in text_of(shown)


async def test_gm_end_posts_the_summary_and_stops_the_clock(table: Table) -> None:
    await start_side_battle(table)
    await table.gm_slash("gm edit", unit="Eva-02", wounds=0)
    ended = await end_battle(table)
    text = text_of(ended)
    assert "Battle over: Test Battle" in text and "Fought over **1 round**" in text
    assert "Survivors (1): Eva-01 (W 10/10)" in text and "Casualties (1): Eva-02" in text
    assert "Survivors (1): Sachiel (W 10/10)" in text and "Still standing: NERV 1/2 \u00b7 Angels 1/1" in text
    record = await table.db.battles.get((await table.db.battles.list_for_guild(table.discord.guild.id,
                                                                               include_ended=True))[0].id)
    assert record is not None and record.status == "ended"
    assert await table.db.timers.pending(record.id) == []
    assert "Ended after round 1" in message_text(board(table))
    late = await table.gm_slash("gm pause")
    assert last_message(late).ephemeral and "no battle in this channel" in text_of(late)


async def test_gm_group_is_offered_to_manage_server_and_checked_at_run_time(table: Table) -> None:
    schema = table.discord.commands()["gm"]
    assert schema["default_member_permissions"] == str(MANAGE_GUILD)
    await start_side_battle(table)
    with pytest.raises(InteractionError, match="hidden from alice"):
        await table.discord.slash("gm undo", user=table.alice, channel=table.channel)
    refused = await table.gm_slash("gm undo", user=table.alice)
    assert last_message(refused).ephemeral and "Only a GM can undo orders" in text_of(refused)

    role = table.discord.add_role(table.discord.guild, "Referee")
    table.discord.give_role(table.bob, role)
    await table.slash("settings gm-role", role=role)
    allowed = await table.gm_slash("gm pause", user=table.bob)
    assert "Clock paused" in text_of(allowed)


async def test_the_creator_referees_without_manage_server(table: Table) -> None:
    await table.slash("battle new", user=table.carol, name="Carol's War", ruleset="strategic-e", width=6, height=6)
    await table.slash("unit add", user=table.carol, name="Tank", side="Red", at="A1", owner=table.alice)
    await table.slash("battle start", user=table.carol)
    reply = await table.gm_slash("gm deadline", user=table.carol, hours=48)
    assert "Each turn now lasts **2 days**" in text_of(reply)
    refused = await table.gm_slash("gm deadline", user=table.alice, hours=1)
    assert "Only a GM can set the deadline" in text_of(refused)
