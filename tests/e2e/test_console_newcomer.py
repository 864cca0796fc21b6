"""The console as a newcomer meets it: completion, menus picked by unit or square, channels made by `in`,
a restart that keeps the last answer's buttons and the map files' numbers, and no log on the screen."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Completions, open_console, option_names, run_script
from tests.e2e.test_console import settings_for, write

ROOT = Path(__file__).resolve().parents[2]
SETUP = """\
as gm
/battle new name:"Pick" ruleset:strategic-e width:12 height:10
/unit import file:examples/eva-01.toml owner:@alice
/unit add name:Sachiel side:Angels at:G5 ag:38 wounds:60
/unit add name:Ramiel side:Angels at:G6 ag:38 wounds:60
/battle start
"""


async def play(tmp: Path, script: str, db: str = "c.sqlite3", seed: int = 3) -> list[dict[str, object]]:
    """Run a script on a database in tmp; return its JSON lines."""
    out = io.StringIO()
    await run_script(settings_for(tmp / db), str(write(tmp, script)), as_json=True, seed=seed,
                     out_dir=str(tmp / "maps"), stdout=out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_a_menu_option_answers_to_its_unit_and_its_square() -> None:
    assert option_names("Hellbore Cannon -> Eva-01 (G6)") == {"Eva-01", "G6"}
    assert option_names("Sachiel (G5)") == {"Sachiel", "G5"}
    assert option_names("Intensity 3") == {"Intensity 3"}


async def test_pick_takes_a_units_name_or_its_square(tmp_path: Path) -> None:
    lines = await play(tmp_path, SETUP + "\n".join([
        "as alice",
        "click Attack: Pallet Rifle",
        "pick G6",
        "click Attack: Pallet Rifle",
        "pick sachiel",
    ]))
    by_square, by_name = lines[-3], lines[-1]
    assert by_square["ok"] and "target:Ramiel" in by_square["outcome"]["order"], by_square
    assert by_name["ok"] and "target:Sachiel" in by_name["outcome"]["order"], by_name


async def test_a_square_two_units_share_is_refused_with_their_names(tmp_path: Path) -> None:
    lines = await play(tmp_path, SETUP.replace("at:G6", "at:G5") + "as alice\nclick Attack: Pallet Rifle\npick G5\n")
    refused = lines[-1]
    assert not refused["ok"] and "`G5` fits 2 options" in refused["error"]
    assert "Sachiel (G5)" in refused["error"] and "Ramiel (G5)" in refused["error"]


async def test_in_makes_a_channel_that_a_restart_keeps(tmp_path: Path) -> None:
    first = await play(tmp_path, "as gm\nin second-front\n"
                                 '/battle new name:"Second Front" ruleset:strategic-e width:12 height:10\n')
    assert first[0]["ok"]
    again = await play(tmp_path, "as gm\nin second-front\n/battle info\nin battle\n/battle info\n")
    assert "Second Front" in json.dumps(again[0]["embeds"]), "the channel and its battle came back"
    assert "Second Front" not in json.dumps(again[1]), "the first channel has no battle"


async def test_after_a_restart_the_last_answers_buttons_work_and_maps_keep_counting(tmp_path: Path) -> None:
    first = await play(tmp_path, SETUP + "as alice\n/move unit:Eva-01 to:E6 mode:half\n")
    moved = first[-1]
    assert "[Undo]" in " ".join(moved["buttons"]), moved["buttons"]
    written = sorted((tmp_path / "maps").glob("*.png"))
    before = {p.name: p.read_bytes() for p in written}
    again = await play(tmp_path, "as alice\nclick Undo\n/map show\n")
    undone = again[0]
    assert undone["ok"] and "took back" in undone["content"] + json.dumps(undone["embeds"]), undone
    after = {p.name: p.read_bytes() for p in (tmp_path / "maps").glob("*.png")}
    assert all(after[name] == data for name, data in before.items()), "no map of the first session is overwritten"
    newest = max(int(name[:3]) for name in before)
    numbers = [int(Path(f).name[:3]) for line in again for f in line["files"]]
    assert numbers and numbers[0] == newest + 1 and numbers == sorted(set(numbers)), numbers


async def test_completion_comes_from_the_command_tree_and_the_battle(tmp_path: Path) -> None:
    await play(tmp_path, SETUP)
    discord, db, console = await open_console(settings_for(tmp_path / "c.sqlite3"), tmp_path / "maps", 1)
    try:
        offer = Completions(console).complete
        assert await offer("/mo") == ["move"]
        assert "new" in await offer("/battle ") and "start" in await offer("/battle s")
        assert await offer("/move unit:Eva-01 m") == ["mode:"], "options not yet given"
        assert await offer("/move unit:Ra") == ["unit:Ramiel"], "the bot's own autocomplete names the unit"
        assert "to:G5" in await offer("/move unit:Eva-01 to:G"), "the squares of the units come first"
        squares = await offer("/move unit:Eva-01 to:G1")
        assert squares == ["to:G1", "to:G10"], "the map's squares, no further than its edge"
        assert "ruleset:strategic-e" in await offer("/battle new name:x ruleset:strat")
        assert await offer("as al") == ["alice"] and await offer("cl") == ["click"]
        assert await offer("/battle new full:") == [] and await offer('/unit add name:"open') == []
        assert "full:" in await offer("/map show "), "the options of a subcommand"
        console.current = console.user("alice")
        await console.run_line("/move unit:Eva-01 to:E6 mode:half")
        assert "Undo" in await offer("click U")
    finally:
        await discord.close()
        await db.close()


async def test_nothing_typed_crashes_the_completion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # files are offered from where the console runs
    discord, db, console = await open_console(settings_for(tmp_path / "c.sqlite3"), tmp_path / "maps", 1)
    try:
        offer = Completions(console).complete
        for text in ["", "/", "/ ", "//", "/move unit:", "/move :", "/nope x:y", "pick ", "in ", "wait 2",
                     "/unit import file:", "/unit import file:examples/", "/battle new width:\"3", "\x00", "/" * 500]:
            assert isinstance(await offer(text), list), text
        assert "examples/eva-01.toml" in [o.partition(":")[2] for o in await offer("/unit import file:examples/e")]
    finally:
        await discord.close()
        await db.close()


def test_the_console_shows_no_log_unless_asked(tmp_path: Path) -> None:
    script = tmp_path / "s.play"
    script.write_text('/battle new name:"Quiet" ruleset:strategic-e width:12 height:10\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    quiet = subprocess.run([sys.executable, "-m", "bot", "play", str(script), "--out", str(tmp_path / "q")],
                           cwd=ROOT, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == "" and " INFO " not in quiet.stdout, quiet.stderr[:500]
    assert quiet.stdout.startswith("[gm] /battle new"), quiet.stdout[:300]
    assert "created battle 1" in (tmp_path / "q" / "console.log").read_text(encoding="utf-8")
    loud = subprocess.run([sys.executable, "-m", "bot", "play", str(script), "--out", str(tmp_path / "v"),
                           "--verbose"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert loud.returncode == 0 and "INFO storage" in loud.stderr


PIECES = ["/", "/battle", " new", " info", "/move", "/roll", " dice:", "1d20 adv adv", " unit:", "Eva-01", " to:",
          "ZZ99", "G5", " mode:", "half", "click ", "pick ", "as ", "in ", "wait ", "25h", "-1h", '"', "'", ":",
          "name:", "x" * 300, "\u202e", "\x00", "\t", " owner:@", "@everyone", "#battle", " file:", "../../etc/passwd",
          "/unit import", "/map show", " full:", "maybe", "99999999999", "-0", "\u0663", " ", "  ", "quit"]
# Lines that reach the bot: a command it knows with a value made of the pieces above.
STARTS = ["/move unit:Eva-01 to:", "/roll dice:", "/unit info unit:", "/map show full:true side:", "pick ", "click ",
          "/turn status", "/attack unit:Eva-01 weapon:", "as alice", "/gm roll dice:"]


async def test_no_line_a_user_types_crashes_the_console(tmp_path: Path) -> None:
    """Lines made of the console's own words and of garbage: each runs, or is refused by the console's message."""
    import random

    from bot.console import ConsoleError

    await play(tmp_path, SETUP)
    discord, db, console = await open_console(settings_for(tmp_path / "c.sqlite3"), tmp_path / "maps", 1)
    draw = random.Random(2026)
    try:
        offer = Completions(console).complete
        for _ in range(150):
            line = "".join(draw.choice(PIECES) for _ in range(draw.randint(1, 6)))
            if draw.random() < 0.5:
                line = draw.choice(STARTS) + line.strip().replace(" ", "")
            try:
                await console.run_line(line)
            except ConsoleError as exc:
                assert str(exc).strip(), line
            assert isinstance(await offer(line), list), line
    finally:
        await discord.close()
        await db.close()
