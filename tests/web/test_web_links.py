"""The web view's links and its refusals: who gets which link, revoking them, and bad requests of every kind."""

from __future__ import annotations

import asyncio
import hashlib
import json

import aiohttp
from aiohttp import web
from yarl import URL

from tests.e2e.conftest import last_message, text_of
from tests.web.conftest import Site, free_port
from web.server import RateLimit, make_app


async def started(site: Site) -> None:
    await site.table.setup_battle()
    await site.table.slash("battle start")


async def test_each_asker_gets_the_links_for_them(site: Site) -> None:
    await started(site)
    table = site.table
    assert set(await site.links(user=table.gm)) == {"Spectators", "GM"}
    assert set(await site.links(user=table.alice)) == {"Spectators", "Your"}, "a player gets their side's link"
    assert set(await site.links(user=table.carol)) == {"Spectators"}, "a member with no units gets the public one"
    alice = await site.links(user=table.alice)
    status, page, _ = await site.get(alice["Your"])
    assert status == 200 and "NERV&#x27;s view" in page.replace("nerv", "NERV"), page[:400]


async def test_links_are_stored_only_as_hashes(site: Site) -> None:
    await started(site)
    link = (await site.links())["GM"]
    token = link.rsplit("/", 1)[1]
    rows = await site.table.db.engine.read(_all_links())
    stored = {row[0] for row in rows}
    assert hashlib.sha256(token.encode()).hexdigest() in stored
    assert all(token not in str(row) for row in rows)


def _all_links():  # type: ignore[no-untyped-def]
    from storage.program import Query, every

    return every(Query.of("SELECT token_hash, battle_id, audience FROM web_links"))


async def test_a_gm_revokes_every_link(site: Site) -> None:
    await started(site)
    table = site.table
    old = await site.links(user=table.alice)
    refused = await table.slash("battle web reset", user=table.alice)
    assert last_message(refused).ephemeral and "Only a GM can revoke" in text_of(refused), text_of(refused)
    assert (await site.get(old["Spectators"]))[0] == 200, "a refused reset changes nothing"
    new = await site.links(user=table.gm, reset=True)
    for link in old.values():
        assert (await site.get(link))[0] == 404, f"{link} still works after the reset"
    assert (await site.get(new["GM"]))[0] == 200


async def test_unknown_revoked_and_malformed_tokens_look_alike(site: Site) -> None:
    await started(site)
    links = await site.links()
    revoked = links["Spectators"]
    await site.links(reset=True)
    unknown = f"{site.base}/b/{'A' * 43}"
    answers = [await site.get(url) for url in (revoked, unknown, f"{site.base}/b/short", f"{site.base}/b/%3Cscript%3E",
                                                f"{revoked}/frame.json", f"{unknown}/events", f"{site.base}/nothing")]
    assert {status for status, _, _ in answers} == {404}
    assert len({body for _, body, _ in answers}) == 1, "every refusal reads the same"
    assert "/battle web links" in answers[0][1]


async def test_bad_requests_are_refused_and_change_nothing(site: Site) -> None:
    await started(site)
    table = site.table
    link = (await site.links())["Spectators"]
    before = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    async with aiohttp.ClientSession() as http:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            async with http.request(method, link, data=b"x" * 100) as answer:
                assert answer.status == 405, method
        async with http.get(f"{link}/frame.json?step=" + "9" * 5000) as answer:
            assert answer.status == 414
        async with http.get(f"{link}/frame.json?step=-1") as answer:
            assert answer.status == 400 and "whole number" in await answer.text()
        async with http.get(f"{link}/frame.json?step=1&log=all") as answer:
            assert answer.status == 400 and "log may only be 0" in await answer.text()
        async with http.get(f"{link}/frame.json?step=1&log=0") as answer:
            assert answer.status == 200 and "log" not in await answer.json(), "a replay step leaves the log out"
        async with http.get(f"{link}/frame.json?step=999999") as answer:
            assert answer.status == 200 and (await answer.json())["live"], "a step past the end is now"
        for trick in ("/static/../bot/config.py", "/static/%2e%2e/bot/config.py", "/static/view.js/../../.env",
                      "/b/../static/view.js", "/static/view.py"):
            # Sent as written: a client would otherwise tidy the dots away before they reach the server.
            async with http.get(URL(site.base + trick, encoded=True)) as answer:
                body = await answer.text()
                assert answer.status == 404 and "DISCORD" not in body and "import" not in body, trick
    after = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert before is not None and after is not None and after.version == before.version


async def test_a_flood_from_one_address_is_slowed(site: Site) -> None:
    await started(site)
    link = (await site.links())["Spectators"].replace(site.base, "")
    port = free_port()
    runner = web.AppRunner(make_app(site.table.service, rate=RateLimit(rate=5, window=60)), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with aiohttp.ClientSession() as http:
            statuses = []
            for _ in range(8):
                async with http.get(f"http://127.0.0.1:{port}{link}") as answer:
                    statuses.append(answer.status)
                    if answer.status == 429:
                        assert answer.headers["Retry-After"].isdigit()
        assert statuses[:5] == [200] * 5 and set(statuses[5:]) == {429}, statuses
    finally:
        await runner.cleanup()


async def test_names_with_markup_and_rtl_show_as_text(site: Site) -> None:
    table = site.table
    await table.slash("battle new", name="<b>Bold</b> & co", ruleset="strategic-e", width=10, height=8)
    evil = '<script>alert(1)</script>'
    rtl = "Eva\u202e10-"
    await table.slash("unit add", name=evil, side='"><img src=x onerror=alert(2)>', at="B2")
    await table.slash("unit add", name=rtl, side="NERV", at="C3")
    link = (await site.links())["Spectators"]
    for url in (link, f"{link}/frame.json", f"{link}/state.json"):
        status, body, headers = await site.get(url)
        assert status == 200
        assert "<script>alert" not in body and "<img src=x" not in body and "<b>Bold" not in body, url
    state = json.loads((await site.get(f"{link}/state.json"))[1])
    assert {u["name"] for u in state["units"]} == {evil, rtl}, "the data keeps the names as they were given"
    status, body, headers = await site.get(link)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body and "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in body
    assert f"<bdi>{rtl}</bdi>" in body, "a right-to-left name is isolated from the text around it"
    assert "script-src 'self'" in headers["Content-Security-Policy"] and "unsafe-inline" not in headers[
        "Content-Security-Policy"]


async def test_the_event_stream_says_only_that_the_battle_changed(site: Site) -> None:
    await started(site)
    table = site.table
    link = (await site.links())["Spectators"]
    async with aiohttp.ClientSession() as http, http.get(f"{link}/events") as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        hello = (await stream.content.readuntil(b"\n\n")).decode()
        assert "event: hello" in hello
        await table.slash("move", unit="Eva-01", to="D4", user=table.alice)
        change = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 30)).decode()
    assert change.startswith("event: change\ndata: {\"version\": ") and "Eva" not in change, change
