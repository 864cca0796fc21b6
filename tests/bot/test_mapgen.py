"""Generated maps: deterministic per seed, every style on both scales, a valid map file each time."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.mapgen import STYLES, generate, palette_for
from bot.mapimport import MapImportError
from rules.ruleset import get_ruleset
from rules.systems.strategic.mapfile import parse_map

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("strategic-e", "strategic-p")


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("style", sorted(STYLES))
def test_each_style_makes_a_valid_map_the_same_every_time(style: str, ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    text = generate(ruleset, style, 7, 40, 30)
    assert text == generate(ruleset, style, 7, 40, 30)
    data = parse_map(text, ruleset)
    assert (data.width, data.height) == (40, 30)
    kinds = Counter(data.terrain)
    assert len(kinds) >= 3, f"{style} should mix terrains, got {dict(kinds)}"
    assert kinds[ruleset.default_terrain] < 40 * 30, "not all open ground"


def test_different_seeds_give_different_maps_and_sizes_are_kept() -> None:
    ruleset = get_ruleset("strategic-p")
    maps = {generate(ruleset, "river-valley", seed, 30, 20) for seed in range(6)}
    assert len(maps) == 6
    small = parse_map(generate(ruleset, "city", 3, 7, 5), ruleset)
    assert (small.width, small.height) == (7, 5)
    assert parse_map(generate(ruleset, "islands", 1, 100, 100), ruleset).width == 100


def test_a_seed_gives_the_same_map_in_another_process() -> None:
    """Nothing in a generated map may depend on the process (hash seeds, dict order)."""
    script = ("import sys; sys.path.insert(0, sys.argv[1])\n"
              "from rules.systems import install\ninstall()\n"
              "from bot.mapgen import generate\nfrom rules.ruleset import get_ruleset\n"
              "print(generate(get_ruleset('strategic-e'), 'coast', 42, 30, 20), end='')\n")
    other = subprocess.run([sys.executable, "-c", script, str(ROOT)], check=True, capture_output=True, text=True,
                           timeout=120, env={"PYTHONHASHSEED": "123"}).stdout
    assert other == generate(get_ruleset("strategic-e"), "coast", 42, 30, 20)


def test_styles_use_the_terrains_each_ruleset_has() -> None:
    e, p = palette_for(get_ruleset("strategic-e")), palette_for(get_ruleset("strategic-p"))
    assert (e("bridge"), p("bridge")) == (None, "bridge"), "E-Scale has no bridge terrain"
    assert (e("high"), p("high")) == ("mountain", "rough")
    text = generate(get_ruleset("strategic-p"), "river-valley", 5, 40, 30)
    assert "B" in "".join(text.splitlines()[3:33]), "a P-Scale river valley has bridges"


def test_deep_water_marks_only_water() -> None:
    ruleset = get_ruleset("strategic-p")
    data = parse_map(generate(ruleset, "coast", 9, 40, 30), ruleset)
    deep = [k for k, f in data.flags.items() if f.get("deep")]
    assert deep, "the open sea is deep"


def test_an_unknown_style_or_size_is_refused() -> None:
    ruleset = get_ruleset("strategic-e")
    with pytest.raises(MapImportError, match=r"`desert` is not a map style; choose one of river-valley"):
        generate(ruleset, "desert", 1, 10, 10)
    with pytest.raises(MapImportError, match=r"1 to 100 squares each way, not 101x10"):
        generate(ruleset, "city", 1, 101, 10)
