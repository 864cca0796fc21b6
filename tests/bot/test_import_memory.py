"""Memory stays bounded whatever a file holds: the worst shapes the limits let through, read in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTRA_MIB = 200  # the most reading one file may add to the bot's memory

# Reads the file as /battle import does (parse, check, replay) and prints how much the peak RSS grew.
READER = """
import resource, sys
from bot.archive import read_import
from bot.archive_replay import rebuild
from rules.errors import GameError
from rules.systems import install

install()
raw = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    plan = read_import(raw)
    rebuild(plan.initial_state, plan.orders, plan.final_state)
    verdict = "accepted"
except GameError as exc:
    verdict = "refused: " + exc.message
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024, verdict)
"""


def header(orders: bytes) -> bytes:
    """Wrap a JSON value as the `orders` of an otherwise plausible export."""
    return b'{"format": "battlepost-battle", "version": 1, "orders": ' + orders + b"}"


SHAPES = {
    # Each holds as many of one thing as the limits allow, or far more.
    "empty objects": header(b"[" + b"{}," * 249_990 + b"{}]"),
    "numbers": header(b"[" + b"0.5," * 499_990 + b"1]"),
    "long texts": header(b"[" + b",".join([b'"' + b"x" * 19_999 + b'"'] * 400) + b"]"),
    "distinct keys": header(b"{" + b",".join(b'"k%d":1' % i for i in range(499_990)) + b"}"),
    "deep": header(b"[" * 100_000 + b"]" * 100_000),
    "many objects": header(b"[" + b"{}," * 2_000_000 + b"{}]"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_any_file_adds_less_than_200_mib(shape: str, tmp_path: Path) -> None:
    path = tmp_path / "war.json"
    path.write_bytes(SHAPES[shape])
    done = subprocess.run([sys.executable, "-c", READER, str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    grown, verdict = done.stdout.split(" ", 1)
    assert verdict.startswith("refused: "), verdict
    assert int(grown) < EXTRA_MIB, f"{shape}: reading the file added {grown} MiB ({verdict.strip()})"


def test_a_huge_map_costs_nothing_to_refuse(tmp_path: Path) -> None:
    state = {"schema_version": 1, "ruleset": "strategic-e", "name": "Big", "width": 1900, "height": 1900,
             "terrain": ["." * 1900] * 1900, "units": []}
    document = {"format": "battlepost-battle", "version": 1, "battle": {"name": "Big", "ruleset": "strategic-e"},
                "initial_state": state, "final_state": state, "orders": []}
    path = tmp_path / "war.json"
    path.write_text(json.dumps(document))
    done = subprocess.run([sys.executable, "-c", READER, str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    grown, verdict = done.stdout.split(" ", 1)
    assert "The map width must be 1 to 100 squares, not 1900." in verdict
    assert int(grown) < EXTRA_MIB
