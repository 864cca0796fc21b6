"""Pages of fields within Discord's limits, whatever the lines: 1,024 per field, 25 fields, 6,000 per embed."""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from cogs.common.pages import FIELD_MAX, FIELDS_MAX, page_embed, paginate

EMBED_TOTAL = 6000


def size(embed: discord.Embed) -> int:
    """Return the characters Discord counts toward an embed's 6,000."""
    data = embed.to_dict()
    return (len(data.get("title", "")) + len(data.get("description", "")) + len(data.get("footer", {}).get("text", ""))
            + sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", [])))


@given(st.lists(st.text(min_size=1, max_size=1500), max_size=200), st.integers(min_value=1, max_value=50))
def test_every_page_fits_and_no_line_is_lost_or_reordered(lines: list[str], page: int) -> None:
    pages = paginate(lines)
    assert all(len(fields) <= FIELDS_MAX and all(len(f) <= FIELD_MAX for f in fields) for fields in pages)
    kept = [line for fields in pages for field in fields for line in field.split("\n")]
    expected = [line if len(line) <= FIELD_MAX else line[: FIELD_MAX - 1] + "\u2026" for line in lines]
    assert "\n".join(kept) == "\n".join(expected)
    embed = page_embed("T" * 300, pages, page, "F" * 3000, discord.Colour.default())
    assert size(embed) <= EMBED_TOTAL


def test_a_full_page_with_the_longest_title_and_footer_still_fits() -> None:
    pages = paginate(["y" * 1000] * 30)
    assert size(page_embed("T" * 300, pages, 1, "F" * 3000, discord.Colour.default())) <= EMBED_TOTAL


def test_a_short_list_is_one_page_without_a_page_number() -> None:
    pages = paginate(["a", "b"])
    assert pages == [["a\nb"]]
    assert page_embed("Rules", pages, 1, "foot", discord.Colour.default()).footer.text == "foot"


def test_a_long_list_says_which_page_is_shown() -> None:
    pages = paginate(["x" * 900] * 20)
    assert len(pages) == 4
    assert page_embed("Rules", pages, 9, "foot", discord.Colour.default()).footer.text == "page 4 of 4 \u00b7 foot"
