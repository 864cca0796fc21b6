"""What legality costs: `is_legal(order)` and `legal_orders(unit)` on a 60-unit 40x40 battle of each rule system.

Each battle is built the way the order benchmark builds its own (see realistic.py), through the rules alone:
terrain painted in blobs, units added from the example stat blocks of its system, the two sides facing each
other across the middle, the battle started and played on for some orders so units have moved, shot and
spent actions. Then, per system:

* `is_legal` over a mix of orders: those `legal_orders` generates and the same with their square or target
  changed at random (many of them illegal), each call timed alone;
* `legal_orders(unit)` for every unit in the battle, each call timed alone (the battle plays free turns,
  so every unit may act and gets its whole set of orders).

It prints the p50 and p95 of each, in wall time and in CPU time (the verdict is the CPU figure's, which the
machine's other load moves least), against its target (`is_legal` p95 under 0.2 ms, `legal_orders` p95 under
5 ms). `make bench` runs it after the order benchmark.

Run: .venv/bin/python benchmarks/bench_legality.py [--units 60] [--size 40] [--plays 60]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import AddUnit, Order, Paint, Start
from rules.system import system_of
from rules.systems import install
from rules.turnorders import CloseRound, EndTurn, SetTurnMode

install()

TARGETS = {"is_legal": 0.2, "legal_orders": 5.0}  # p95, ms
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SIDES = ("Blue", "Red")
STAT_FILES = {
    "strategic-e": ("eva-01.toml", "armoured-horde.toml", "infantry-horde.toml", "superheavy.toml"),
    "combat-action": ("combat-action/raiders.toml", "combat-action/rangers.toml", "combat-action/machines.toml"),
    "m42": ("m42/squads.toml",),
    "surface": (),
}


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile of values (seconds) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] * 1000 if ordered else 0.0


def blocks(ruleset: str) -> list[dict[str, Any]]:
    """Return the stat blocks of a ruleset's example files (their squares and sides left out)."""
    reader = system_of(ruleset).statblocks
    if reader is None or not STAT_FILES[ruleset]:
        return [{"type": kind} for kind in ("grunts", "armor", "grunts", "special-forces")]
    out: list[dict[str, Any]] = []
    for name in STAT_FILES[ruleset]:
        # A model riding in a vehicle of the file is placed on its own square here.
        out += [{k: v for k, v in spec.stats.items() if k != "inside"} for spec in reader((EXAMPLES / name).read_text())]
    return out


def cells(size: int, rng: random.Random) -> Callable[[int], Cell]:
    """Return a picker of free squares: even units on the left third of the map, odd ones on the right."""
    taken: set[Cell] = set()
    third = max(1, size // 3)

    def pick(i: int) -> Cell:
        while True:
            x = rng.randrange(0, third) if i % 2 == 0 else rng.randrange(size - third, size)
            cell = Cell(x, rng.randrange(size))
            if cell not in taken:
                taken.add(cell)
                return cell

    return pick


def apply(battle: Battle, order: Order, rng: random.Random) -> bool:
    """Apply an order with fresh dice; return False if the rules refused it."""
    try:
        battle.apply(order, Dice(random.Random(rng.getrandbits(32))), undoable=False)
    except GameError:
        return False
    return True


def build(ruleset: str, *, units: int, size: int, plays: int, seed: int = 1) -> Battle:
    """Return a started battle of `units` units on a `size` square map, played on for `plays` orders."""
    rng = random.Random(seed)
    system = system_of(ruleset)
    battle = Battle.new(ruleset, size if system.has_map else 1, size if system.has_map else 1, "Bench")
    if system.has_map:
        terrain = sorted(battle.ruleset.terrain)
        for _ in range(size * size // 120):
            x, y, r = rng.randrange(size), rng.randrange(size), rng.randint(1, 3)
            a, b = Cell(max(0, x - r), max(0, y - r)), Cell(min(size - 1, x + r), min(size - 1, y + r))
            apply(battle, Paint(terrain=rng.choice(terrain), frm=a, to=b), rng)
    stats = blocks(ruleset)
    pick = cells(size, rng) if system.has_map else (lambda i: Cell(0, 0))
    added = 0
    for i in range(units * 4):
        if added == units:
            break
        order = AddUnit(name=f"U{i + 1}", side=SIDES[i % 2], at=pick(i), owner=100 + i % 4,
                        stats=dict(stats[i % len(stats)]))
        added += apply(battle, order, rng)  # a square that refuses the unit (impassable, too near) is skipped
    # Free turns: every unit may act, so legal_orders generates a unit's whole set, not the nothing of a unit
    # waiting for its initiative.
    if system.plays("set-turn-mode"):
        apply(battle, SetTurnMode(mode="free"), rng)
    apply(battle, Start(), rng)
    for _ in range(plays):
        play_one(battle, rng)
    # A new round: every unit is due again with its whole budget, as a unit is when its player looks at it.
    if battle.system.plays("close-round"):
        apply(battle, CloseRound(), rng)
    return battle


def play_one(battle: Battle, rng: random.Random) -> None:
    """Play one order a table would: a generated order of a unit due now, else end its turn or the round."""
    due = [battle.units[u] for u in turns.next_due(battle)] if turns.engaged(battle) else []
    rng.shuffle(due)
    for unit in due[:3]:
        legal = [o for o in battle.legal_orders(unit) if o.kind not in ("end-turn", "hold")]
        if legal and apply(battle, rng.choice(legal), rng):
            return
    if due and apply(battle, EndTurn(unit=due[0].name), rng):
        return
    if battle.system.plays("close-round"):
        apply(battle, CloseRound(), rng)


def probes(battle: Battle, rng: random.Random, count: int) -> list[Order]:
    """Return orders to ask about: generated ones, and the same with their square or target drawn at random."""
    names = [u.name for u in battle.iter_units()]
    generated = [o for u in list(battle.iter_units())[:20] for o in battle.legal_orders(u)]
    if not generated:  # a system whose units give no orders of their own (Surface's sides plan)
        generated = [battle.parse_order(text) for text in (
            f"surface-plan side:{SIDES[0]} intensity:2 daring:1", "surface-resolve", "end", "set-rule key:x value:1")]
    out: list[Order] = []
    for _ in range(count):
        order = rng.choice(generated)
        names_of_fields = {f.name for f in dataclasses.fields(order)}
        if rng.random() < 0.5 and "to" in names_of_fields:
            order = dataclasses.replace(order, to=Cell(rng.randrange(battle.width), rng.randrange(battle.height)))
        elif rng.random() < 0.5 and "target" in names_of_fields:
            order = dataclasses.replace(order, target=rng.choice(names))
        out.append(order)
    return out


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Return how long one call takes, in seconds: wall time, and this thread's CPU time (steadier on a busy machine)."""
    start, cpu = time.perf_counter(), time.thread_time()
    fn()
    return time.perf_counter() - start, time.thread_time() - cpu


def measure(ruleset: str, args: argparse.Namespace) -> dict[str, Any]:
    """Build one system's battle and time is_legal and legal_orders on it."""
    made = time.perf_counter()
    battle = build(ruleset, units=args.units, size=args.size, plays=args.plays)
    made = time.perf_counter() - made
    rng = random.Random(2)
    asked = probes(battle, rng, args.probes)
    legal_times = [timed(lambda o=o: battle.is_legal(o)) for o in asked]
    share = sum(battle.is_legal(o) for o in asked) / max(1, len(asked))
    units = list(battle.iter_units())
    order_times = [timed(lambda u=u: battle.legal_orders(u)) for _ in range(2) for u in units]
    return {"ruleset": ruleset, "units": len(units), "built": made, "is_legal": legal_times, "legal_share": share,
            "legal_orders": order_times, "size": f"{battle.width}x{battle.height}"}


def line(label: str, times: list[tuple[float, float]], target: float) -> str:
    """Return one row: p50 and p95 (wall, then CPU) and the target beside them, with whether the CPU p95 holds."""
    wall, cpu = [t[0] for t in times], [t[1] for t in times]
    verdict = "ok" if pct(cpu, 95) < target else "OVER"
    return (f"  {label:<13} p50 {pct(wall, 50):7.3f} ms  p95 {pct(wall, 95):7.3f} ms  (CPU p50 {pct(cpu, 50):7.3f}, "
            f"p95 {pct(cpu, 95):7.3f} ms)  target p95 < {target} ms  {verdict}")


def main() -> None:
    """Measure every system and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=60)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--plays", type=int, default=60, help="orders played before anything is timed")
    parser.add_argument("--probes", type=int, default=1000, help="orders asked about with is_legal, per system")
    args = parser.parse_args()
    over = False
    print(f"Legality on a {args.units}-unit {args.size}x{args.size} battle of each system")
    for ruleset in STAT_FILES:
        found = measure(ruleset, args)
        print(f"{ruleset}: {found['units']} units on {found['size']}, built in {found['built']:.1f} s; "
              f"{found['legal_share']:.0%} of the orders asked about are legal")
        for key in ("is_legal", "legal_orders"):
            print(line(key, found[key], TARGETS[key]))
            over = over or pct([t[1] for t in found[key]], 95) >= TARGETS[key]
    print("All legality budgets hold." if not over else "A legality budget is exceeded (OVER above).")


if __name__ == "__main__":
    main()
