"""A unit's card tells what it may still do this turn: its legal orders in players' words, on its own side's
link and the GM's only."""

from __future__ import annotations

import re

from playwright.async_api import Browser

from rules.turnorders import SetTurnMode
from tests.e2e.combat_helpers import give
from tests.web.conftest import Site


def card(page: str, name: str) -> str:
    """Return a unit's card from a page (empty if it has none)."""
    found = re.search(rf'<section class="card"[^>]*aria-label="{re.escape(name)}">(.*?)</section>', page, re.DOTALL)
    return found[1] if found else ""


async def test_a_card_lists_what_the_unit_may_still_do_for_its_side_and_the_gm(site: Site, browser: Browser) -> None:
    table = site.table
    await table.setup_battle()
    await give(table, SetTurnMode(mode="free"))  # every unit may act, so each card has something to say
    await table.slash("battle start")
    gm = await site.links()
    alice = (await site.links(user=table.alice))["Your"]
    pages = {who: (await site.get(link))[1] for who, link in
             (("GM", gm["GM"]), ("NERV", alice), ("Spectators", gm["Spectators"]))}
    for who in ("GM", "NERV"):
        eva = card(pages[who], "Eva-01")
        assert "May still" in eva and "Move" in eva, f"{who}: {eva}"
        # Eva-01 stands on C3, on an empty 20x15 map: a half move reaches the squares around it (legal orders).
        assert re.search(r"Move: half[^<]*, to any of [0-9]+ squares", eva), eva
        assert "End turn" in eva, eva
    assert "May still" in card(pages["GM"], "Sachiel"), "the GM sees every unit's choices"
    assert card(pages["NERV"], "Sachiel") and "May still" not in card(pages["NERV"], "Sachiel"), \
        "a side does not read what the other side's units may do"
    assert "May still" not in pages["Spectators"], "spectators read nobody's choices"
    # The card as a person sees it, pointing at the unit.
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(alice)
    await page.locator('g.unit[data-name="Eva-01"]').hover()
    box = page.locator("#card-box")
    await box.wait_for(state="visible")
    assert "May still" in await box.inner_text()
