"""Imported units keep their players only if those players are members of the server; nobody is pinged by proxy."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import end_turn, pinged, posted, stored_battle

UNITS = """\
[[unit]]
name = "Kaworu"
side = "SEELE"
at = "B2"
owner = "{stranger}"

[[unit]]
name = "Mari"
side = "SEELE"
at = "C2"
owner = "<@{member}>"
"""


async def test_a_stat_block_owner_from_elsewhere_leaves_the_unit_to_the_gm(table: Table) -> None:
    other = table.discord.add_guild("Other Server")
    stranger = table.discord.add_user("stranger", guild=other)
    await table.setup_battle()
    body = UNITS.format(stranger=stranger.id, member=table.bob.id).encode()
    reply = await table.slash("unit import", file=("units.toml", body))
    ack = reply.messages[0]
    assert ack.ephemeral and ("1 of them (Kaworu) have no player: the file's `owner` is not a member of this server, "
                              "so /gm assign them.") in ack.content
    battle = await stored_battle(table)
    assert battle.unit("Kaworu").owner is None and battle.unit("Mari").owner == table.bob.id
    assert "for <@" not in text_of(reply).split("Kaworu", 1)[1].split("\n", 1)[0]
    await table.slash("battle start")
    await end_turn(table, user=table.alice, unit="Eva-01")
    assert stranger.id not in pinged(posted(table)), "a stranger named in a file was pinged"
    assert not last_message(reply).pings.users
