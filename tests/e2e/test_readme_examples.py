"""Every console and play example README.md gives runs as written from the project's folder.

The slash-command blocks run as console scripts, each in a fresh console; the `python -m bot play` lines
run through the command line itself. (`make demo`'s script is played by tests/e2e/test_demo.py.)
"""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console import run_script
from tests.e2e.test_console import settings_for

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SLASH_BLOCKS = [block for block in FENCE.findall(README) if block.lstrip().startswith("/")]
PLAY_LINES = sorted({m.group(1).strip() for m in re.finditer(r"`(python -m bot play examples/[^`]+)`", README)})


def test_the_readme_has_the_examples_this_test_runs() -> None:
    assert SLASH_BLOCKS and len(PLAY_LINES) >= 2, (SLASH_BLOCKS, PLAY_LINES)


@pytest.mark.parametrize("block", SLASH_BLOCKS)
async def test_each_slash_command_block_runs_as_written(block: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # as a reader runs it: from the project's folder
    script = tmp_path / "readme.play"
    script.write_text(block, encoding="utf-8")
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "readme.sqlite3"), str(script), as_json=True, seed=7,
                              out_dir=str(tmp_path / "maps"), stdout=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 0 and len(lines) == len([x for x in block.splitlines() if x.startswith("/")])
    for line in lines:
        assert line["ok"] and not line.get("error"), line
        text = line["content"] + json.dumps(line["embeds"], ensure_ascii=False)
        assert not re.search(r"[Nn]o file|is not|[Cc]annot|[Uu]se one of", text), (line["command"], text[:400])


@pytest.mark.parametrize("command", PLAY_LINES)
def test_each_play_command_runs_as_written(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)[3:]  # after `python -m bot`
    # Its maps and database go to a scratch folder, not into the checkout.
    status = main([*argv, "--out", str(tmp_path / "out"), "--db", str(tmp_path / "play.sqlite3")])
    printed = capsys.readouterr().out
    assert status == 0, printed[-2000:]
    if "--json" in argv:
        refused = [x for x in map(json.loads, printed.splitlines()) if not x["ok"]]
        assert refused == [], refused
    else:
        assert printed.startswith("[") and "\nline " not in printed, printed[:500]
