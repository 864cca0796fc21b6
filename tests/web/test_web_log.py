"""The log on the web reads as the Discord replies say it: each system's sentences, every roll, each test's
modifiers, and nothing `rules.visibility.redact` takes out for the viewer."""

from __future__ import annotations

import json

from tests.e2e.combat_helpers import arm, dice, start
from tests.e2e.conftest import text_of
from tests.web.conftest import Site


async def test_an_attack_reads_with_its_sentences_rolls_and_modifiers(site: Site) -> None:
    table = site.table
    await arm(table)
    await start(table)
    dice(table, 14, 6, 4)  # to hit, then the two damage dice
    await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    links = await site.links()
    _status, body, _headers = await site.get(f"{links['Spectators']}/state.json")
    log = json.loads(body)["log"]
    attack = next(e for e in log if e["kind"] == "attack")
    # Orders read as the commands that give them, as the Discord log writes them.
    assert attack["text"] == "/attack unit:Eva-01 weapon:\"Pallet Rifle\" target:Sachiel", attack["text"]
    added = [e["text"] for e in log if e["kind"] == "add-unit"]
    assert added and all(t.startswith("/unit add") for t in added), added
    assert attack["effects"] == ["Eva-01 fires at Sachiel with the Pallet Rifle: hit.",
                                 "Sachiel takes 15 damage from Pallet Rifle and loses 11 wounds \u2192 9 left"]
    assert attack["tests"] == ["Eva-01 fires Pallet Rifle: Ballistic Skill (BS) 50; +10 Range: Short; "
                               "Target 60 \u00b7 d100 14 \u2192 \u2705 success, 4 degrees of success"]
    assert attack["rolls"] == ["\U0001f3b2 1d100: [14] = 14 (Eva-01 fires Pallet Rifle)",
                               "\U0001f3b2 2d10+5: [6, 4] = 15 (damage to Sachiel)"]
    # The same sentences as /battle log on Discord, markdown aside.
    discord_log = text_of(await table.slash("battle log", user=table.alice)).replace("**", "")
    assert all(sentence in discord_log for sentence in attack["effects"]), discord_log
    _status, page, _headers = await site.get(links["Spectators"])
    assert "Sachiel takes 15 damage from Pallet Rifle and loses 11 wounds" in page


async def test_the_gms_secret_roll_reads_whole_to_the_gm_and_only_as_a_roll_to_the_public(site: Site) -> None:
    table = site.table
    await arm(table)
    await start(table)
    await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima")
    gm = await site.links(user=table.gm)
    public = json.loads((await site.get(f"{gm['Spectators']}/state.json"))[1])["log"]
    secret = json.loads((await site.get(f"{gm['GM']}/state.json"))[1])["log"]
    assert "Operation Yashima" in json.dumps(secret)
    assert "Operation Yashima" not in json.dumps(public)
    assert public[-1]["secret"] and public[-1]["rolls"] == [] and "hidden roll" in public[-1]["text"]
    # Revealed by the GM, the roll reads whole to the public at once, with no order given since.
    seq = public[-1]["seq"]
    await table.gm_slash("gm reveal", seq=seq)
    shown = json.loads((await site.get(f"{gm['Spectators']}/state.json"))[1])["log"]
    revealed = next(e for e in shown if e["seq"] == seq)
    assert not revealed["secret"] and "Operation Yashima" in json.dumps(revealed)
