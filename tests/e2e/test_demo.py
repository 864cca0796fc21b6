"""The demo script plays as written; its maps show every unit and the unit key, and its map reads aloud."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from bot.console import run_script
from bot.mapview import last_action
from bot.service import TableService
from render import Geometry
from rules.battle import Battle
from rules.colours import side_colours
from storage import Database
from tests.e2e.test_console import settings_for

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo.play"


async def test_demo_script_plays_through_its_turns(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "demo.sqlite3"), str(DEMO), as_json=True, seed=7,
                              out_dir=str(tmp_path / "maps"), stdout=out)
    assert status == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    refused = [(line["command"], line["error"]) for line in lines if not line["ok"]]
    assert refused == [
        ("/move unit:Eva-01 to:H10 mode:half", "Eva-01 has ended its turn this round; it acts again in round 2."),
        ("/move unit:Eva-01 to:H10",
         "Eva-01 is not yours to command; you can only give orders to your own units."),
    ]
    texts = "\n".join(line["content"] + json.dumps(line["embeds"], ensure_ascii=False) for line in lines)
    assert "Now the **Angels** phase." in texts and "**Round 2** begins (side mode)." in texts
    assert "Eva-01 has nothing left to do, so its turn ends." in texts
    assert "Half: the cheapest move that reaches E13." in texts
    by_command = {}
    for line in lines:
        by_command.setdefault(line["command"], line)  # the first time each line is played
    assert by_command["click Move: half"]["buttons"][0].startswith("[menu: Pick the square: ")
    assert by_command["pick S10"]["outcome"]["effects"][0]["to"] == "S10"
    assert by_command["click End turn"]["buttons"] == ["[End turn anyway]", "[Cancel]"]
    assert any("your turn in **Siege of Hakone**, round 2" in post for post in by_command["click End turn anyway"]["posts"])
    assert "Undone: 1 order" in texts and "Log: Siege of Hakone" in texts
    maps = sorted((tmp_path / "maps").glob("*.png"))
    assert len(maps) >= 20
    await _check_final_map_and_text(tmp_path / "demo.sqlite3", maps[-1])


async def _check_final_map_and_text(db_path: Path, final: Path) -> None:
    """The last map (/map show full) draws every unit and the key; /map text reads the battle in order."""
    db = await Database.open(db_path)
    try:
        service = TableService(db, render=False)
        record = await db.battles.get(1)  # the demo makes one battle
        assert record is not None and record.name == "Siege of Hakone"
        battle = Battle.from_dict(record.state)
        text = await service.text_map(battle, highlight=last_action(battle))
    finally:
        await db.close()
    image = Image.open(final).convert("RGB")
    geometry = Geometry.for_view(service.view_of(battle))
    colours = side_colours(battle)
    for unit in battle.iter_units():
        left, top, right, bottom = geometry.cell_box(unit.x, unit.y)
        found = {c for _, c in image.crop((left, top, right, bottom)).getcolors(4096) or []}
        assert colours[unit.side] in found, f"{unit.name} is drawn on {unit.cell}"
    key = image.crop((0, geometry.title_height + geometry.board_height, image.width, image.height))
    in_key = {c for _, c in key.getcolors(1 << 16) or []}
    assert set(colours.values()) <= in_key, "the unit key under the map shows both sides' tokens"

    lines = text.lines()
    assert lines[0].startswith("Map of Siege of Hakone") and "Round 2, NERV phase" in lines[0]
    assert text.happened == ("Eva-02 (E02) moved from F13 to H12 by G13 (2 steps).",)
    # Every unit, by side in the order the sides were made, north to south; each with its square and health.
    order = [line.split(" (")[0] for line in text.units]
    nerv = sorted((u for u in battle.iter_units() if u.side == "NERV"), key=lambda u: (u.y, u.x))
    angels = sorted((u for u in battle.iter_units() if u.side == "Angels"), key=lambda u: (u.y, u.x))
    assert order == [u.name for u in nerv + angels]
    for unit, line in zip(nerv + angels, text.units, strict=True):
        health = f"Magnitude {unit.magnitude}/" if unit.is_horde else f"Wounds {unit.wounds}/"
        assert f": on {unit.cell}, " in line and health in line, line
    assert "River/Water: a block of 40 squares from O1 to P20." in text.terrain
    assert "Forest: a block of 36 squares from H4 to M9." in text.terrain
