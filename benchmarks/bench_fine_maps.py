"""What a 6'x4' table at a fine scale costs: legality and a whole-map render on a 144x96 battle.

M42 at half and a quarter inch a square, and Combat Action at half a centimetre, each on 144 by 96 squares
(a 6'x4' table at 0.5"; 72 by 48 cm at 0.5 cm): terrain painted in blobs, units added from the example stat
blocks of the system on the left and right thirds, the battle started and played on for some orders (as
bench_legality.py builds its 40x40 battles). Then, per battle:

* `is_legal(order)` over generated orders and the same with their square or target drawn at random;
* `legal_orders(unit)` for every unit;
* the whole map drawn (the view built from the battle, then `render_map` without a crop, PNG bytes out), once
  untimed first (it fills the terrain caches; its time is printed apart), then `--renders` times.

It prints p50 and p95 (CPU time for the two legality calls, wall time for the render) beside the budgets the
40x40 battles keep (`is_legal` p95 under 0.2 ms, `legal_orders` p95 under 5 ms, a full 100x100 map p95 under
200 ms); a fine grid may exceed them, and the table says by how much.

Run: .venv/bin/python benchmarks/bench_fine_maps.py [--units 40] [--plays 20] [--renders 5] [--probes 300]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_legality import apply, blocks, pct, play_one, probes, timed

from bot.mapview import build_view
from render import render_map
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import AddUnit, Paint, SetRule, Start
from rules.ruleset import get_ruleset
from rules.turnorders import CloseRound, SetTurnMode

WIDTH, HEIGHT = 144, 96
CASES = (("m42", "0.5"), ("m42", "0.25"), ("combat-action", "0.5"))
BUDGETS = {"is_legal": 0.2, "legal_orders": 5.0, "render": 200.0}  # p95, ms (the 40x40 and 100x100 budgets)
SIDES = ("Blue", "Red")


def build(ruleset: str, scale: str, *, units: int, plays: int, seed: int = 1) -> Battle:
    """Return a started 144x96 battle at a scale, with `units` units, played on for `plays` orders."""
    rng = random.Random(seed)
    key = get_ruleset(ruleset).scale_key
    battle = Battle.new(ruleset, WIDTH, HEIGHT, "Bench", ((key, scale),))
    apply(battle, SetRule(key, scale), rng)
    terrain = sorted(battle.ruleset.terrain)
    for _ in range(WIDTH * HEIGHT // 120):
        x, y, r = rng.randrange(WIDTH), rng.randrange(HEIGHT), rng.randint(1, 4)
        a, b = Cell(max(0, x - r), max(0, y - r)), Cell(min(WIDTH - 1, x + r), min(HEIGHT - 1, y + r))
        apply(battle, Paint(terrain=rng.choice(terrain), frm=a, to=b), rng)
    stats = blocks(ruleset)
    taken: set[Cell] = set()
    added = 0
    for i in range(units * 4):
        if added == units:
            break
        third = WIDTH // 3
        x = rng.randrange(0, third) if i % 2 == 0 else rng.randrange(WIDTH - third, WIDTH)
        cell = Cell(x, rng.randrange(HEIGHT))
        if cell in taken:
            continue
        taken.add(cell)
        order = AddUnit(name=f"U{i + 1}", side=SIDES[i % 2], at=cell, owner=100 + i % 4,
                        stats=dict(stats[i % len(stats)]))
        added += apply(battle, order, rng)
    if battle.system.plays("set-turn-mode"):
        apply(battle, SetTurnMode(mode="free"), rng)
    apply(battle, Start(), rng)
    for _ in range(plays):
        play_one(battle, rng)
    if battle.system.plays("close-round"):
        apply(battle, CloseRound(), rng)
    return battle


def measure(ruleset: str, scale: str, args: argparse.Namespace) -> dict[str, Any]:
    """Build one battle and time is_legal, legal_orders and a whole-map render on it."""
    made = time.perf_counter()
    battle = build(ruleset, scale, units=args.units, plays=args.plays)
    made = time.perf_counter() - made
    asked = probes(battle, random.Random(2), args.probes)
    units = list(battle.iter_units())
    first = time.perf_counter()
    render_map(build_view(battle))  # the first draw fills the terrain caches of this cell size
    first = time.perf_counter() - first
    renders = []
    for _ in range(args.renders):
        start = time.perf_counter()
        render_map(build_view(battle))
        renders.append(time.perf_counter() - start)
    return {
        "built": made, "units": len(units), "first": first,
        "is_legal": [timed(lambda o=o: battle.is_legal(o))[1] for o in asked],
        "legal_orders": [timed(lambda u=u: battle.legal_orders(u))[1] for u in units],
        "render": renders,
    }


def main() -> None:
    """Measure each fine-scale battle and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=40)
    parser.add_argument("--plays", type=int, default=20, help="orders played before anything is timed")
    parser.add_argument("--renders", type=int, default=5, help="whole-map renders timed per battle")
    parser.add_argument("--probes", type=int, default=300, help="orders asked about with is_legal, per battle")
    args = parser.parse_args()
    print(f"{WIDTH}x{HEIGHT} battles of {args.units} units at fine scales (ms; budgets are the 40x40 and 100x100 ones)")
    print(f"{'battle':<22} {'is_legal p50/p95':>18} {'legal_orders p50/p95':>22} {'render p50/p95':>16}")
    for ruleset, scale in CASES:
        found = measure(ruleset, scale, args)
        unit = '"' if ruleset == "m42" else " cm"
        cells = [f"{pct(found[k], 50):.3f}/{pct(found[k], 95):.3f}" for k in ("is_legal", "legal_orders")]
        cells.append(f"{pct(found['render'], 50):.0f}/{pct(found['render'], 95):.0f}")
        over = [k for k in BUDGETS if pct(found[k], 95) >= BUDGETS[k]]
        print(f"{ruleset + ' ' + scale + unit:<22} {cells[0]:>18} {cells[1]:>22} {cells[2]:>16}"
              f"  {'over: ' + ', '.join(over) if over else 'within budgets'} ({found['units']} units, built in "
              f"{found['built']:.0f} s, first render {found['first'] * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
