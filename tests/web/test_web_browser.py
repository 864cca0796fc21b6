"""The web view in headless Chromium, as a person uses it: the map, a unit's card, the log, replay, live orders,
the viewer's own time zone and the keyboard alone."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from tests.web.conftest import Site

SHOTS = Path("/tmp/battlepost-web-shots")


async def played(site: Site) -> dict[str, str]:
    """Play a little battle (Eva-01 moves C3 to D4) and return the GM's links."""
    table = site.table
    await table.setup_battle()
    await table.slash("battle start")
    await table.slash("move", unit="Eva-01", to="D4", user=table.alice)
    return await site.links()


async def square_of(page: Page, name: str) -> str | None:
    """Return the square a unit's token stands on, as the page draws it."""
    return await page.locator(f'g.unit[data-name="{name}"]').get_attribute("data-square")


async def test_units_stand_on_their_squares_with_cards_and_the_log(site: Site, browser: Browser) -> None:
    links = await played(site)
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(links["Spectators"])
    assert await square_of(page, "Eva-01") == "D4"
    assert await square_of(page, "Sachiel") == "P10"
    card = page.locator("#card-box")
    assert await card.is_hidden()
    await page.locator('g.unit[data-name="Sachiel"]').hover()
    await card.wait_for(state="visible")
    text = await card.inner_text()
    assert "Sachiel" in text and "Angels" in text and "P10" in text and "Wounds 10/10" in text, text
    log = await page.locator("#log").inner_text()
    assert "/move unit:Eva-01 to:D4" in log and "Eva-01 moved C3 \u2192 D4" in log, log
    SHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SHOTS / "wide.png"), full_page=True)
    phone = await browser.new_page(viewport={"width": 360, "height": 740})
    await phone.goto(links["Spectators"])
    width = await phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    await phone.screenshot(path=str(SHOTS / "phone.png"), full_page=True)


async def test_a_replay_step_moves_a_unit_back(site: Site, browser: Browser) -> None:
    links = await played(site)
    page = await browser.new_page()
    await page.goto(links["Spectators"])
    assert await square_of(page, "Eva-01") == "D4"
    await page.click("#prev")
    await page.wait_for_selector('g.unit[data-name="Eva-01"][data-square="C3"]')
    assert "Replaying" in await page.locator("#status").inner_text()
    # The log reads as it stood then: the move not yet made, the order shown marked as the current one.
    move = page.locator("#log li[data-seq]", has_text="Eva-01 moved C3")
    assert await move.is_hidden()
    assert await page.locator("#log li.current").count() == 1
    assert await page.locator("#slider").input_value() == str(int(await page.locator("#slider").get_attribute("max") or 0) - 1)
    await page.click("#now")
    await page.wait_for_selector('g.unit[data-name="Eva-01"][data-square="D4"]')
    assert await move.is_visible()


async def test_an_order_shows_without_a_reload(site: Site, browser: Browser) -> None:
    links = await played(site)
    page = await browser.new_page()
    await page.goto(links["Spectators"])
    await page.evaluate("window.notReloaded = true")
    await page.wait_for_function("document.querySelector('#live-state').textContent === 'live'")
    await site.table.slash("move", unit="Eva-02", to="D6", user=site.table.bob)
    await page.wait_for_selector('g.unit[data-name="Eva-02"][data-square="D6"]', timeout=15_000)
    assert await page.evaluate("window.notReloaded === true"), "the page was reloaded"
    assert "/move unit:Eva-02 to:D6" in await page.locator("#log").inner_text()


async def test_times_are_in_the_viewers_zone(site: Site, browser: Browser) -> None:
    links = await played(site)
    # The battle's clock stands at 2025-06-15 15:06:40 UTC: 00:06 the next day in Tokyo.
    context = await browser.new_context(timezone_id="Asia/Tokyo", locale="en-US")
    page = await context.new_page()
    await page.goto(links["Spectators"])
    first = page.locator("#log time").last
    assert await first.get_attribute("datetime") == "2025-06-15T15:06:40+00:00"
    shown = await first.inner_text()
    assert "Jun 16, 2025" in shown and "12:06" in shown and "GMT+9" in shown, shown
    await context.close()


async def test_the_keyboard_alone_reaches_everything(site: Site, browser: Browser) -> None:
    links = await played(site)
    page = await browser.new_page()
    await page.goto(links["Spectators"])
    # Tab from the top until a unit's token has the focus: its card shows.
    for _ in range(12):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.classList.contains('unit')"):
            break
    else:
        raise AssertionError("no unit could be reached with Tab")
    assert await page.locator("#card-box").is_visible()
    # The map as text, for screen readers, opens from the keyboard too.
    await page.focus("#textmap-box summary")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#textmap pre")
    words = await page.locator("#textmap").inner_text()
    assert "Eva-01" in words and "D4" in words, words
    # The map itself takes the keys: + zooms in, an arrow moves it.
    await page.focus("#map")
    before = await page.locator("#map-svg").get_attribute("viewBox")
    await page.keyboard.press("+")
    zoomed = await page.locator("#map-svg").get_attribute("viewBox")
    assert zoomed != before
    await page.keyboard.press("ArrowRight")
    assert await page.locator("#map-svg").get_attribute("viewBox") != zoomed
    # Elsewhere, the left arrow steps the replay back.
    await page.focus("#first")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector('g.unit[data-name="Eva-01"][data-square="C3"]')
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector('g.unit[data-name="Eva-01"][data-square="D4"]')
