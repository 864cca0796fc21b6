"""The log: pages newest first, secrets kept; the export file, its replay, and importing it elsewhere."""

from __future__ import annotations

import json
from typing import Any

from rules.replay import replay, same_state, steps_from_log
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import board, end_turn, message_text, start_side_battle, stored


async def played_battle(table: Table) -> None:
    """Play a day of a battle: moves, a test, a hidden roll, an undo, and a deadline under standing orders."""
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="default")
    await table.gm_slash("gm deadline", hours=12)
    await table.slash("turn standing", user=table.bob, unit="Eva-02", order="move to:D6 mode:half")
    await table.slash("battle start")
    await table.slash("act", user=table.alice, unit="Eva-01", stat="ag", modifier=10)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    await table.gm_slash("gm roll", dice="2d10", purpose="reinforcements")
    await table.slash("roll", user=table.bob, dice="1d5")
    await table.gm_slash("gm undo")
    await end_turn(table, user=table.alice)
    await table.tick(hours=12)


async def export_of(table: Table) -> tuple[dict[str, Any], bytes]:
    """Export the channel's battle as its GM; return the document and the file's bytes."""
    reply = await table.slash("battle export")
    message = last_message(reply)
    assert message.ephemeral and message.files[0].filename.endswith(".json")
    data = message.files[0].data
    return json.loads(data), data


async def test_log_pages_newest_first_and_marks_undone_orders(table: Table) -> None:
    await start_side_battle(table)
    for _ in range(9):
        await table.slash("roll", user=table.alice, dice="1d6")
    await table.gm_slash("gm undo")
    record = await stored(table)
    total = await table.db.events.count(record.id)
    first = await table.slash("battle log", user=table.carol)
    page = last_message(first)
    text = text_of(first)
    assert page.ephemeral and f"page 1 of {(total + 9) // 10}" in text
    assert text.index(f"**#{total}**") < text.index(f"**#{total - 1}**")
    assert f"undid #{total - 1}" in text and "(undone)" in text and "~~" in text
    assert page.custom_ids() == [f"bp:log:{record.id}:0:n", f"bp:log:{record.id}:2:o"]
    older = await table.click(page, f"bp:log:{record.id}:2:o", user=table.carol)
    assert "page 2 of" in text_of(older) and "created the battle" in text_of(older)
    newer = await table.click(page, f"bp:log:{record.id}:1:n", user=table.carol)
    assert "page 1 of" in text_of(newer)
    chosen = await table.slash("battle log", user=table.carol, page=99)
    assert "created the battle" in text_of(chosen), "a page past the end shows the last one"


async def test_export_holds_the_whole_battle_and_replays_to_its_state(table: Table) -> None:
    await played_battle(table)
    record = await stored(table)
    document, _ = await export_of(table)
    assert document["format"] == "battlepost-battle" and document["version"] == 1
    assert document["battle"]["name"] == "Test Battle"
    assert document["clock"] == {"deadline": 12 * 3600.0, "policy": "default", "reminders": ["50%", "1h"]}
    kinds = [o["kind"] for o in document["orders"]]
    assert kinds[0] == "create" and "undo" in kinds and "standing-turn" in kinds
    hidden = [o for o in document["orders"] if o["hidden"]]
    assert hidden and hidden[0]["outcome"]["rolls"][0]["purpose"] == "reinforcements"
    assert any(o["undone"] for o in document["orders"])
    assert document["initial_state"]["units"] == [] and document["final_state"] == record.state
    rebuilt = replay(document["initial_state"], steps_from_log(document["orders"]))
    assert same_state(rebuilt.to_dict(), record.state)
    assert str(rebuilt.unit("Eva-02").cell) == "D6", "the standing order played at the deadline replays too"

    refused = await table.slash("battle export", user=table.alice)
    assert last_message(refused).ephemeral and "Only a GM can export the battle" in text_of(refused)


async def test_import_rebuilds_the_battle_on_another_server(table: Table) -> None:
    """Units keep their players only where those players are members; the others wait for the GM (no pings by proxy)."""
    await played_battle(table)
    document, data = await export_of(table)
    other = table.discord.add_guild("Other Server")
    stranger = table.discord.add_user("stranger", guild=other, manage_guild=True)
    table.discord.join(table.alice, other)
    there = table.discord.channel("general", other)
    reply = await table.discord.slash("battle import", user=stranger, channel=there,
                                      options={"file": ("war.json", data)})
    await table.settle()
    text = text_of(reply)
    assert "Imported: Test Battle" in text and "(1 undone order left out)" in text
    assert "1 unit whose player is not on this server waits for the GM to /gm assign them: Eva-02." in text
    assert not last_message(reply).ephemeral, "the imported battle is announced to the channel"
    imported = await table.db.battles.in_channel(other.id, there.id)
    assert imported is not None and imported.created_by == stranger.id
    owners = {u["name"]: u["owner"] for u in imported.state["units"]}
    assert owners == {"Eva-01": table.alice.id, "Eva-02": None, "Sachiel": None}
    expected = json.loads(json.dumps(document["final_state"]))
    next(u for u in expected["units"] if u["name"] == "Eva-02")["owner"] = None
    assert same_state(imported.state, expected)
    clock = await table.db.clocks.get(imported.id)
    assert (clock.deadline, clock.policy) == (12 * 3600.0, "default")
    assert clock.turn_key is not None and clock.due_at == table.clock.now + 12 * 3600
    events = await table.db.events.list(imported.id, limit=100, newest_first=False)
    kept = [o for o in document["orders"] if o["kind"] not in ("create", "undo") and not o["undone"]]
    assert [e.order_text for e in events[1:-1]] == [o["order"] for o in kept]
    assert [e.outcome for e in events[1:-1]] == [o["outcome"] for o in kept]
    assert [e.hidden for e in events[1:-1]] == [o["hidden"] for o in kept]
    assert (events[-1].kind, events[-1].actor_id) == ("edit-unit", stranger.id)
    assert imported.version == len(events), "one version per logged change, as if played here"
    assert "Test Battle" in message_text(board(table, there))
    undone = await table.discord.slash("gm undo", user=stranger, channel=there, bypass_permissions=True)
    await table.settle()
    assert "Undone: 1 order" in text_of(undone) and "`/unit edit unit:Eva-02" in text_of(undone)
    restored = await table.db.battles.get(imported.id)
    assert restored is not None and same_state(restored.state, document["final_state"]), "imported orders undo"
    # The original is untouched and still its own battle.
    assert (await stored(table)).id != imported.id


async def test_an_imported_log_keeps_the_dates_its_orders_were_given(table: Table) -> None:
    await played_battle(table)
    document, data = await export_of(table)
    table.clock.now += 3 * 86400  # imported three days later
    other = table.discord.add_channel(table.discord.guild, "archive")
    reply = await table.discord.slash("battle import", user=table.gm, channel=other,
                                      options={"file": ("war.json", data)})
    assert "Imported: Test Battle" in text_of(reply)
    imported = await table.db.battles.in_channel(table.discord.guild.id, other.id)
    assert imported is not None
    events = await table.db.events.list(imported.id, limit=100, newest_first=False)
    kept = [o for o in document["orders"] if o["kind"] not in ("create", "undo") and not o["undone"]]
    assert [e.created_at for e in events[1:]] == [o["created_at"] for o in kept]
    assert events[0].created_at == document["battle"]["created_at"]
    assert len({o["created_at"] for o in kept}) > 1, "the orders were given at different times"
    assert all(e.created_at < table.clock.now - 86400 for e in events)
    # The log reads the same dates as the original's.
    original = text_of(await table.slash("battle log"))
    copy = text_of(await table.discord.slash("battle log", user=table.gm, channel=other))
    stamps = sorted({f"<t:{int(o['created_at'])}:R>" for o in kept})
    assert all(s in copy for s in stamps if s in original) and any(s in copy for s in stamps)
    # A time no clock shows is refused.
    bad = json.loads(data)
    bad["orders"][1]["created_at"] = "yesterday"
    third = table.discord.add_channel(table.discord.guild, "third")
    refused = await table.discord.slash("battle import", user=table.gm, channel=third,
                                        options={"file": ("war.json", json.dumps(bad).encode())})
    assert last_message(refused).ephemeral
    assert "`orders[1].created_at` in the file must be a time in seconds since 1970" in text_of(refused)


async def test_bad_import_files_are_refused_and_create_nothing(table: Table) -> None:
    await played_battle(table)
    document, data = await export_of(table)
    other = table.discord.add_channel(table.discord.guild, "archive")
    count = await table.db.battles.count()

    async def attempt(raw: bytes) -> str:
        reply = await table.discord.slash("battle import", user=table.gm, channel=other,
                                          options={"file": ("war.json", raw)})
        assert last_message(reply).ephemeral
        return text_of(reply)

    assert "not valid JSON (line 1, column 12: Expecting value)" in await attempt(b'{"format": battle}')
    assert "not a battlepost export" in await attempt(b'[1, 2, 3]')
    assert "not text" in await attempt(b"\xff\xfe\x00garbage")
    missing = {k: v for k, v in document.items() if k != "orders"}
    assert "has no `orders`" in await attempt(json.dumps(missing).encode())
    wrong = dict(document, orders="everything")
    assert "`orders` in the file must be a list, not str" in await attempt(json.dumps(wrong).encode())
    tampered = json.loads(data)
    tampered["final_state"]["units"][0]["x"] = 9
    assert "do not rebuild its final state (they differ at `units[0].x`)" in await attempt(json.dumps(tampered).encode())
    loaded = json.loads(data)
    test = next(o for o in loaded["orders"] if o["kind"] == "act" and not o["undone"])
    test["outcome"]["rolls"] = []
    assert f"Order #{test['seq']}" in await attempt(json.dumps(loaded).encode())
    newer = dict(document, version=7)
    assert "newer battlepost (format 7)" in await attempt(json.dumps(newer).encode())
    taken = await table.slash("battle import", file=("war.json", data))
    assert last_message(taken).ephemeral and "This channel already runs **Test Battle**" in text_of(taken)
    assert await table.db.battles.count() == count
    assert await table.db.battles.in_channel(table.discord.guild.id, other.id) is None
