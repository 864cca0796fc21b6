"""Time M42's placement and reach at fine scales on a 144x96 map: a square of 1", 0.5" and 0.25".

A finer square puts more squares within the same inches (four times as many at half the size), so adding a
unit (its models placed around the leader), its Command Radius (/radius) and every action's reach grow with
the scale. Each is timed, median of the runs, for a unit in the open beside woods.

Run: .venv/bin/python benchmarks/bench_scales.py [--runs N] [--ld N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Paint, SetRule
from rules.systems import install
from rules.systems.m42.reach import command_radius, reach_by_action

SCALES = ("1", "0.5", "0.25")


def battle_at(scale: str) -> Battle:
    """Return an empty M42 battle at a scale, woods over its top left quarter: 144x96 squares where the scale
    allows it (0.5" or finer), else 100x96."""
    width = 144 if Fraction(scale) <= Fraction(1, 2) else 100
    battle = Battle.new("m42", width, 96, "Bench", (("inches_per_square", scale),))
    battle.apply(SetRule("inches_per_square", scale), Dice.seeded(1))
    battle.apply(Paint(terrain="woods", frm=Cell(0, 0), to=Cell(71, 47)), Dice.seeded(1))
    return battle


def timed(runs: int, job: Callable[[], object]) -> float:
    """Return the median wall time of a job, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    """Print the time of adding a unit, its Command Radius and its reach at each scale."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ld", type=int, default=10)
    args = parser.parse_args()
    install()
    print(f"{'scale':>6} {'add (ms)':>10} {'radius (ms)':>12} {'reach (ms)':>11} {'squares in CR':>14}")
    for scale in SCALES:
        def add(scale: str = scale) -> Battle:
            battle = battle_at(scale)
            battle.apply(AddUnit(name="A", side="Red", at=Cell(72, 48), stats={"ld": args.ld, "models": 20}),
                         Dice.seeded(1))
            return battle

        battle = add()
        unit = battle.unit("A")
        add_ms = timed(args.runs, add)
        radius_ms = timed(args.runs, lambda battle=battle, unit=unit: command_radius(battle, unit))
        reach_ms = timed(args.runs, lambda battle=battle: reach_by_action(battle, "A"))
        print(f"{scale:>6} {add_ms:>10.0f} {radius_ms:>12.0f} {reach_ms:>11.0f} "
              f"{len(command_radius(battle, unit)):>14}")


if __name__ == "__main__":
    main()
