"""The GM's setup panel of a Surface Combat battle: pinned after /battle new, it says what is missing before the
start in Surface's words, holds buttons to add a unit, set a leader and start, follows setup, and loses its
buttons at the start."""

from __future__ import annotations

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.test_setup_panel import buttons, panel_text
from tests.e2e.turn_helpers import board, event_kinds, stored_battle


async def test_a_surface_battle_gets_a_setup_panel_that_follows_setup(table: Table) -> None:
    made = await table.slash("battle new", name="Kessel", ruleset="surface")
    assert "pinned panel is your setup panel" in text_of(made)
    battle_id = (await table.service.peek(table.discord.guild.id, table.channel.id))[0].id  # type: ignore[index]
    panel = board(table)
    steps = ["add", "file", "leader", "start"]
    assert buttons(panel) == [f"bp:surface-setup-{step}:{battle_id}" for step in steps]
    assert "no side has units yet" in panel_text(panel) and "/surface add" in panel_text(panel)
    assert "/unit add" not in panel_text(panel) and "terrain" not in panel_text(panel).lower()

    # Start too early: refused privately, naming what is missing, and nothing changes.
    before = await event_kinds(table)
    early = await table.click(board(table), f"bp:surface-setup-start:{battle_id}")
    assert early.ephemeral and "Still missing: Forces: no side has units yet" in text_of(early), text_of(early)
    assert (await stored_battle(table)).status == "setup" and await event_kinds(table) == before

    # A unit by the panel's form; a type it does not know is refused privately and adds nothing.
    form = await table.click(board(table), f"bp:surface-setup-add:{battle_id}")
    assert form.modal is not None
    bad = await table.discord.submit_modal(form, {"name": "Hammer", "side": "Marines", "type": "dragons"})
    await table.settle()
    assert bad.ephemeral and "There is no unit type `dragons`" in text_of(bad), text_of(bad)
    assert list((await stored_battle(table)).iter_units()) == []
    form = await table.click(board(table), f"bp:surface-setup-add:{battle_id}")
    added = await table.discord.submit_modal(form, {"name": "Hammer", "side": "Marines", "type": "Space Marines"})
    await table.settle()
    assert not last_message(added).ephemeral and "Hammer joins Marines" in text_of(added)
    assert (await stored_battle(table)).unit("Hammer").utype == "space-marines"  # type: ignore[attr-defined]
    text = panel_text(board(table))
    assert "only Marines has units" in text and "Hammer" in text and "Marines has no leader" in text

    refused = await table.click(board(table), f"bp:surface-setup-start:{battle_id}")
    assert refused.ephemeral and "A second force: only Marines has units" in text_of(refused)

    # A leader by the panel's form: a bad Ability is refused privately; a good one shows on the panel.
    form = await table.click(board(table), f"bp:surface-setup-leader:{battle_id}")
    wrong = await table.discord.submit_modal(form, {"side": "Marines", "leader": "Kell", "ability": "a"})
    await table.settle()
    assert wrong.ephemeral and "Leader Ability is a whole number from 0 to 100, not `a`" in text_of(wrong)
    assert "Marines has no leader" in panel_text(board(table))
    form = await table.click(board(table), f"bp:surface-setup-leader:{battle_id}")
    await table.discord.submit_modal(form, {"side": "Marines", "leader": "Kell", "ability": "2"})
    await table.settle()
    assert "Leader Kell (Ability 2)" in panel_text(board(table))
    assert "Marines has no leader" not in panel_text(board(table))

    # The second force by command: the panel follows every setup order.
    await table.slash("surface add", name="Cell 7", side="Rebels", **{"type": "rebels"}, owner=table.bob)
    ready = panel_text(board(table))
    assert "Ready" in ready and "Cell 7" in ready and "no units yet" not in ready and "only Marines" not in ready
    assert "Rebels has no leader" in ready and "no player commands a unit of Marines" in ready

    told = await table.click(board(table), f"bp:surface-setup-file:{battle_id}")
    assert told.ephemeral and "/surface import" in text_of(told)

    player = await table.click(board(table), f"bp:surface-setup-start:{battle_id}", user=table.bob)
    assert player.ephemeral and "Only a GM can start the battle" in text_of(player), text_of(player)
    assert (await stored_battle(table)).status == "setup"
    started = await table.click(board(table), f"bp:surface-setup-start:{battle_id}")
    assert not last_message(started).ephemeral and "Game turn 1 begins" in text_of(started), text_of(started)
    assert (await stored_battle(table)).status == "active"
    assert buttons(board(table)) == [] and "still missing" not in panel_text(board(table))
