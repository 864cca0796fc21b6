"""Turns in each mode: who is due, who gets pinged, what refuses, the status board and the turn buttons."""

from __future__ import annotations

from rules.systems.strategic.actions.features import SetFp
from tests.e2e.action_helpers import button, press
from tests.e2e.combat_helpers import gm
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import (
    board,
    confirmed,
    end_turn,
    message_text,
    new_since,
    pinged,
    posted,
    prompts,
    start_side_battle,
    stored,
    stored_battle,
)


async def test_side_phases_alternate_and_ping_only_the_players_due(table: Table) -> None:
    await table.setup_battle()
    before = posted(table)
    await table.slash("battle start")
    [prompt] = prompts(new_since(table, before))
    assert prompt.pings.users == {table.alice.id, table.bob.id}
    assert prompt.allowed_mentions is not None and prompt.allowed_mentions.get("parse") == []
    assert "round 1, NERV phase" in prompt.content and "Deadline <t:" in message_text(prompt)
    record = await stored(table)
    assert prompt.custom_ids() == [f"bp:end:{record.id}:Eva-01", f"bp:opts:{record.id}:Eva-01",
                                   f"bp:end:{record.id}:Eva-02", f"bp:opts:{record.id}:Eva-02",
                                   f"bp:map:{record.id}", f"bp:mute:{record.id}"]
    assert prompt.files and "/move (half 1, full 2" in message_text(prompt)

    await table.slash("move", user=table.alice, unit="Eva-01", to="E3", mode="half")
    before = posted(table)
    ended = await end_turn(table, user=table.alice)
    assert "Eva-01 ends its turn" in text_of(ended) and not last_message(ended).ephemeral
    again = await table.slash("move", user=table.alice, unit="Eva-01", to="F3", mode="half")
    assert last_message(again).ephemeral and "Eva-01 has ended its turn this round" in text_of(again)
    assert prompts(new_since(table, before)) == [], "the phase goes on while Eva-02 is due"

    before = posted(table)
    await end_turn(table, user=table.bob, unit="Eva-02")
    [angels] = prompts(new_since(table, before))
    assert "Angels phase" in angels.content and angels.pings.users == {table.gm.id}

    before = posted(table)
    closed = await end_turn(table)
    assert "**Round 2** begins" in text_of(closed)
    [round_two] = prompts(new_since(table, before))
    assert "round 2, NERV phase" in round_two.content
    assert round_two.pings.users == {table.alice.id, table.bob.id}
    assert pinged(posted(table)) <= {table.alice.id, table.bob.id, table.gm.id}
    assert table.carol.id not in pinged(posted(table))


async def test_acting_out_of_turn_is_refused_and_changes_nothing(table: Table) -> None:
    await start_side_battle(table)
    version = (await stored(table)).version
    reply = await table.slash("move", unit="Sachiel", to="O10")
    assert last_message(reply).ephemeral
    assert "It is the NERV phase; Angels units act next phase." in text_of(reply)
    hold = await table.slash("turn hold", unit="Sachiel")
    assert last_message(hold).ephemeral and "It is the NERV phase" in text_of(hold)
    assert (await stored(table)).version == version


async def test_ending_someone_elses_turn_is_refused(table: Table) -> None:
    await start_side_battle(table)
    version = (await stored(table)).version
    theirs = await end_turn(table, user=table.bob, unit="Eva-01")
    assert last_message(theirs).ephemeral and "Eva-01 is not yours to command" in text_of(theirs)
    nobody = await end_turn(table, user=table.carol)
    assert last_message(nobody).ephemeral
    assert "None of your units is due to act now (Round 1, NERV phase)" in text_of(nobody)
    held = await table.slash("turn hold", user=table.carol, unit="Eva-02")
    assert last_message(held).ephemeral and "not yours" in text_of(held)
    assert (await stored(table)).version == version


async def test_initiative_mode_pings_one_unit_at_a_time(table: Table) -> None:
    await start_side_battle(table)
    before = posted(table)
    changed = await table.slash("turn mode", mode="initiative")
    assert "Turn mode: side \u2192 **initiative**" in text_of(changed)
    [prompt] = prompts(new_since(table, before))
    battle = await stored_battle(table)
    first = battle.unit(battle.turn.units[0]).name
    owner = battle.unit(first).owner or table.gm.id
    assert f"{first}'s turn" in prompt.content and prompt.pings.users == {owner}
    later = battle.unit(battle.turn.units[1]).name
    refused = await table.slash("turn hold", unit=later)
    assert last_message(refused).ephemeral and f"It is {first}'s turn (initiative" in text_of(refused)
    status = await table.slash("turn status", user=table.carol)
    assert "Initiative" in text_of(status) and last_message(status).ephemeral

    before = posted(table)
    await end_turn(table, unit=first)
    [following] = prompts(new_since(table, before))
    assert f"{later}'s turn" in following.content
    assert following.pings.users == {battle.unit(later).owner or table.gm.id}


async def test_free_mode_calls_everyone_and_the_gm_closes_the_round(table: Table) -> None:
    await start_side_battle(table)
    before = posted(table)
    await table.slash("turn mode", mode="free")
    [prompt] = prompts(new_since(table, before))
    assert prompt.pings.users == {table.alice.id, table.bob.id, table.gm.id}
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    await table.slash("move", unit="Sachiel", to="O10", mode="half")
    refused = await table.slash("turn close-round", user=table.alice)
    assert last_message(refused).ephemeral and "Only a GM can use `close-round`" in text_of(refused)
    before = posted(table)
    closed = await table.slash("turn close-round")
    assert "Round 1 closed; Eva-01, Eva-02 and Sachiel lost the rest of the round." in text_of(closed)
    [round_two] = prompts(new_since(table, before))
    assert "round 2 (free order)" in round_two.content


async def test_status_shows_actions_left_and_keeps_standing_orders_private(table: Table) -> None:
    await start_side_battle(table)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    order = await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:E4 mode:half")
    assert last_message(order).ephemeral
    assert "standing order for missed deadlines: `move unit:Eva-01 to:E4 mode:half`" in text_of(order)
    mine = await table.slash("turn status", user=table.alice)
    text = text_of(mine)
    assert last_message(mine).ephemeral
    assert "**Eva-01** D3 \u00b7 W 10/10 \u00b7 1 action left" in text
    assert "**Eva-02** C5 \u00b7 W 10/10 \u00b7 2 actions left" in text
    assert "Standing orders" in text and "move unit:Eva-01 to:E4" in text
    assert "Round 1, NERV phase" in text and "Deadline <t:" in text
    theirs = await table.slash("turn status", user=table.bob)
    assert "move unit:Eva-01 to:E4" not in text_of(theirs)
    gm = await table.slash("turn status")
    assert "move unit:Eva-01 to:E4" in text_of(gm)


async def test_the_board_is_pinned_once_and_edited_in_place(table: Table) -> None:
    await table.slash("battle new", name="Board War", ruleset="strategic-p", width=10, height=8)
    first = board(table)
    assert "Setting up" in message_text(first) and first.pings.nobody
    await table.slash("unit add", name="Eva-01", side="NERV", at="B2", owner=table.alice, wounds=30)
    await table.slash("unit add", name="Swarm", side="Angels", at="H6", kind="horde", magnitude=25)
    record = await stored(table)
    await table.service.execute(gm(table), record, SetFp(side="NERV", value=12), render=False)
    await table.settle()
    # The board is public; a side's feature points are only for its players and the GM.
    assert "Feature points" not in message_text(board(table)) and "**12**" not in message_text(board(table))
    await table.slash("battle start")
    now = board(table)
    assert now.id == first.id and now.edited
    text = message_text(now)
    assert "Round 1, NERV phase" in text and "Deadline <t:" in text
    assert "**Eva-01** B2 \u00b7 W 30/30 \u00b7 2 actions left" in text and "Mag 25/25" in text
    assert now.pings.nobody
    await end_turn(table, user=table.alice)
    assert "turn over" in message_text(board(table)) and "Angels phase" in message_text(board(table))


async def test_turn_buttons_work_and_survive_a_restart(table: Table) -> None:
    await start_side_battle(table)
    [prompt] = prompts(posted(table))
    record = await stored(table)
    await table.restart()
    refused = await table.click(prompt, f"bp:end:{record.id}:Eva-01", user=table.bob)
    assert last_message(refused).ephemeral and "Eva-01 is not yours to command" in text_of(refused)
    options = await table.click(prompt, f"bp:opts:{record.id}:Eva-01", user=table.alice)
    assert last_message(options).ephemeral and last_message(options).files
    assert "What Eva-01 can do" in text_of(options) and "**Full** (2 AP)" in text_of(options)
    peek = await table.click(prompt, f"bp:opts:{record.id}:Eva-01", user=table.bob)
    assert last_message(peek).ephemeral and "only its player or the GM" in text_of(peek)
    shown = await table.click(prompt, f"bp:map:{record.id}", user=table.carol)
    assert last_message(shown).ephemeral and last_message(shown).files[0].filename == "map.png"
    ended = await confirmed(table, await table.click(prompt, f"bp:end:{record.id}:Eva-01", user=table.alice))
    assert "Eva-01 ends its turn" in text_of(ended)
    twice = await table.click(prompt, f"bp:end:{record.id}:Eva-01", user=table.alice)
    assert last_message(twice).ephemeral and "Eva-01 has ended its turn this round" in text_of(twice)
    assert (lambda b: {b.unit(k).name: v for k, v in b.turn.done.items()})(await stored_battle(table)) == {"Eva-01": "ended"}


async def test_options_list_targets_in_range(table: Table) -> None:
    await table.slash("battle new", name="Range War", ruleset="strategic-e", width=20, height=15)
    record = await stored(table)
    from rules.coords import Cell
    from rules.orders import AddUnit
    from tests.e2e.combat_helpers import RIFLE

    # Two NERV units share the phase, so the prompt offers My options per unit (one unit alone gets its actions).
    for name, side, at in (("Eva-01", "NERV", "C3"), ("Eva-00", "NERV", "A15"), ("Sachiel", "Angels", "F6"),
                           ("Ramiel", "Angels", "T15")):
        order = AddUnit(name=name, side=side, at=Cell.parse(at), owner=table.alice.id if side == "NERV" else None,
                        stats={"bs": 50, "weapons": [RIFLE]})
        record = (await table.service.execute(gm(table), record, order, render=False)).record
    await table.slash("battle start")
    [prompt] = prompts(posted(table))
    options = await table.click(prompt, f"bp:opts:{record.id}:Eva-01", user=table.alice)
    text = text_of(options)
    assert "**Pallet Rifle**" in text and "Sachiel (F6): 3 sq" in text and "hits on" in text


async def test_players_may_hear_of_their_turn_by_direct_message(table: Table) -> None:
    notify = await table.slash("settings notify", user=table.alice, mode="dm")
    assert last_message(notify).ephemeral and "direct message" in text_of(notify)
    await table.setup_battle()
    before = posted(table)
    await table.slash("battle start")
    [prompt] = prompts(new_since(table, before))
    assert prompt.pings.users == {table.bob.id}
    [dm] = table.discord.dm_messages(table.alice)
    record = await stored(table)
    assert "Your turn in **Test Battle**" in dm.content and dm.files
    # Her one unit due: the direct message offers its actions, and what she does there is posted in the channel.
    assert dm.custom_ids()[-2:] == [f"bp:map:{record.id}", f"bp:mute:{record.id}"]
    assert button(dm, "End turn (2 AP unused)")
    before = posted(table)
    asked = await press(table, dm, "End turn", table.alice)
    assert "Eva-01 has **2 AP** left" in text_of(asked), "ending with points left asks first, in a DM too"
    ended = await confirmed(table, asked)
    assert "Eva-01 ends its turn" in text_of(ended)
    assert any("Eva-01 ends its turn" in message_text(m) for m in new_since(table, before))
    assert (lambda b: {b.unit(k).name: v for k, v in b.turn.done.items()})(await stored_battle(table)) == {"Eva-01": "ended"}
    back = await table.slash("settings notify", user=table.alice, mode="channel")
    assert "mentioned in the battle's channel" in text_of(back)
    assert await table.db.users.get_notify(table.alice.id) == "channel"


async def test_a_big_battle_board_stays_within_discord_limits(table: Table) -> None:
    from rules.coords import Cell
    from rules.orders import AddUnit

    await table.slash("battle new", name="Grand Melee", ruleset="strategic-e", width=40, height=40)
    record = await stored(table)
    for i in range(120):
        side = ("Crimson Legion of the Long Night", "Azure Covenant of the Morning")[i % 2]
        order = AddUnit(name=f"Regiment with a long name {i:03d}", side=side, at=Cell(i % 40, i // 40 * 3),
                        owner=table.alice.id, stats={"statuses": ["pinned", "prone"]})
        record = (await table.service.execute(gm(table), record, order, render=False)).record
    await table.slash("battle start")
    shown = board(table)
    embed = shown.embeds[0]
    size = len(embed.get("title", "")) + len(embed.get("description", "")) + len(embed["footer"]["text"]) + sum(
        len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert size <= 6000 and len(embed["fields"]) <= 25
    assert "more units; /unit info shows any of them." in message_text(shown)
    assert table.discord.rejections == []
