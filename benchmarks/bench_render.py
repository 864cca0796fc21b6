"""Time the map renderer: full redraw vs cached base, a map repainted in place after one unit moved, PNG encoding.

The cases after an order are timed in CPU milliseconds of this process (the map worker's work), the others in
wall milliseconds. Run: .venv/bin/python benchmarks/bench_render.py [--runs N]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import (
    Crop,
    LineOfFire,
    MapView,
    MovePath,
    Overlay,
    Reachable,
    SideStyle,
    TargetSquare,
    TerrainStyle,
    UnitToken,
    api,
    clear_cache,
    crop_around,
    encode_png,
    render_image,
    render_map,
)

STYLES = {
    s.key: s
    for s in (
        TerrainStyle("plain", "Plain", (203, 210, 160), "none"),
        TerrainStyle("forest", "Forest", (88, 134, 78), "trees"),
        TerrainStyle("rough", "Rough", (184, 160, 118), "stipple"),
        TerrainStyle("water", "Water", (80, 134, 192), "waves"),
        TerrainStyle("shallows", "Shallows", (150, 192, 212), "dots"),
        TerrainStyle("urban", "Urban", (170, 164, 158), "bricks"),
        TerrainStyle("ice", "Ice", (226, 236, 242), "grid"),
        TerrainStyle("mountain", "Mountain", (142, 124, 108), "triangles"),
    )
}
SIDES = (SideStyle("Blue", (46, 98, 204)), SideStyle("Red", (204, 52, 44)))


def battle(size: int, n_units: int, seed: int = 1) -> tuple[MapView, tuple[Overlay, ...]]:
    """Build a size x size battle with blobs of terrain, n_units units and a typical order's overlays."""
    rng = random.Random(seed)
    keys = list(STYLES)
    terrain = ["plain"] * (size * size)
    for _ in range(size * size // 40):
        cx, cy, r = rng.randrange(size), rng.randrange(size), rng.randint(1, 4)
        key = rng.choice(keys[1:])
        for y in range(max(0, cy - r), min(size, cy + r + 1)):
            for x in range(max(0, cx - r), min(size, cx + r + 1)):
                terrain[y * size + x] = key
    units = tuple(
        UnitToken(
            f"u{i}",
            f"U{i}",
            SIDES[i % 2].name,
            rng.randrange(size),
            rng.randrange(size),
            health=rng.random(),
            marks=("P",) if i % 7 == 0 else (),
            is_horde=i % 11 == 0,
        )
        for i in range(n_units)
    )
    view = MapView(f"Bench {size}x{size}", size, size, f"bench-{size}", tuple(terrain), STYLES, SIDES, units)
    u = units[0]
    reach = frozenset(
        (x, y)
        for x in range(u.x - 3, u.x + 4)
        for y in range(u.y - 3, u.y + 4)
        if 0 <= x < size and 0 <= y < size
    )
    path = tuple((min(size - 1, u.x + i), u.y) for i in range(4))
    overlays: tuple[Overlay, ...] = (
        Reachable(reach, "Move"),
        MovePath(path),
        LineOfFire(path[-1], (units[1].x, units[1].y), hit=True),
        TargetSquare(units[1].x, units[1].y),
    )
    return view, overlays


def timed(fn: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """Return the p50 and p95 time of fn in milliseconds, by the given clock (wall time unless told)."""
    samples = []
    for _ in range(runs):
        t = clock()
        fn()
        samples.append((clock() - t) * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return statistics.median(samples), p95


def main() -> None:
    """Print render and encode timings for a 40x40 and a 100x100 battle."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    print(f"{'case':<44}{'p50 ms':>9}{'p95 ms':>9}")
    for size, n_units in ((40, 60), (100, 60)):
        view, overlays = battle(size, n_units)

        def full(view: MapView = view, overlays: tuple[Overlay, ...] = overlays) -> bytes:
            clear_cache()
            return render_map(view, overlays=overlays)

        def cached(view: MapView = view, overlays: tuple[Overlay, ...] = overlays) -> bytes:
            return render_map(view, overlays=overlays)

        # After an order: one unit moved a square, drawn again with and without the battle's kept frame.
        moved = dataclasses.replace(view, units=(dataclasses.replace(view.units[0], x=(view.units[0].x + 1) % size),
                                                 *view.units[1:]))
        render_map(view, overlays=overlays, keep="bench")
        views = itertools.cycle((moved, view))

        def again_fresh(views: Iterator[MapView] = views, overlays: tuple[Overlay, ...] = overlays) -> bytes:
            return render_map(next(views), overlays=overlays)

        def again_kept(views: Iterator[MapView] = views, overlays: tuple[Overlay, ...] = overlays) -> bytes:
            return render_map(next(views), overlays=overlays, keep="bench")

        def again_whole(views: Iterator[MapView] = views, overlays: tuple[Overlay, ...] = overlays) -> bytes:
            # The kept picture without what its squares showed: drawn whole, its unchanged bands still reused.
            kept = api.FRAMES.take("bench")
            if kept is not None:
                api.FRAMES.keep("bench", api.Drawn(kept.frame, None, kept.base, kept.base_key))
            return render_map(next(views), overlays=overlays, keep="bench")

        def draw_only(view: MapView = view, overlays: tuple[Overlay, ...] = overlays) -> object:
            return render_image(view, overlays=overlays)

        render_map(view, overlays=overlays)  # warm fonts and tiles
        image = render_image(view, overlays=overlays)
        data = encode_png(image)
        label = f"{size}x{size}, {n_units} units, {image.width}x{image.height} px, {len(data) / 1024:.0f} KiB"
        print(label)
        for name, fn in (
            ("render+encode, full redraw", full),
            ("render+encode, cached base", cached),
            ("render only, cached base", draw_only),
            ("PNG encode alone (level 1)", lambda image=image: encode_png(image)),
        ):
            p50, p95 = timed(fn, runs)
            print(f"  {name:<42}{p50:>9.1f}{p95:>9.1f}")
        print(f"  {'a unit moved, CPU ms of render+encode:':<42}")
        moved_cpu: dict[str, tuple[float, float]] = {}
        for name, fn in (
            ("drawn and encoded afresh", again_fresh),
            ("drawn whole, unchanged bands kept", again_whole),
            ("repainted in place", again_kept),
        ):
            render_map(view, overlays=overlays, keep="bench")
            moved_cpu[name] = p50, p95 = timed(fn, runs, time.process_time)
            print(f"    {name:<40}{p50:>9.2f}{p95:>9.2f}")
        # As the bot posts a big map: cropped around the move, so the window follows the unit and the map is drawn
        # whole, and the same window drawn again (another unit's order in the same place) repainted in place.
        crops = itertools.cycle([crop_around(v, [(v.units[0].x, v.units[0].y)]) for v in (moved, view)])

        def cropped(views: Iterator[MapView] = views, overlays: tuple[Overlay, ...] = overlays,
                    crops: Iterator[Crop] = crops) -> bytes:
            return render_map(next(views), overlays=overlays, crop=next(crops), keep="bench")

        window = crop_around(view, [(view.units[0].x, view.units[0].y)], margin=6)

        def same_window(views: Iterator[MapView] = views, overlays: tuple[Overlay, ...] = overlays,
                        window: Crop = window) -> bytes:
            return render_map(next(views), overlays=overlays, crop=window, keep="bench")

        for name, fn in (("cropped, the window following the unit", cropped),
                         ("cropped, the same window, repainted", same_window)):
            fn()
            moved_cpu[name] = p50, p95 = timed(fn, runs, time.process_time)
            print(f"    {name:<40}{p50:>9.2f}{p95:>9.2f}")
        whole, kept = moved_cpu["drawn whole, unchanged bands kept"], moved_cpu["repainted in place"]
        print(f"    {'whole / repainted (p50, p95)':<40}{whole[0] / kept[0]:>8.1f}x{whole[1] / kept[1]:>8.1f}x")


if __name__ == "__main__":
    main()
