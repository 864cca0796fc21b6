"""A map drawn again from its battle's kept frame is, byte for byte, the map encoded afresh.

The worker keeps each battle's last frame and deflates only the bands of rows an order changed; these
tests play random orders of every system with a map and compare each map with one drawn with nothing kept.
"""

from __future__ import annotations

import io
import random
import zlib
from typing import Any

import pytest
from PIL import Image

from bot.maps import action_crop, draw
from bot.mapview import action_cells, build_view, overlays_for
from render import api
from render.png import Frame, adler32_combine, encode_frame, frame_png
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import GameError
from rules.orders import AddUnit, Start
from rules.outcome import Outcome
from rules.turnorders import EndTurn, SetTurnMode

STRATEGIC = {"ag": 45, "bs": 50, "wounds": 30,
             "weapons": [{"name": "Rifle", "range": 60, "damage": "1d10+4", "type": "I", "pen": 2}]}
INFANTRY = {"kind": "infantry", "ss": 4, "pf": 0, "mv": 10,
            "weapons": [{"name": "Rifle", "class": "rifle", "pen": 2}, {"name": "Frag", "class": "grenades", "pen": 3}]}


def setup(ruleset: str, size: int, rng: random.Random) -> Battle:
    """Return an active battle of a system with a few units of two sides, placed at random."""
    dice = Dice(random.Random(1))
    battle = Battle.new(ruleset, size, size, "Frames")
    cells = rng.sample([(x, y) for x in range(size) for y in range(size)], 8)
    for i, (x, y) in enumerate(cells):
        stats: dict[str, Any] = {"strategic-e": STRATEGIC, "combat-action": INFANTRY}.get(
            ruleset, {"ld": 3, "models": 1 + i % 3, "traits": []})
        battle.apply(AddUnit(name=f"U{i + 1}", side=("Red", "Blue")[i % 2], at=Cell(x, y), stats=dict(stats)), dice)
    battle.apply(SetTurnMode(mode="free"), dice)
    battle.apply(Start(), Dice(random.Random(2), scripted=[3] * 40))
    return battle


def random_order(battle: Battle, rng: random.Random, dice: Dice) -> Outcome | None:
    """Apply a random legal order of a random unit (its turn's end when it has none); return its outcome."""
    units = [u for u in battle.iter_units() if u.on_map]
    rng.shuffle(units)
    for unit in units[:3]:
        orders = battle.legal_orders(unit)
        choices = orders if orders else [EndTurn(unit=unit.name)]
        try:
            return battle.apply(rng.choice(choices), dice)
        except GameError:
            continue
    return None


@pytest.mark.parametrize("ruleset", ["strategic-e", "combat-action", "m42"])
def test_maps_from_kept_frames_equal_maps_encoded_afresh(ruleset: str) -> None:
    rng = random.Random(ruleset)
    dice = Dice(random.Random(9))
    api.clear_cache()
    reused = applied = compared = 0
    for size in (16, 40):  # posted whole, then cropped around the action
        battle = setup(ruleset, size, rng)
        for step in range(14):
            outcome = random_order(battle, rng, dice)
            applied += outcome is not None
            highlight = outcome.highlight if outcome is not None else None
            view = build_view(battle)
            marks = overlays_for(highlight, outcome.details if outcome is not None else None) if highlight else []
            full = step % 5 == 4  # now and then the whole map, as a player asks for it
            crop = action_crop(view, action_cells(highlight), full=full) if highlight else None
            palette = "grey" if step % 7 == 6 else "colour"
            whole = crop is None or crop == (0, 0, size - 1, size - 1)
            before = api.FRAMES.get(("battle", size, palette, whole))
            kept = draw(view, marks, crop, battle_id=size, palette=palette)
            after = api.FRAMES.get(("battle", size, palette, whole))
            assert after is not None
            if before is not None:
                reused += sum(1 for a, b in zip(after.frame.bands, before.frame.bands, strict=False) if a is b)
            fresh = draw(view, marks, crop, palette=palette)
            assert kept.png == fresh.png, f"{ruleset} {size}x{size}, order {step}: the kept frame changed the map"
            compared += 1
    assert compared == 28 and applied >= 14, "most turns give an order the rules take"
    # The comparison is not empty: maps drawn again after an order did take unchanged bands.
    assert reused > 0


def frame_of(rows: int, seed: int) -> Image.Image:
    """Return an RGB image of random noise `rows` high."""
    return Image.frombytes("RGB", (37, rows), random.Random(seed).randbytes(37 * 3 * rows))


def test_unchanged_bands_are_taken_from_the_kept_frame_and_the_file_decodes_to_the_pixels() -> None:
    first = frame_of(100, 1)
    second = first.copy()
    second.putpixel((5, 70), (1, 2, 3))  # one pixel in the third band of 32 rows
    kept = encode_frame(first)
    again = encode_frame(second, kept)
    assert [a is b for a, b in zip(again.bands, kept.bands, strict=True)] == [True, True, False, True]
    png = frame_png(again)
    assert png == frame_png(encode_frame(second))
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.tobytes() == second.tobytes()


@pytest.mark.parametrize("rows", [1, 31, 32, 33, 64, 65])
def test_a_kept_frame_of_another_size_is_not_used(rows: int) -> None:
    kept = encode_frame(frame_of(rows + 1, 3))
    image = frame_of(rows, 3)
    frame: Frame = encode_frame(image, kept)
    assert frame_png(frame) == frame_png(encode_frame(image))
    assert Image.open(io.BytesIO(frame_png(frame))).tobytes() == image.tobytes()


def test_band_checksums_join_into_the_checksum_of_the_whole() -> None:
    rng = random.Random(4)
    for _ in range(50):
        a, b = rng.randbytes(rng.randrange(0, 5000)), rng.randbytes(rng.choice([0, 1, 65521, 70000, 131042]))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)
