"""Words for players: the log and footers speak sentences and commands, never internal kinds or raw data."""

from __future__ import annotations

import re

from tests.e2e.combat_helpers import RIFLE, add, battle_with, dice, start
from tests.e2e.conftest import Table, embed_text, last_message, text_of

INTERNAL = re.compile(r"gm-place|gm-set|end-turn|add-unit|set-turn-mode|\{'|\['|\"type\"")


async def test_the_log_says_hit_or_miss_and_the_damage_in_sentences(table: Table) -> None:
    await battle_with(table, mode="free")
    await table.slash("map paint", terrain="forest", **{"from": "D1"})
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, ap=4, t=40)
    await start(table)
    dice(table, 14, 6, 4)  # to hit, then the two damage dice
    await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    dice(table, 99)
    await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    await table.gm_slash("gm move", unit="Sachiel", to="I4")
    await table.gm_slash("gm set", unit="Sachiel", field="ag", value="40")
    log = text_of(await table.slash("battle log", user=table.alice))
    assert "Eva-01 fires at Sachiel with the Pallet Rifle: hit." in log
    assert "hit. Sachiel takes 15 damage from Pallet Rifle and loses **11 wounds** → 9 left" in log
    assert "Eva-01 fires at Sachiel with the Pallet Rifle: miss." in log
    assert "The GM put Sachiel on I4 (from H3)." in log and "The GM set Sachiel: ag " in log
    assert "1 square painted forest" in log
    assert not INTERNAL.search(log), INTERNAL.search(log)


async def test_footers_name_the_command_a_player_types(table: Table) -> None:
    await table.setup_battle()
    added = await table.slash("unit add", name="Eva-03", side="NERV", at="D4", owner=table.alice, ag=40)
    footer = last_message(added).embeds[0]["footer"]["text"]
    assert footer.endswith("/unit add name:Eva-03 side:NERV at:D4 ag:40"), footer
    await table.slash("battle start")
    moved = await table.gm_slash("gm move", unit="Sachiel", to="O10")
    text = embed_text(last_message(moved).embeds[0])
    assert "/gm move unit:Sachiel to:O10" in text and not INTERNAL.search(text)
