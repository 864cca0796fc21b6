"""The web view's links and page over a battle played on the loopback Discord."""

from __future__ import annotations

from tests.web.conftest import Site


async def test_links_open_the_page(site: Site) -> None:
    table = site.table
    await table.setup_battle()
    await table.slash("battle start")
    links = await site.links()
    assert set(links) >= {"Spectators", "GM"}, links
    status, body, headers = await site.get(links["Spectators"])
    assert status == 200, body
    assert "Eva-01" in body and 'data-square="C3"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
