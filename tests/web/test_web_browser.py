"""The web view in headless Chromium, as a person uses it."""

from __future__ import annotations

from playwright.async_api import Browser

from tests.web.conftest import Site


async def test_the_page_shows_the_battle(site: Site, browser: Browser) -> None:
    table = site.table
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("move", unit="Eva-01", to="D4", user=table.alice)
    links = await site.links()
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(links["Spectators"])
    await page.screenshot(path="/tmp/shots/wide.png", full_page=True)
    eva = page.locator('g.unit[data-name="Eva-01"]')
    assert await eva.get_attribute("data-square") == "D4"
    phone = await browser.new_page(viewport={"width": 360, "height": 740})
    await phone.goto(links["Spectators"])
    await phone.screenshot(path="/tmp/shots/phone.png", full_page=True)
