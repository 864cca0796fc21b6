"""/battle side colour: the GM gives a side its colour; bad input is refused privately and changes nothing."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import stored_battle


async def test_the_gm_paints_a_side_and_the_map_shows_it(table: Table) -> None:
    await table.setup_battle()
    painted = await table.slash("battle side colour", side="nerv", colour="#00ff00")
    assert "NERV now wears `#00ff00`" in text_of(painted) and not last_message(painted).ephemeral
    image = Image.open(io.BytesIO(last_message(painted).files[0].data)).convert("RGB")
    assert (0, 255, 0) in {c for _, c in image.getcolors(1 << 20) or []}, "the map draws NERV's tokens green"
    assert (await stored_battle(table)).side("NERV").paint == "#00ff00"  # type: ignore[union-attr]
    named = await table.slash("battle side colour", side="Angels", colour="Purple")
    assert "Angels now wears `#823ca0`" in text_of(named)


async def test_a_wrong_colour_side_or_player_is_refused(table: Table) -> None:
    await table.setup_battle()
    bad = await table.slash("battle side colour", side="NERV", colour="reddish")
    assert last_message(bad).ephemeral and "`reddish` is not a colour: give `#rrggbb`" in text_of(bad)
    nobody = await table.slash("battle side colour", side="Seele", colour="red")
    assert last_message(nobody).ephemeral and "There is no side `Seele`" in text_of(nobody)
    player = await table.slash("battle side colour", user=table.alice, side="NERV", colour="red")
    assert last_message(player).ephemeral and "Only a GM can" in text_of(player)
    assert all(s.paint is None for s in (await stored_battle(table)).sides)


async def test_the_colour_option_offers_the_colour_names(table: Table) -> None:
    await table.setup_battle()
    offered = await table.discord.autocomplete("battle side colour", "colour", "re", user=table.gm,
                                               channel=table.channel, side="NERV")
    names = [c["value"] for c in offered]
    assert "red" in names and "green" in names and "blue" not in names
