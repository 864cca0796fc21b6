"""The demo script plays as written: every line runs, only the two refusals it shows on purpose fail."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.console import run_script
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
        ("/move unit:Eva-01 to:H10 mode:half", "Eva-01 has no actions left this turn; end its turn with /turn end."),
        ("/move unit:Eva-01 to:H10",
         "Eva-01 is not yours to command; you can only give orders to your own units."),
    ]
    texts = "\n".join(line["content"] + json.dumps(line["embeds"]) for line in lines)
    assert "Now the **Angels** phase." in texts and "**Round 2** begins (side mode)." in texts
    assert "Undone: 1 order" in texts and "Log: Siege of Hakone" in texts
    assert len(list((tmp_path / "maps").glob("*.png"))) >= 20
