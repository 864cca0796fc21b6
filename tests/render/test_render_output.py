"""Output contract: PNG bytes, determinism, the base cache, greyscale, size limits, bad input."""

from __future__ import annotations

import io
import logging
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import (
    BASE_CACHE,
    Geometry,
    MapView,
    SideStyle,
    TerrainStyle,
    UnitToken,
    cell_box,
    clear_cache,
    render_map,
)
from render.layers.base import base_layer
from render.legend import build_legend
from render.palette import Palette
from render.patterns import PAINTERS, pattern_tile
from render.view import PATTERNS
from tests.render.render_samples import STYLES, dominant, open_png, sample_overlays, sample_view, small_view

ROOT = Path(__file__).resolve().parents[2]
MAX_UPLOAD = 10 * 1024 * 1024


def test_output_is_a_png_of_the_expected_size() -> None:
    view = sample_view()
    data = render_map(view, overlays=sample_overlays())
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.mode == "RGB"
    assert image.width > Geometry.for_view(view).board_width


def test_same_input_gives_same_bytes() -> None:
    view, overlays = sample_view(), sample_overlays()
    first = render_map(view, overlays=overlays)
    clear_cache()
    second = render_map(view, overlays=overlays)
    third = render_map(view, overlays=overlays)  # from the cached base
    assert first == second == third


def test_concurrent_renders_agree() -> None:
    view, overlays = sample_view(), sample_overlays()
    expected = render_map(view, overlays=overlays)
    clear_cache()
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render_map(view, overlays=overlays), range(8)))
    assert all(r == expected for r in results)


def test_base_layer_is_cached_per_version_size_crop_and_palette() -> None:
    view = sample_view()
    render_map(view)
    assert (BASE_CACHE.hits, BASE_CACHE.misses) == (0, 1)
    render_map(view, overlays=sample_overlays())
    assert (BASE_CACHE.hits, BASE_CACHE.misses) == (1, 1)
    render_map(view, palette="grey")
    render_map(view, crop=(0, 0, 11, 11))
    render_map(view, cell_px=20)
    assert BASE_CACHE.misses == 4
    assert len(BASE_CACHE) == 4


def test_base_cache_is_bounded() -> None:
    for i in range(BASE_CACHE.capacity + 3):
        render_map(small_view(map_version=f"v{i}"), cell_px=10)
    assert len(BASE_CACHE) == BASE_CACHE.capacity


def test_a_new_map_version_shows_new_terrain() -> None:
    before = small_view(map_version="m1")
    terrain = list(before.terrain)
    terrain[8 * before.width + 8] = "water"
    after_same = small_view(map_version="m1", terrain=tuple(terrain))
    after_new = small_view(map_version="m2", terrain=tuple(terrain))
    box = cell_box(before, 8, 8, cell_px=24)
    old = open_png(render_map(before, cell_px=24))
    assert dominant(old, box) == STYLES["plain"].color
    # Same version promises same terrain, so the cached base is reused as is.
    assert open_png(render_map(after_same, cell_px=24)).tobytes() == old.tobytes()
    new = open_png(render_map(after_new, cell_px=24))
    assert dominant(new, box) == STYLES["water"].color


def test_grey_palette_is_pure_grey() -> None:
    data = render_map(sample_view(), overlays=sample_overlays(), palette="grey")
    raw = Image.open(io.BytesIO(data))
    assert raw.mode == "L"
    r, g, b = raw.convert("RGB").split()
    assert ImageChops.difference(r, g).getbbox() is None
    assert ImageChops.difference(g, b).getbbox() is None


def test_grey_terrains_of_equal_brightness_differ_by_pattern() -> None:
    grey = (128, 128, 128)
    styles = {
        "a": TerrainStyle("a", "Open", grey, "none"),
        "b": TerrainStyle("b", "Woods", grey, "trees"),
    }
    terrain = tuple("a" if x < 4 else "b" for y in range(8) for x in range(8))
    view = MapView("t", 8, 8, "g1", terrain, styles, (SideStyle("S", (200, 0, 0)),))
    image = open_png(render_map(view, cell_px=28, palette="grey"))
    open_box = cell_box(view, 1, 4, cell_px=28)
    woods_box = cell_box(view, 6, 4, cell_px=28)

    def spread(b: tuple[int, int, int, int]) -> float:
        region = image.crop((b[0] + 1, b[1] + 1, b[2], b[3])).convert("L")
        return float(ImageStat.Stat(region).stddev[0])

    open_sd, woods_sd = spread(open_box), spread(woods_box)
    assert open_sd == 0
    assert woods_sd > 10


@pytest.mark.parametrize("size", [12, 18, 28, 40])
def test_every_pattern_is_distinct_in_greyscale(size: int) -> None:
    assert set(PAINTERS) == PATTERNS
    grey = (140, 140, 140)
    tiles = {p: pattern_tile(p, grey, size).tobytes() for p in sorted(PATTERNS)}
    assert len(set(tiles.values())) == len(PATTERNS)


def test_big_map_stays_under_the_upload_limit() -> None:
    # Random terrain in every square is the worst case for PNG compression.
    rng = random.Random(3)
    styles = {
        p: TerrainStyle(
            p, p.title(), (rng.randrange(60, 230), rng.randrange(60, 230), rng.randrange(60, 230)), p
        )
        for p in sorted(PATTERNS)
    }
    keys = sorted(styles)
    terrain = tuple(rng.choice(keys) for _ in range(100 * 100))
    sides = (SideStyle("A", (40, 90, 200)), SideStyle("B", (200, 50, 40)))
    units = tuple(
        UnitToken(f"u{i}", f"U{i}", sides[i % 2].name, rng.randrange(100), rng.randrange(100), health=0.5)
        for i in range(300)
    )
    view = MapView("Big", 100, 100, "big", terrain, styles, sides, units)
    data = render_map(view)
    assert len(data) < MAX_UPLOAD
    image = Image.open(io.BytesIO(data))
    # The map itself stays under 2400 px a side; the unit key of all 300 units adds rows below it.
    assert image.width < 2400
    assert Geometry.for_view(view).board_height < 2400 < image.height


def test_legend_lists_what_the_image_shows() -> None:
    view = sample_view()
    crop = (0, 0, 11, 11)  # forest and rough, no urban
    geometry = Geometry.for_view(view, crop=crop)
    base = base_layer(view, geometry, Palette())
    legend = build_legend(view, geometry, Palette(), base.terrain_keys, sample_overlays(), 600)
    texts = [line.text for column in legend.columns for line in column]
    assert "Forest" in texts and "Rough" in texts
    assert "Urban" not in texts
    assert "NERV" in texts and "Angels" in texts
    assert "Run" in texts and "Walk" in texts and "Move" in texts
    assert "Attack: hit" in texts and "Attack: miss" in texts and "Target" in texts
    assert "Enemies share the square" not in texts  # the sample's stack is one side's
    assert "Pinned" in texts


def test_unknown_terrain_and_off_map_units_are_survivable(caplog: pytest.LogCaptureFixture) -> None:
    terrain = tuple("lava" if (x, y) == (2, 2) else "plain" for y in range(14) for x in range(14))
    view = small_view(terrain=terrain, units=(UnitToken("z", "Z", "NERV", 40, 40),))
    with caplog.at_level(logging.WARNING, logger="render"):
        data = render_map(view)
    assert data[:4] == b"\x89PNG"
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "lava" in messages and "off the" in messages


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        MapView("t", 3, 3, "v", ("plain",) * 8, STYLES, ())
    with pytest.raises(ValueError):
        render_map(small_view(), palette="sepia")


def test_american_spellings_are_accepted() -> None:
    view = small_view()
    assert render_map(view, palette="gray") == render_map(view, palette="grey")
    assert render_map(view, palette="color") == render_map(view, palette="colour")


def test_renders_without_freetype() -> None:
    # A fresh interpreter, so no FreeType font is cached before the switch.
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import render.fonts as f; f.HAS_FREETYPE = False\n"
        "from render import render_map\n"
        "from tests.render.render_samples import sample_view, sample_overlays\n"
        "data = render_map(sample_view(), overlays=sample_overlays())\n"
        "assert data[:4] == b'\\x89PNG', data[:8]\n"
        # A legend line too long for its column is shortened with dots the bitmap font can draw.
        "from render.view import Reachable\n"
        "long = Reachable(frozenset({(1, 1)}), 'Advance, through the woods and over the wall: up to 4.5 inches')\n"
        "assert render_map(sample_view(), overlays=(long,))[:4] == b'\\x89PNG'\n"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(ROOT)],
        check=True,
        timeout=120,
    )
