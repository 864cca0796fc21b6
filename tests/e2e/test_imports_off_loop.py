"""Every file the bot reads is parsed, checked and applied off the event loop: one import freezes no server.

The largest files the limits allow (400 units' stat blocks, a battle export of them, a map, a homebrew table,
a Surface forces file) are imported through the real bot while a profiler on the event loop's thread records
every call into the functions that parse, validate and apply them. None may run on that thread: there they
would hold every server for as long as they take (a second and more for 400 units). How long the loop is
held is measured in benchmarks/bench_imports.py, not here.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

import bot.archive
import bot.archive_replay
import bot.mapimport
import bot.mapimport.apply
import cogs.unit.importing
import rules.homebrew
import rules.mapfile
import rules.systems.surface.forces as forces
from rules.battle import MAX_UNITS, Battle
from rules.system import registered
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.import_files import SIDE, strategic_units

HOMEBREW = Path(__file__).resolve().parents[2] / "examples" / "homebrew" / "volcanic.toml"


def _code(function: Any) -> CodeType:
    """Return the code object a function (or a partial of one) runs."""
    inner = getattr(function, "func", function)
    return inner.__code__  # type: ignore[no-any-return]


def parsers() -> dict[CodeType, str]:
    """Return the code of every function that reads, checks or applies a file a user sends, by name."""
    named: dict[str, Any] = {
        "plan_import": cogs.unit.importing.plan_import, "read_statblocks": cogs.unit.importing.read_statblocks,
        "place": cogs.unit.importing._check_placement, "parse_one_unit": cogs.unit.importing.parse_one_unit,
        "convert": bot.mapimport.convert, "parse_map": rules.mapfile.parse_map,
        "check_map": bot.mapimport.apply.check_on_copy,
        "read_homebrew": rules.homebrew.read_homebrew, "install_homebrew": rules.homebrew.install,
        "read_forces": forces.read_forces, "add_forces": forces.add_forces,
        "read_import": bot.archive.read_import, "rebuild": bot.archive_replay.rebuild,
    }
    # Each system's stat-block reader, so a system added later is watched too.
    named |= {f"{s.id} stat blocks": s.statblocks for s in registered() if s.statblocks is not None}
    return {_code(f): name for name, f in named.items()}


class LoopCalls:
    """Record the watched functions called on this thread (the event loop's), from when it is entered."""

    def __init__(self, watched: dict[CodeType, str]) -> None:
        self.watched = watched
        self.calls: list[str] = []
        self.thread = threading.get_ident()

    def _profile(self, frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code in self.watched:
            self.calls.append(self.watched[frame.f_code])

    def __enter__(self) -> LoopCalls:
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *_exc: object) -> None:
        sys.setprofile(None)


@pytest.fixture
def on_loop() -> Iterator[LoopCalls]:
    """Watch the event loop's thread for parsing; the watch is shown to work before it is used."""
    with LoopCalls(parsers()) as watch:
        with pytest.raises(Exception, match="not valid JSON"):
            forces.read_forces("{")  # called right here, on the loop's thread: it must be seen
        assert watch.calls == ["read_forces"], "the profiler sees a parser called on the loop's thread"
        watch.calls.clear()
        yield watch


def file_of(reply: Any) -> bytes:
    """Return the file the bot attached to its answer."""
    return last_message(reply).files[0].data  # type: ignore[no-any-return]


async def slow(table: Table, command: str, channel: Any = None, **options: Any) -> Any:
    """Run a command that may take seconds (400 units) as the GM, waiting for it longer than usual."""
    reply = await table.discord.slash(command, user=table.gm, channel=channel or table.channel, options=options,
                                      within=120)
    await table.settle()
    return reply


async def test_every_file_kind_is_read_and_applied_off_the_event_loop(table: Table, on_loop: LoopCalls) -> None:
    await table.slash("battle new", name="Import", ruleset="strategic-p", width=SIDE, height=SIDE)
    brewed = await table.slash("battle rules import", file=(HOMEBREW.name, HOMEBREW.read_bytes()))
    assert not last_message(brewed).ephemeral, text_of(brewed)
    exported_map = file_of(await table.slash("map export"))
    mapped = await table.slash("map import", file=("import.txt", exported_map))
    assert "Map imported" in text_of(mapped), text_of(mapped)
    imported = await slow(table, "unit import", file=("units.toml", strategic_units()))
    assert f"Imported {MAX_UNITS} units" in text_of(imported), text_of(imported)
    edited = await table.slash("unit edit", unit="Trooper 0", file=("one.toml", strategic_units(1)))
    assert "From one.toml" in text_of(edited), text_of(edited)
    export = file_of(await table.slash("battle export"))
    elsewhere = table.discord.add_channel(table.discord.guild, "again")
    rebuilt = await slow(table, "battle import", elsewhere, file=("battle.json", export))
    copy = await table.db.battles.in_channel(table.discord.guild.id, elsewhere.id)
    assert copy is not None and len(Battle.from_dict(copy.state).units) == MAX_UNITS, text_of(rebuilt)
    landing = table.discord.add_channel(table.discord.guild, "landing")
    await table.slash("battle new", name="Landing", ruleset="surface", channel=landing)
    force = {"ruleset": "surface", "forces": {"Marines": [{"name": f"Squad {n}", "owner": None,
                                                           "stats": {"type": "grunts"}} for n in range(MAX_UNITS)]}}
    carried = await slow(table, "surface import", landing, file=("forces.json", json.dumps(force).encode()))
    assert f"Imported {MAX_UNITS} units" in text_of(carried), text_of(carried)
    assert on_loop.calls == [], f"parsed or applied on the event loop's thread: {sorted(set(on_loop.calls))}"
