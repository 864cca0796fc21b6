"""Commands that need a server are offered only in servers; the few that work anywhere answer in a DM."""

from __future__ import annotations

import pytest

from loopback.errors import InteractionError
from tests.e2e.conftest import Table, text_of

ANYWHERE = {"help", "roll", "settings", "battles", "stats"}  # /settings notify is a player's own choice, made from anywhere


async def test_server_commands_are_marked_guild_only(table: Table) -> None:
    synced = table.discord.commands()
    assert len(synced) > 10
    for name, schema in synced.items():
        contexts = schema.get("contexts")
        in_dms = 1 in contexts if contexts is not None else schema.get("dm_permission") is not False
        assert in_dms == (name in ANYWHERE), f"/{name} offered in DMs: {in_dms}"


async def test_the_commands_for_anywhere_answer_in_a_dm_and_the_others_are_not_offered(table: Table) -> None:
    dm = table.discord.dm_channel(table.alice)
    rolled = await table.discord.slash("roll", user=table.alice, channel=dm, options={"dice": "1d20+5 adv to hit"})
    assert "alice rolls" in text_of(rolled) and "`2d20kh1+5`" in text_of(rolled) and "(to hit)" in text_of(rolled)
    helped = await table.discord.slash("help", user=table.alice, channel=dm, options={})
    assert helped.messages
    with pytest.raises(InteractionError, match="not offered in DMs"):
        await table.discord.slash("move", user=table.alice, channel=dm, options={"unit": "Eva-01", "to": "C4"})


async def test_everyone_cannot_be_the_gm_role(table: Table) -> None:
    everyone = table.discord.guild.roles[table.discord.guild.id]
    refused = await table.slash("settings gm-role", role=everyone)
    assert "@everyone cannot be the GM role" in text_of(refused)
    assert (await table.db.guilds.get(table.discord.guild.id)).gm_role_id is None
