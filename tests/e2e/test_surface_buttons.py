"""Surface Combat played by buttons and menus alone: plans picked, the fight, the next game turn, the verdict."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from bot.console import run_script
from loopback.models import StoredMessage
from rules.systems.surface.state import Plan, state
from tests.e2e.action_helpers import button, components, labels
from tests.e2e.conftest import Table, text_of
from tests.e2e.test_console import settings_for
from tests.e2e.test_surface import setup
from tests.e2e.turn_helpers import message_text, new_since, posted, stored_battle

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "surface-buttons.play"


def plans_ping(messages: list[StoredMessage]) -> StoredMessage:
    """Return the post that opens the plans, with its Plan buttons."""
    found = [m for m in messages if "plans are open" in m.content]
    assert found, [m.content for m in messages]
    return found[-1]


def menu_of(message: StoredMessage, placeholder_or_label: str) -> dict[str, Any]:
    """Return the menu whose options or placeholder start with this text."""
    for c in components(message):
        if c["type"] != 3:
            continue
        first = c["options"][0]["label"] if c["options"] else ""
        if first.startswith(placeholder_or_label) or (c.get("placeholder") or "").startswith(placeholder_or_label):
            return c
    raise AssertionError(f"no menu {placeholder_or_label!r} on {message!r}")


async def pick(table: Table, message: StoredMessage, which: str, values: list[str], user: Any) -> StoredMessage:
    """Pick values in a menu of a private plan; return the plan as it now reads."""
    await table.discord.select(message, menu_of(message, which)["custom_id"], values, user=user)
    await table.settle()
    return table.discord.world.messages[message.id]


async def plan_by_buttons(table: Table, ping: StoredMessage, side: str, user: Any, *, intensity: str,
                          dropped: list[str] = ()) -> Any:
    """Open a side's plan from the ping, pick intensity and dropped units, and commit it."""
    opened = await table.click(ping, button(ping, f"Plan for {side}")["custom_id"], user=user)
    panel = opened.messages[-1]
    assert panel.ephemeral and f"Pre-battle plan of {side}" in message_text(panel)
    panel = await pick(table, panel, "Intensity", [intensity], user)
    assert f"Intensity **{intensity}**" in message_text(panel)
    if dropped:
        panel = await pick(table, panel, "Units dropped", dropped, user)
    panel_now = table.discord.world.messages[panel.id]
    return await table.click(panel_now, button(panel_now, "Commit plan")["custom_id"], user=user)


async def test_a_surface_battle_is_played_to_its_verdict_by_buttons(table: Table) -> None:
    before = posted(table)
    await setup(table)
    ping = plans_ping(new_since(table, before))
    assert {"Plan for Marines", "Plan for Rebels"} <= set(labels(ping))
    # Only a player of the side (or the GM) opens its plan.
    refused = await table.click(ping, button(ping, "Plan for Marines")["custom_id"], user=table.bob)
    assert refused.messages[-1].ephemeral and "Only the GM or a player commanding units of Marines" in text_of(refused)
    mine = await plan_by_buttons(table, ping, "Marines", table.alice, intensity="2", dropped=["1"])
    assert "Plan for Marines committed: intensity 2, daring 0, 1 dropped, not besieged" in text_of(mine)
    battle = await stored_battle(table)
    assert state(battle).plan("Marines") == Plan(2, 0, (battle.unit("Titan").id,), False)
    before = posted(table)
    theirs = await plan_by_buttons(table, ping, "Rebels", table.bob, intensity="0")
    report = [m for m in new_since(table, before) if "Round 1" in message_text(m)]
    assert report and not report[-1].ephemeral, text_of(theirs)
    assert "Plan: intensity 2, daring 0, 1 dropped from transports" in message_text(report[-1])
    assert report[-1].files and report[-1].files[0].data.startswith(b"\x89PNG")
    for turn in range(1, 8):
        over = [m for m in new_since(table, before) if "Battle over?" in message_text(m)]
        if over:
            break
        # The GM opens the next game turn from the report; a player may not, and a turn opens once.
        not_gm = await table.click(report[-1], button(report[-1], "Next game turn")["custom_id"], user=table.alice)
        assert "Only a GM can open the next game turn" in text_of(not_gm)
        before = posted(table)
        await table.click(report[-1], button(report[-1], "Next game turn")["custom_id"], user=table.gm)
        assert state(await stored_battle(table)).turn == turn + 1
        again = await table.click(report[-1], button(report[-1], "Next game turn")["custom_id"], user=table.gm)
        assert f"Game turn {turn} is over already" in text_of(again)
        ping = plans_ping(new_since(table, before))
        await plan_by_buttons(table, ping, "Marines", table.alice, intensity="2")
        before = posted(table)
        await plan_by_buttons(table, ping, "Rebels", table.bob, intensity="2")
        report = [m for m in new_since(table, before) if "Round 1" in message_text(m)]
        assert report, [message_text(m) for m in new_since(table, before)]
    assert over, "seven game turns and no side beaten"
    # The verdict: the report offers no next turn, and the GM (pinged) is asked to end the battle.
    assert not [label for label in labels(report[-1]) if label.startswith("Next game turn")]
    assert table.gm.id in over[-1].pings.users and "decisive" in message_text(over[-1])
    # A next game turn typed anyway calls nobody to plan: one force has no unit left.
    before = posted(table)
    await table.slash("surface next-turn")
    assert not [m for m in new_since(table, before) if "plans are open" in m.content]
    player = await table.click(over[-1], button(over[-1], "End the battle")["custom_id"], user=table.alice)
    assert "Only a GM can" in text_of(player) and (await stored_battle(table)).status == "active"
    ended = await table.click(over[-1], button(over[-1], "End the battle")["custom_id"], user=table.gm)
    assert "Battle over: Landing at Kessel" in text_of(ended)
    assert await table.db.battles.in_channel(table.discord.guild.id, table.channel.id) is None  # ended: the channel is free


async def test_the_gm_fights_at_once_by_button_when_a_plan_is_late(table: Table) -> None:
    await setup(table)
    await table.gm_slash("gm deadline", hours=1)
    await table.gm_slash("gm policy", policy="wait")
    ping = plans_ping(posted(table))
    await plan_by_buttons(table, ping, "Marines", table.alice, intensity="1")
    before = posted(table)
    await table.tick(hours=2)
    late = [m for m in new_since(table, before) if "Deadline passed" in message_text(m)]
    assert late, [message_text(m) for m in new_since(table, before)]
    assert {"Plan for Rebels", "Fight now (GM)"} <= set(labels(late[-1]))
    refused = await table.click(late[-1], button(late[-1], "Fight now")["custom_id"], user=table.alice)
    assert "Only a GM can fight the battle" in text_of(refused)
    before = posted(table)
    await table.click(late[-1], button(late[-1], "Fight now")["custom_id"], user=table.gm)
    fought = [m for m in new_since(table, before) if "Round 1" in message_text(m)]
    assert fought and "No plan, so the default plan" in message_text(fought[-1])


async def test_a_plan_menu_after_the_fight_changes_nothing(table: Table) -> None:
    await setup(table)
    ping = plans_ping(posted(table))
    opened = await table.click(ping, button(ping, "Plan for Rebels")["custom_id"], user=table.bob)
    panel = opened.messages[-1]
    await plan_by_buttons(table, ping, "Marines", table.alice, intensity="1")
    await plan_by_buttons(table, ping, "Rebels", table.bob, intensity="1")
    fought = state(await stored_battle(table)).report
    late = await table.click(panel, button(panel, "Commit plan")["custom_id"], user=table.bob)
    assert "has been fought" in text_of(late) and late.messages[-1].ephemeral
    assert fought is not None and state(await stored_battle(table)).report == fought
    # In the next game turn, a plan picked for the last one is refused rather than taken for this one.
    await table.slash("surface next-turn")
    stale = await table.click(panel, button(panel, "Commit plan")["custom_id"], user=table.bob)
    assert "This plan is of game turn 1, which is over" in text_of(stale) and stale.messages[-1].ephemeral
    assert state(await stored_battle(table)).plans == {}


async def test_the_button_example_plays_to_the_summary_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "buttons.sqlite3"), str(EXAMPLE), as_json=True, seed=7,
                              out_dir=str(tmp_path / "out"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["command"] for line in lines if not line["ok"]] == []
    typed = [line["command"] for line in lines if line["command"].startswith("/")]
    assert all(c.startswith(("/battle", "/surface add")) for c in typed), "the players only click and pick"
    texts = "\n".join(line["content"] + json.dumps(line["embeds"]) for line in lines)
    assert "Plan for Marines committed: intensity 2, daring 0, 1 dropped" in texts
    assert "Plan for Rebels committed: intensity 1, daring 1, 0 dropped, besieged" in texts
    assert "Battle over: Landing at Kessel" in texts and "Casualties (2)" in texts


async def test_a_plan_committed_from_a_direct_message_posts_the_battle_in_the_channel(table: Table) -> None:
    await table.slash("settings notify", user=table.bob, mode="dm")
    await setup(table)
    ping = plans_ping(posted(table))
    await plan_by_buttons(table, ping, "Marines", table.alice, intensity="1")
    [dm] = [m for m in table.discord.dm_messages(table.bob) if "plans are open" in m.content]
    before = posted(table)
    theirs = await plan_by_buttons(table, dm, "Rebels", table.bob, intensity="1")
    report = [m for m in new_since(table, before) if "Round 1" in message_text(m)]
    assert report, "the report is posted in the battle's channel for everyone"
    assert report[-1].files and report[-1].files[0].data.startswith(b"\x89PNG")
    assert "posted in the battle's channel" in text_of(theirs)
