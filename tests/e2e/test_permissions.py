"""Who may do what: GMs, owners, other players, and other servers; and nobody gets pinged by a name."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of


async def test_another_guild_cannot_see_or_touch_a_battle(table: Table) -> None:
    await table.setup_battle()
    other = table.discord.add_guild("Other Server")
    stranger = table.discord.add_user("stranger", guild=other, manage_guild=True)
    their_channel = table.discord.channel("general", other)
    listing = await table.slash("battle list", user=stranger, channel=their_channel)
    assert "Test Battle" not in text_of(listing)
    info = await table.slash("battle info", user=stranger, channel=their_channel)
    assert "There is no battle in this channel" in text_of(info)


async def test_creator_is_gm_without_manage_server(table: Table) -> None:
    await table.slash("battle new", user=table.carol, name="Carol's War", ruleset="strategic-p", width=8, height=8)
    reply = await table.slash("map paint", user=table.carol, terrain="water", **{"from": "A1"}, to="B2")
    assert "4 squares painted water" in text_of(reply)
    refused = await table.slash("map paint", user=table.alice, terrain="water", **{"from": "C1"})
    assert last_message(refused).ephemeral and "Only a GM" in text_of(refused)


async def test_gm_role_restricts_who_creates_battles(table: Table) -> None:
    role = table.discord.add_role(table.discord.guild, "GM")
    await table.slash("settings gm-role", role=role)
    refused = await table.slash("battle new", user=table.alice, name="Mine", ruleset="strategic-e", width=5, height=5)
    assert "only members with the GM role" in text_of(refused)


async def test_only_manage_server_sets_the_gm_role(table: Table) -> None:
    role = table.discord.add_role(table.discord.guild, "GM")
    reply = await table.slash("settings gm-role", user=table.alice, role=role)
    assert last_message(reply).ephemeral and "Manage Server" in text_of(reply)
    assert (await table.db.guilds.get(table.discord.guild.id)).gm_role_id is None


async def test_gm_may_move_any_unit(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    reply = await table.slash("move", unit="Eva-02", to="D5")
    assert "Eva-02 moved C5 → D5" in text_of(reply)


async def test_a_unit_named_everyone_pings_nobody(table: Table) -> None:
    await table.slash("battle new", name="@everyone", ruleset="strategic-e", width=8, height=8)
    await table.slash("unit add", name="@everyone", side="@here", at="A1", owner=table.alice)
    reply = await table.slash("battle info")
    for message in table.discord.messages(table.channel) + reply.messages:
        assert message.pings.everyone is False
        assert not message.pings.roles
        assert not message.pings.users, f"{message.content!r} pinged {message.pings.users}"
