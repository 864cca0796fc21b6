"""A unit's card tells what it may still do this turn: its legal orders in players' words, on its own side's
link and the GM's only (worked out when the card is opened, from the page's `may` address)."""

from __future__ import annotations

import json
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
    links = {"GM": gm["GM"], "NERV": alice, "Spectators": gm["Spectators"]}
    pages = {who: (await site.get(link))[1] for who, link in links.items()}

    async def may(who: str, name: str) -> tuple[int, str]:
        status, body, _headers = await site.get(f"{links[who]}/may?unit={name}")
        return status, json.loads(body)["may"] if status == 200 else body

    for who in ("GM", "NERV"):
        assert 'data-may="Eva-01"' in card(pages[who], "Eva-01"), f"{who}: {card(pages[who], 'Eva-01')}"
        status, words = await may(who, "Eva-01")
        # Eva-01 stands on C3, on an empty 20x15 map: a half move reaches the squares around it (legal orders).
        assert status == 200 and re.search(r"Move: half[^<]*, to any of [0-9]+ squares", words), words
        assert "End turn" in words, words
    assert 'data-may="Sachiel"' in card(pages["GM"], "Sachiel"), "the GM sees every unit's choices"
    assert card(pages["NERV"], "Sachiel") and "May still" not in card(pages["NERV"], "Sachiel"), \
        "a side does not read what the other side's units may do"
    assert "May still" not in pages["Spectators"], "spectators read nobody's choices"
    # Asked anyway, the answer is the one 404 of every unknown address.
    refused = {await may(who, name) for who, name in (("NERV", "Sachiel"), ("Spectators", "Eva-01"),
                                                       ("GM", "Nobody"), ("GM", "x" * 150))}
    assert len(refused) == 1 and next(iter(refused))[0] == 404, refused
    # The card as a person sees it, pointing at the unit.
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(alice)
    await page.locator('g.unit[data-name="Eva-01"]').hover()
    box = page.locator("#card-box")
    await box.wait_for(state="visible")
    await page.wait_for_function("document.querySelector('#card-box').textContent.includes('End turn')")
    assert "Move: half" in await box.inner_text()
