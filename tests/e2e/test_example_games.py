"""The example games of each rule system, from `/battle new` to the battle's end: the GM sets up with commands,
the players only press buttons and pick in menus, and the summary tells what happened."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.console import run_script
from tests.e2e.test_console import settings_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# script, seed, and what its summary must say (read off the script: who fell, the round of the last order).
GAMES = [
    ("strategic/ridge.play", 3, "Ridge Picket", ["Fought over **5 rounds**", "Casualties (1): Picket",
                                                  "Still standing: Red 1/1 \u00b7 Blue 0/1"]),
    ("strategic/quarry.play", 1, "Quarry Gate", ["Casualties (1): Picket"]),
    ("combat-action/patrol.play", 4, "Hedge Line", ["Fought over **3 rounds**",
                                                     "Casualties (2): Cpl Reyes, Warden Tam"]),
    ("m42/orchard.play", 1, "Orchard Run", ["Fought over **3 rounds**", "Still standing: Red 1/1 \u00b7 Blue 1/1"]),
    ("surface-buttons.play", 7, "Landing at Kessel", ["Casualties (2)"]),
]


@pytest.mark.parametrize(("script", "seed", "name", "told"), GAMES, ids=[g[0] for g in GAMES])
async def test_each_system_plays_to_its_end_by_buttons(tmp_path: Path, script: str, seed: int, name: str,
                                                        told: list[str]) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "game.sqlite3"), str(EXAMPLES / script), as_json=True,
                              seed=seed, out_dir=str(tmp_path / "out"), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 0 and [line["command"] for line in lines if not line["ok"]] == []
    gm = lines[0]["user"]
    by_players = [line["command"] for line in lines if line["user"] != gm]
    assert by_players and all(c.startswith(("click ", "pick ")) for c in by_players), "the players only click and pick"
    # Each player pressed in more than one turn: the game went back and forth.
    assert len({line["user"] for line in lines if line["user"] != gm}) == 2
    summary = next(line for line in reversed(lines) if f"Battle over: {name}" in json.dumps(line["embeds"]))
    assert summary["user"] == gm and summary["command"] == "click End the battle"
    said = json.dumps(summary["embeds"], ensure_ascii=False)
    for words in told:
        assert words in said, said
    # The statistics close the battle in its channel, posted with the summary rather than lost after it.
    assert any("Statistics" in post for post in summary["posts"]), summary["posts"]
