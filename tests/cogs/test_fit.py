"""The last guard of the embed limits: whatever a builder made, what is sent fits, cut at whole lines."""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from cogs.common.fit import TOTAL, fit, shorten, size


def test_a_long_description_keeps_whole_lines_and_says_how_many_were_left_out() -> None:
    text = "\n".join(f"Unit {i:03d} rolls initiative 12" for i in range(400))
    cut = shorten(text, 4096)
    assert len(cut) <= 4096 and cut.startswith("Unit 000 rolls initiative 12\n")
    kept = cut.split("\n")[:-1]
    assert all(line.startswith("Unit ") and line.endswith(" 12") for line in kept)
    assert cut.split("\n")[-1] == f"\u2026 and {400 - len(kept)} more lines"


def test_a_short_text_is_left_alone() -> None:
    assert shorten("a\nb", 10) == "a\nb"


@given(st.text(max_size=400), st.text(max_size=6000), st.lists(st.tuples(st.text(max_size=400), st.text(max_size=2000)),
                                                               max_size=40), st.text(max_size=3000))
def test_every_embed_fits_after_the_guard(title: str, description: str, fields: list[tuple[str, str]],
                                          footer: str) -> None:
    embed = discord.Embed(title=title or None, description=description or None)
    for name, value in fields:
        embed.add_field(name=name or "x", value=value or "x")
    embed.set_footer(text=footer or None)
    fit(embed)
    assert size(embed) <= TOTAL and len(embed.fields) <= 25
    assert len(embed.description or "") <= 4096 and len(embed.title or "") <= 256
    assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024 for f in embed.fields)
