"""Time the parsers of what players type against the length of the text: each row should grow in step with it.

The inputs are the worst shapes for patterns that can split text two ways (`1d6+1d6+...+`, long runs of
spaces or digits); a parser that reads each character once shows times that double when the length doubles.

Run: .venv/bin/python benchmarks/bench_parsers.py [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.clock import parse_duration
from rules.coords import Cell
from rules.dice import parse_dice, parse_expression, split_notation
from rules.errors import GameError
from rules.filelimits import TYPED_JSON, Limits, load_json, load_toml
from rules.systems.strategic.damage import devastating
from rules.systems.strategic.statblock import parse_weapon

LENGTHS = (1_000, 2_000, 4_000, 8_000, 16_000)


def roll(n: int) -> None:
    """Run the /roll path on `1d20 1d6+1d6+...+` of about n characters (after a first word, so it is read)."""
    text = "1d20 " + "1d6+" * (n // 4)
    try:
        parse_dice(split_notation(text)[0])
    except GameError:
        pass


def roll_text(text: str) -> None:
    """Run the /roll path (split, then read the whole grammar) on a text that must be refused, after a first word."""
    try:
        parse_expression(split_notation("1d20 " + text)[0])
    except GameError:
        pass


def quality(n: int) -> None:
    """Read a weapon quality of n spaces between a name and a stray bracket."""
    try:
        parse_weapon({"name": "Gun", "range": 30, "qualities": ["a" + " " * n + "("]})
    except GameError:
        pass


def damage(n: int) -> None:
    """Read a damage of n spaces before a letter that is not a damage type."""
    try:
        parse_weapon({"name": "Gun", "range": 30, "damage": "1d10" + " " * n + "Q"})
    except GameError:
        pass


def duration(n: int) -> None:
    """Read a time of n digits with no unit."""
    try:
        parse_duration("1" * n + "x")
    except GameError:
        pass


READER = Limits("a benchmark file", max_bytes=64 * 1024 * 1024, max_depth=20, max_containers=10**7, max_values=10**7)


def refused(read: Callable[[], object]) -> None:
    """Run a reader that must refuse its input."""
    try:
        read()
    except GameError:
        return
    raise AssertionError("the bounded reader accepted a bomb")


def json_fails(raw: bytes) -> None:
    """Read JSON that is not valid: a string opened and never closed."""
    try:
        load_json(raw, READER)
    except ValueError:
        return
    raise AssertionError("unclosed JSON was accepted")


CASES: dict[str, Callable[[int], object]] = {
    "roll 1d6+1d6+...+": roll,
    "roll ((((...1d6": lambda n: roll_text("(" * n + "1d6"),
    "roll 1d6rr1e6kh1...": lambda n: roll_text("1d6" + "rr1e6kh1" * (n // 8)),
    "roll 1d6 * ( 1d6 * ( ...": lambda n: roll_text("1d6 * ( " * (n // 8)),
    "roll 1d6 [a a a a ...": lambda n: roll_text("1d6 [" + " a" * (n // 2)),
    "roll 1d6[a][a][a]...": lambda n: roll_text("1d6" + "[a]" * (n // 3)),
    "quality a   (": quality,
    "damage 1d10   Q": damage,
    "devastating   x": lambda n: devastating(["devastating" + " " * n + "x"]),
    "duration 111...x": duration,
    "square AAA...1": lambda n: refused(lambda: Cell.parse("A" * n + "1")),
    "JSON [[[...]]]": lambda n: refused(lambda: load_json(b"[" * n + b"]" * n, READER)),
    "TOML a = [[[...]]]": lambda n: refused(lambda: load_toml("a = " + "[" * n + "]" * n, READER)),
    "JSON [\"\\\"\\\"... unclosed": lambda n: json_fails(b'["' + b'\\"' * n),
    "typed JSON 999...": lambda n: refused(lambda: load_json('{"a": ' + "9" * min(n, 5_000) + "}", TYPED_JSON)),
}


def main() -> None:
    """Print a table of the best time of each parser at each length."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'parser':<26}" + "".join(f"{n:>12,}" for n in LENGTHS))
    for name, case in CASES.items():
        row = []
        for n in LENGTHS:
            best = float("inf")
            for _ in range(args.runs):
                start = time.perf_counter()
                case(n)
                best = min(best, time.perf_counter() - start)
            row.append(f"{best * 1e6:>10.0f}us")
        print(f"{name:<26}" + "".join(row))


if __name__ == "__main__":
    main()
