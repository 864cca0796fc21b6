"""The GM's setup panel: the board of a battle in setup says what is missing before the start, holds buttons
for the steps, and is refreshed as setup proceeds; after the start the buttons are gone."""

from __future__ import annotations

from loopback.models import StoredMessage
from tests.e2e.conftest import Table, embed_text, last_message, text_of
from tests.e2e.setup_helpers import stored_battle
from tests.e2e.turn_helpers import board


def panel_text(message: StoredMessage) -> str:
    """Return what the board says."""
    return "\n".join(embed_text(e) for e in message.embeds)


def buttons(message: StoredMessage) -> list[str]:
    """Return the custom ids of the board's buttons."""
    return [c["custom_id"] for row in message.components for c in row.get("components", []) if "custom_id" in c]


async def test_the_board_is_a_setup_panel_that_follows_setup(table: Table) -> None:
    made = await table.slash("battle new", name="Panel", ruleset="strategic-e", width=12, height=10)
    assert "the pinned board is your setup panel" in text_of(made)
    panel = board(table)
    battle_id = (await table.service.peek(table.discord.guild.id, table.channel.id))[0].id  # type: ignore[index]
    assert buttons(panel) == [f"bp:setup-file:{battle_id}", f"bp:setup-paint:{battle_id}",
                              f"bp:setup-start:{battle_id}"]
    assert "no side has units yet" in panel_text(panel) and "all open ground" in panel_text(panel)

    await table.slash("unit add", name="Eva-01", side="NERV", at="C3", owner=table.alice)
    assert "only NERV has units" in panel_text(board(table))
    early = await table.click(board(table), f"bp:setup-start:{battle_id}")
    assert early.ephemeral and "A battle needs two sides with units to start; only NERV has units" in text_of(early)
    assert (await stored_battle(table)).status == "setup"

    await table.slash("unit add", name="Sachiel", side="Angels", at="J8")
    ready = panel_text(board(table))
    assert "Ready" in ready and "Sachiel has no player" in ready and "no side has units" not in ready

    told = await table.click(board(table), f"bp:setup-file:{battle_id}")
    assert told.ephemeral and "/unit import" in text_of(told)

    form = await table.click(board(table), f"bp:setup-paint:{battle_id}")
    assert form.modal is not None
    bad = await table.discord.submit_modal(form, {"terrain": "lava-sea", "from": "B2", "to": "C3"})
    await table.settle()
    assert bad.ephemeral and "There is no terrain `lava-sea`" in text_of(bad)
    form = await table.click(board(table), f"bp:setup-paint:{battle_id}")
    painted = await table.discord.submit_modal(form, {"terrain": "forest", "from": "B2", "to": "C3"})
    await table.settle()
    assert not last_message(painted).ephemeral and "Terrain painted" in text_of(painted)
    battle = await stored_battle(table)
    assert battle.terrain_at(battle.unit("Eva-01").cell).key == "forest"
    assert "all open ground" not in panel_text(board(table))

    refused = await table.click(board(table), f"bp:setup-start:{battle_id}", user=table.alice)
    assert refused.ephemeral and "Only a GM can start the battle" in text_of(refused)
    started = await table.click(board(table), f"bp:setup-start:{battle_id}")
    assert not last_message(started).ephemeral and (await stored_battle(table)).status == "active"
    assert "round 1" in text_of(started).lower(), text_of(started)
    assert buttons(board(table)) == [] and "still missing" not in panel_text(board(table))
