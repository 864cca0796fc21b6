"""A rule system from outside the tree: `examples/plugin-system` installed into a fresh virtual environment.

The package is installed beside battlepost with pip, found through its `battlepost.systems` entry point, and a
battle of it is played through the console (`python -m bot play FILE --json`). Uninstalled again, its battle
opens read-only with a message naming the package, and nothing of it changes.
"""

from __future__ import annotations

import json
import shutil
import site
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "plugin-system"
PACKAGE = "battlepost-skirmish"

SETUP = """as gm
/battle new name:"Sand Pit" ruleset:skirmish width:6 height:6
/map paint terrain:rock from:C4 to:D4
/unit add name:Brand side:Reds at:B2 owner:@ada stats:"hp=2"
/unit add name:Orla side:Blues at:E4 owner:@bo
/turn mode mode:side
/battle start
as ada
/move unit:Brand to:C4
/move unit:Brand to:D3
/strike unit:Brand target:Orla
/turn end unit:Brand
as bo
/strike unit:Orla target:Brand
/strike unit:Orla target:Brand
"""

AFTER_UNINSTALL = """as gm
/battle info
as ada
/move unit:Brand to:C2
"""


class Venv:
    """A fresh virtual environment that sees this one's packages (battlepost, discord.py) but not its own."""

    def __init__(self, root: Path) -> None:
        subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, capture_output=True)
        self.python = root / "bin" / "python"
        own = subprocess.run([str(self.python), "-c", "import site; print(site.getsitepackages()[0])"],
                             check=True, capture_output=True, text=True).stdout.strip()
        # The outer environment's site directories, .pth files and all (the editable battlepost among them),
        # so no package is downloaded; the plug-in itself is installed into this environment alone.
        lines = [f"import site; site.addsitedir({d!r})" for d in site.getsitepackages()]
        Path(own, "_outer_environment.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def run(self, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        """Run this environment's python with some arguments."""
        return subprocess.run([str(self.python), *args], cwd=cwd, capture_output=True, text=True, timeout=300)

    def pip(self, *args: str, cwd: Path) -> None:
        """Run pip offline in this environment, failing the test with its output if it fails."""
        done = self.run("-m", "pip", "--disable-pip-version-check", *args, cwd=cwd)
        assert done.returncode == 0, done.stdout + done.stderr


def play(venv: Venv, tmp_path: Path, name: str, script: str) -> list[dict[str, Any]]:
    """Play a script through the console of the environment's bot and return its JSON answers."""
    path = tmp_path / name
    path.write_text(script, encoding="utf-8")
    done = venv.run("-m", "bot", "play", str(path), "--json", "--seed", "3", "--out", str(tmp_path / "out"),
                    "--db", str(tmp_path / "pit.sqlite3"), cwd=tmp_path)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert answers, done.stdout + done.stderr
    return answers


def stored(tmp_path: Path) -> tuple[int, str, int]:
    """Return the stored battle's version, its state document and the number of its events."""
    with sqlite3.connect(tmp_path / "pit.sqlite3") as db:
        version, state = db.execute("SELECT version, state FROM battles WHERE id = 1").fetchone()
        (events,) = db.execute("SELECT count(*) FROM events WHERE battle_id = 1").fetchone()
    return int(version), str(state), int(events)


def words(answer: dict[str, Any]) -> str:
    """Return everything an answer said: its content, error and embed descriptions."""
    parts = [answer.get("content", ""), answer.get("error", "")]
    parts += [e.get("description", "") for e in answer.get("embeds", [])]
    return "\n".join(p for p in parts if p)


def effects(answer: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """Return the effects of one kind an answer's outcome recorded."""
    outcome = answer.get("outcome") or {}
    return [fx for fx in outcome.get("effects", []) if fx.get("type") == kind]


def test_a_sixth_system_installs_beside_battlepost_and_plays_through_the_console(tmp_path: Path) -> None:
    source = tmp_path / "plugin-system"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    venv = Venv(tmp_path / "venv")
    venv.pip("install", "--no-deps", "--no-build-isolation", "--no-index", str(source), cwd=tmp_path)

    # The package's own tests pass where it is installed.
    own = venv.run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=source)
    assert own.returncode == 0, own.stdout + own.stderr

    answers = play(venv, tmp_path, "pit.play", SETUP)
    by_line = {i: a for i, a in enumerate(answers)}
    assert all(a["ok"] for a in answers[:6]), [words(a) for a in answers[:6] if not a["ok"]]
    assert "Ruleset **skirmish**" in words(by_line[0])
    assert effects(by_line[2], "entered") == [{"type": "entered", "unit": "Brand", "side": "Reds", "at": "B2", "hp": 2}]

    rock = by_line[6]  # a step onto rock: refused privately, saying why
    assert not rock["ok"] and rock["ephemeral"]
    assert "not an open square of sand" in rock["error"]
    step = by_line[7]
    assert step["ok"] and effects(step, "stepped") == [{"type": "stepped", "unit": "Brand", "frm": "B2", "to": "D3"}]
    assert "Brand steps from B2 to **D3**." in words(step)

    hp = {"Brand": 2, "Orla": 3}
    strikes = [by_line[8], by_line[10], by_line[11]]
    for answer in strikes:
        assert answer["ok"], words(answer)
        (struck,) = effects(answer, "struck")
        roll = answer["outcome"]["rolls"][0]
        assert roll["notation"] == "1d6" and struck["roll"] == roll["total"]
        assert struck["hit"] == (struck["roll"] >= 4)  # hit_on = 4 in the system's data table
        hp[struck["target"]] -= 1 if struck["hit"] else 0
        assert struck["hp_left"] == hp[struck["target"]]
        assert f"d6 **{struck['roll']}** (needs 4+)" in words(answer)
    assert by_line[9]["ok"]  # /turn end passes the phase to the Blues

    version, state, events = stored(tmp_path)
    assert json.loads(state)["package"] == PACKAGE

    venv.pip("uninstall", "--yes", PACKAGE, cwd=tmp_path)
    later = play(venv, tmp_path, "later.play", AFTER_UNINSTALL)
    info, move = later
    for answer in (info, move):
        assert not answer["ok"] and answer["ephemeral"]
        assert f"`{PACKAGE}`" in answer["error"] and "read-only" in answer["error"]
    assert stored(tmp_path) == (version, state, events)  # nothing of the battle changed
