"""Small things a new GM meets: the @everyone GM role, private notes said once, names that look like mentions,
the P-Scale's dam, a Combat Action battle's first map, and an install without warnings."""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

from bot.console import run_script
from loopback.replies import Reply
from tests.e2e.conftest import Table, text_of
from tests.e2e.test_console import settings_for, write

ROOT = Path(__file__).resolve().parents[2]


async def test_the_console_refuses_everyone_as_the_gm_role(tmp_path: Path) -> None:
    out = io.StringIO()
    script = "/settings gm-role role:@everyone\n/settings gm-role role:everyone\n"
    await run_script(settings_for(tmp_path / "c.sqlite3"), str(write(tmp_path, script)), as_json=True, seed=1,
                     out_dir=str(tmp_path / "maps"), stdout=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    for line in lines:
        said = line.get("content", "") + json.dumps(line.get("embeds", []))
        assert "@everyone cannot be the GM role" in said, line
        assert "are now GMs" not in said


async def test_a_private_answer_says_once_that_only_you_see_it(tmp_path: Path) -> None:
    out = io.StringIO()
    script = ("/battle new name:T ruleset:strategic-e width:10 height:8\n"
              "/unit add name:Eva-01 side:NERV at:C3\n/turn status\n")
    await run_script(settings_for(tmp_path / "c.sqlite3"), str(write(tmp_path, script)), as_json=False, seed=1,
                     out_dir=str(tmp_path / "maps"), stdout=out)
    status = out.getvalue().split("/turn status", 1)[1]
    assert "Turn status" in status
    assert status.count("only you can see this") == 1, status


def drawn_text(reply: Reply) -> str:
    """Return what Discord draws with markdown and mentions: contents, titles, descriptions, fields (not footers)."""
    parts: list[str] = []
    for message in reply.messages:
        parts.append(message.content)
        for embed in message.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def test_a_unit_named_like_a_mention_shows_as_text(table: Table) -> None:
    await table.slash("battle new", name="Names", ruleset="strategic-e", width=10, height=8)
    added = await table.slash("unit add", name="<@1234>", side="<@&99>", at="C3")
    shown = [drawn_text(added), drawn_text(await table.slash("unit info", unit="<@1234>")),
             drawn_text(await table.slash("turn status"))]
    await table.slash("unit add", name="B", side="B", at="H7")
    await table.slash("battle start")
    shown.append(drawn_text(await table.slash("move", unit="<@1234>", to="J8")))  # a refusal quotes the name
    for text in shown:
        assert "<@\u200b1234>" in text, text
        assert "<@1234>" not in text and "<@&99>" not in text, text


async def test_p_scale_rule_texts_say_dam(table: Table) -> None:
    await table.slash("battle new", name="Dam", ruleset="strategic-p", width=10, height=8)
    shown = text_of(await table.slash("battle rules show"))
    assert "range in dam" in shown
    assert " dm " not in shown and " dm)" not in shown


async def test_a_combat_action_battle_with_rules_posts_its_map(table: Table) -> None:
    made = await table.slash("battle new", name="Ford", ruleset="combat-action", width=20, height=16,
                             rules="cm_per_square=10")
    assert "10 cm" in text_of(made)
    assert [f.filename for f in made.files if f.filename.endswith(".png")], made


def test_the_licence_is_an_spdx_expression() -> None:
    """setuptools 77 warns on every install about a `license` written as a table; a string is the current form."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    floor = [r for r in project["build-system"]["requires"] if r.startswith("setuptools")]
    assert floor == ["setuptools>=77"], "older setuptools cannot read a licence written as a string"
