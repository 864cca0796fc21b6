"""An ended battle stays readable: its info, log and export, in its channel or by number from /battle list."""

from __future__ import annotations

import json

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_battle, stored


async def test_an_ended_battle_is_read_in_its_channel_and_by_number(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    record = await stored(table)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    await end_battle(table)

    info = await table.slash("battle info", user=table.carol)
    assert "Status **ended**" in text_of(info) and "Eva-01" in text_of(info)
    log = await table.slash("battle log", user=table.alice)
    assert "Log: Test Battle" in text_of(log) and last_message(log).ephemeral
    exported = await table.slash("battle export")
    document = json.loads(last_message(exported).files[0].data)
    assert document["battle"]["status"] == "ended"

    await table.slash("battle new", name="Rematch", ruleset="strategic-e", width=10, height=10)
    listed = await table.slash("battle list", user=table.alice, ended=True)
    assert f"#{record.id} **Test Battle**" in text_of(listed) and "ended" in text_of(listed)
    here = await table.slash("battle info", user=table.alice)
    assert "Rematch" in text_of(here), "the channel's running battle comes first"
    old = await table.slash("battle info", user=table.alice, battle=record.id)
    assert "Test Battle" in text_of(old) and "Status **ended**" in text_of(old)
    old_log = await table.slash("battle log", user=table.alice, battle=record.id)
    assert "Log: Test Battle" in text_of(old_log)
    missing = await table.slash("battle info", user=table.alice, battle=999)
    assert last_message(missing).ephemeral and "There is no battle #999 on this server" in text_of(missing)
