"""Hidden stays hidden on the web: everything a link returns (the page, every replay step, the JSON, the event
stream) is searched for each secret of a battle with a hidden unit, a hidden trap, a side-only roll and a
secret Surface plan. The GM's link must hold every secret (so the search can find them), NERV's link its own
side's, and the spectators' link none."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from rules.turnorders import SetTurnMode
from tests.e2e.combat_helpers import RIFLE, add, dice, give
from tests.e2e.conftest import last_message, text_of
from tests.web.conftest import Site

# What each secret looks like wherever it could show: the hidden unit's name and the squares it hid on and
# moved to, the trap's type, the side-only roll's purpose.
SECRETS = {
    "hidden unit": ("Shamshel",),
    "hidden square": ("I9", "H8"),
    # The rule constants name the Fire Trap to everyone; what is secret is that one lies on B2.
    "trap": ("Fire Trap on", "B2: Fire", "at:B2", 'class="feature" data-square="B2"'),
    "side-only roll": ("Operation Yashima",),
}
PLAN = {"plan": ("intensity:2", "daring:1", "dropped:")}
KNOWS = {
    "Spectators": set(),
    "Your": {"hidden unit", "hidden square", "trap"},  # NERV's link: its own unit and trap, not the GM's roll
    "GM": set(SECRETS),
}


async def everything(site: Site, link: str, http: aiohttp.ClientSession, change: asyncio.Event) -> str:
    """Return all a link gives: the page, its data, each step of its replay with its text map, its event stream."""
    parts = []
    status, page, _headers = await site.get(link)
    assert status == 200, page
    parts.append(page)
    status, state, _headers = await site.get(f"{link}/state.json")
    assert status == 200
    parts.append(state)
    status, now, _headers = await site.get(f"{link}/frame.json")
    steps = json.loads(now)["steps"]
    parts.append(now)
    parts.append((await site.get(f"{link}/text"))[1])
    for step in range(steps + 1):
        status, frame, _headers = await site.get(f"{link}/frame.json?step={step}")
        assert status == 200, frame
        parts.append(frame)
        status, text, _headers = await site.get(f"{link}/text?step={step}")
        assert status == 200, text
        parts.append(text)
    # The event stream, across one more order: what it says about that order is read too.
    async with http.get(f"{link}/events") as stream:
        parts.append((await stream.content.readuntil(b"\n\n")).decode())
        change.set()
        parts.append((await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 30)).decode())
    return "\n".join(parts)


async def ready(reading: asyncio.Task[str], change: asyncio.Event) -> None:
    """Wait until the reader listens to the event stream; if it failed before, raise its failure."""
    waiting = asyncio.create_task(change.wait())
    await asyncio.wait([reading, waiting], return_when=asyncio.FIRST_COMPLETED)
    if reading.done():
        waiting.cancel()
        reading.result()
        raise AssertionError("the reader ended before listening to the event stream")


async def play_secrets(site: Site) -> None:
    """Hide a unit and move it, lay a trap, and roll for one side alone, on a P-Scale battle."""
    table = site.table
    await table.slash("battle new", name="Gora", ruleset="strategic-p", width=12, height=10)
    await give(table, SetTurnMode(mode="free"))
    await table.slash("map paint", terrain="forest", **{"from": "H7"}, to="J9")
    await table.slash("map paint", terrain="forest", **{"from": "A1"}, to="C3")
    await add(table, "Eva-01", "NERV", "E5", owner=table.alice, bs=50, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "K3", owner=table.bob, bs=40, weapons=[RIFLE])
    await table.slash("feature points", side="NERV", value=37)
    placed = await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="NERV")
    assert last_message(placed).ephemeral and "Fire Trap" in text_of(placed), text_of(placed)
    # Shamshel was seen when it came; once it hides, nothing of it (not even its coming) shows to the others.
    await add(table, "Shamshel", "NERV", "H8", owner=table.alice, bs=45, ag=60, weapons=[RIFLE])
    await table.slash("battle start")
    dice(table, 5)
    hid = await table.slash("hide", user=table.alice, unit="Shamshel")
    assert "hidden" in (await site.table.service.db.battles.in_channel(table.discord.guild.id, table.channel.id)
                        ).state["units"][-1]["statuses"], text_of(hid)
    await table.slash("move", user=table.alice, unit="Shamshel", to="I9", mode="half")
    await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima", side="NERV")


async def test_a_spectator_receives_no_secret(site: Site) -> None:
    await play_secrets(site)
    table = site.table
    links = await site.links(user=table.gm)
    links["Your"] = (await site.links(user=table.alice))["Your"]
    async with aiohttp.ClientSession() as http:
        for who, link in links.items():
            change = asyncio.Event()
            reading = asyncio.create_task(everything(site, link, http, change))
            await ready(reading, change)
            await table.slash("move", user=table.bob, unit="Sachiel", to="K4", mode="half")
            seen = await reading
            for secret, forms in SECRETS.items():
                shown = [f for f in forms if f in seen]
                if secret in KNOWS[who]:
                    assert shown, f"{who}'s link should show the {secret}, or the search proves nothing"
                else:
                    assert not shown, f"{who}'s link leaks the {secret}: {shown}: " + " | ".join(
                        seen[max(0, i - 150): i + 60] for f in shown for i in [seen.index(f)])
            await table.slash("move", user=table.bob, unit="Sachiel", to="K3", mode="half")


async def test_a_surface_plan_stays_secret_until_fought(site: Site) -> None:
    table = site.table
    await table.slash("battle new", name="Landing at Kessel", ruleset="surface")
    await table.slash("surface add", name="Hammer", side="Marines", **{"type": "space-marines"}, owner=table.alice)
    await table.slash("surface add", name="Titan", side="Marines", **{"type": "battleoids"}, owner=table.alice)
    await table.slash("surface add", name="Cell 7", side="Rebels", **{"type": "rebels"}, owner=table.bob)
    await table.slash("battle start")
    planned = await table.slash("surface plan", user=table.alice, side="Marines", intensity=2, daring=1, dropped="Titan")
    assert last_message(planned).ephemeral, text_of(planned)
    gm_links = await site.links(user=table.gm)
    links = {"Spectators": gm_links["Spectators"], "GM": gm_links["GM"],
             "Marines": (await site.links(user=table.alice))["Your"], "Rebels": (await site.links(user=table.bob))["Your"]}
    async with aiohttp.ClientSession() as http:
        for who, link in links.items():
            change = asyncio.Event()
            reading = asyncio.create_task(everything(site, link, http, change))
            await ready(reading, change)
            await table.gm_slash("gm roll", dice="1d6", purpose="weather")
            seen = await reading
            assert "plan committed" in seen, f"{who} should read that the Marines have a plan"
            shown = [f for f in PLAN["plan"] if f in seen]
            if who in ("GM", "Marines"):
                assert shown, f"{who}'s link should show the Marines' plan, or the search proves nothing"
            else:
                assert not shown, f"{who}'s link leaks the Marines' plan: {shown}"
