"""/range end to end: an ephemeral preview with the band table and modifiers; nothing rolled or stored."""

from __future__ import annotations

import pytest

from tests.e2e.combat_helpers import arm, refused, start, stored
from tests.e2e.conftest import Table, last_message, text_of


@pytest.fixture
async def armed(table: Table) -> Table:
    """Return the table with the armed battle started."""
    await arm(table)
    await start(table)
    return table


async def preview(table: Table, **options: object) -> str:
    """Run /range as carol, who commands nothing: private, with a map, and the battle unchanged."""
    before = await stored(table)
    reply = await table.slash("range", user=table.carol, **options)
    message = last_message(reply)
    assert message.ephemeral, text_of(reply)
    assert message.files and message.files[0].data[:4] == b"\x89PNG"
    after = await stored(table)
    assert after.version == before.version and after.state == before.state
    return text_of(reply)


async def test_preview_from_a_unit(armed: Table) -> None:
    text = await preview(armed, unit="Eva-01", to="H3", weapon="Pallet Rifle")
    for line in (
        "Range: Eva-01's Pallet Rifle at H3",
        "C3 → H3: **5** squares (1 square = 1 kilometre)",
        "Pallet Rifle: range 100 dm → R **10** km",
        "Point Blank 0–1 (+30) · **Short 2–5 (+10)** · Standard 6–10 (+0) · Long 11–15 (−10) · Extreme 16–20 (−30)",
        "✅ In range: **Short** (+10)",
        "Target on H3: **Sachiel**",
        "Ballistic Skill (BS) **50**",
        "+10 Range: Short *(A04)*",
        "Target number if fired now: **60**",
        "Preview only: nothing was rolled, spent or changed.",
    ):
        assert line in text, f"missing {line!r} in:\n{text}"


async def test_preview_from_a_square_counts_only_the_situation(armed: Table) -> None:
    await armed.slash("map paint", terrain="forest", cells="H3")
    text = await preview(armed, to="H3", weapon="Pallet Rifle", **{"from": "A1"})
    assert "Measured from A1, not from Eva-01's own square." in text
    assert "A1 → H3: **7** squares" in text and "**Standard 6–10 (+0)**" in text
    assert "Ballistic Skill" not in text and "Add the firing unit's BS" in text


async def test_out_of_range_says_how_far_it_reaches(armed: Table) -> None:
    text = await preview(armed, unit="Eva-01", to="H3", weapon="Pistol")
    assert "❌ Out of range: the Pistol reaches at most **4** squares" in text


async def test_melee_weapons_have_reach(armed: Table) -> None:
    text = await preview(armed, unit="Eva-01", to="H3", weapon="Prog Knife")
    assert "Prog Knife is a melee weapon: it reaches the same square → ❌ out of reach" in text


async def test_needs_a_starting_point(armed: Table) -> None:
    await refused(armed, "range", "Say where the shot starts", user=armed.carol, to="H3", weapon="Pallet Rifle")


async def test_unknown_weapon(armed: Table) -> None:
    await refused(armed, "range", "Eva-01 has no weapon `Lance`", user=armed.carol, unit="Eva-01", to="H3",
                  weapon="Lance")
    await refused(armed, "range", "No unit in this battle carries a weapon called `Lance`", user=armed.carol,
                  to="H3", weapon="Lance", **{"from": "A1"})


async def test_off_the_map(armed: Table) -> None:
    await refused(armed, "range", "Z9 is off the map", user=armed.carol, unit="Eva-01", to="Z9",
                  weapon="Pallet Rifle")
