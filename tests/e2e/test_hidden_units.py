"""A hidden unit stays hidden from the other sides: maps, map text, board, info, log, menus; its side still sees it.

Eva-01 (NERV, alice) hides in the Forest on C3; Eva-02 (NERV, bob) stands in the open on C6; Sachiel (Angels,
carol) is the enemy who must not learn where Eva-01 is, until Eva-01 attacks and shows itself.
"""

from __future__ import annotations

import io

from PIL import Image

from loopback.models import StoredMessage
from rules.colours import PALETTE
from rules.systems.strategic.actions.combat import Attack
from tests.e2e.action_helpers import components, option_values, press, private
from tests.e2e.combat_helpers import (
    RIFLE,
    add,
    battle_with,
    dice,
    public,
    square_pixels,
    start,
    stored,
    stored_battle,
)
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import board, message_text, posted

NERV_BLUE = PALETTE[0]  # the first side's colour (no colour in its name): NERV's tokens


def token_pixels(png: bytes, battle: object, cell: str) -> int:
    """Count the pixels of NERV's colour on one square of an uncropped map."""
    square = square_pixels(png, battle, cell)  # type: ignore[arg-type]
    colours = square.getcolors(maxcolors=square.width * square.height) or []
    return sum(n for n, p in colours if all(abs(a - b) <= 12 for a, b in zip(p, NERV_BLUE, strict=True)))


async def hidden_eva(table: Table) -> None:
    """Set up the battle with side threads on, and hide Eva-01 in the Forest on C3."""
    await battle_with(table, mode="free")
    await table.slash("map paint", terrain="forest", cells="C3")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ag=40, weapons=[RIFLE])
    await add(table, "Eva-02", "NERV", "C6", owner=table.bob, bs=45, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", owner=table.carol, wounds=20, t=40, bs=40, weapons=[RIFLE])
    await start(table)
    await table.gm_slash("gm side-threads", on=True)
    dice(table, 5)
    public(await table.slash("hide", user=table.alice, unit="Eva-01"))
    assert "hidden" in (await stored_battle(table)).unit("Eva-01").statuses


def carrying(table: Table, custom_id: str) -> StoredMessage:
    """Return the latest message in the channel with this button."""
    found = [m for m in posted(table) if any(c["custom_id"] == custom_id for c in components(m))]
    assert found, f"no message carries {custom_id}"
    return found[-1]


def nerv_thread(table: Table) -> object:
    """Return NERV's private side thread."""
    [found] = [t for t in table.discord.threads(table.channel) if t.name.endswith("\u00b7 NERV")]
    return found


async def test_the_public_map_and_its_text_leave_a_hidden_unit_out(table: Table) -> None:
    await hidden_eva(table)
    battle = await stored_battle(table)
    shown = last_message(await table.slash("map show", user=table.carol, full=True))
    assert not shown.ephemeral
    png = shown.files[0].data
    assert token_pixels(png, battle, "C3") == 0, "the public map draws no token where Eva-01 hides"
    assert token_pixels(png, battle, "C6") > 50, "Eva-02, in the open, is drawn"
    alt = shown.files[0].description or ""
    # The title may name Eva-01 among the units due to act (the turn order is public), but no square.
    assert "Units shown: 2" in alt and "Eva-02 (E02)" in alt and "Eva-01 (" not in alt, alt

    # The Whole map button answers the enemy with the same public view.
    button = f"bp:map:{(await stored(table)).id}"
    whole = private(await table.click(carrying(table, button), button, user=table.carol))
    assert token_pixels(whole.files[0].data, battle, "C3") == 0

    text = text_of(await table.slash("map text", user=table.carol))
    assert "Eva-02 (" in text and "Eva-01 (" not in text, text
    gm_text = text_of(await table.slash("map text", user=table.gm, hidden=True))
    assert "Eva-01 (" in gm_text, "the GM reads every unit"


async def test_the_side_sees_its_hidden_unit_marked(table: Table) -> None:
    await hidden_eva(table)
    battle = await stored_battle(table)
    thread = nerv_thread(table)
    await table.slash("map show", user=table.alice, side="NERV", full=True)
    [side_map] = [m for m in posted(table, thread) if m.files and "NERV's view" in message_text(m)]  # type: ignore[arg-type]
    png = side_map.files[0].data
    assert token_pixels(png, battle, "C3") > 50, "NERV's own map draws Eva-01"
    alt = side_map.files[0].description or ""
    assert "Eva-01" in alt and "Hidden" in alt, alt

    text = text_of(await table.slash("map text", user=table.alice))
    assert "Eva-01" in text and "Hidden" in text

    # My options answers alice privately, with Eva-01 on its own reach map.
    button = f"bp:opts:{(await stored(table)).id}:Eva-01"
    options = private(await table.click(carrying(table, button), button, user=table.alice))
    assert "What Eva-01 can do" in message_text(options)
    image = Image.open(io.BytesIO(options.files[0].data))
    full = Image.open(io.BytesIO(side_map.files[0].data))
    assert image.size == full.size, "the reach map of this small battle is the whole map"
    assert token_pixels(options.files[0].data, battle, "C3") > 50


async def test_board_info_and_log_keep_the_square_secret(table: Table) -> None:
    await hidden_eva(table)
    await table.settle()
    board_text = message_text(board(table))
    assert "Eva-02** C6" in board_text and "Eva-01** hidden" in board_text and "C3" not in board_text, board_text

    info = public(await table.slash("battle info", user=table.carol))
    assert "Eva-02 on C6" in info and "Eva-01 hidden" in info and "Eva-01 on C3" not in info

    enemy_log = text_of(await table.slash("battle log", user=table.carol))
    assert "Eva-01 hides; where, only its side knows" in enemy_log and "hidden on C3" not in enemy_log
    own_log = text_of(await table.slash("battle log", user=table.bob))
    assert "Eva-01 is hidden on C3 until it attacks" in own_log, "NERV's players read where it hides"
    gm_log = text_of(await table.slash("battle log", user=table.gm))
    assert "Eva-01 is hidden on C3 until it attacks" in gm_log


async def test_enemies_are_offered_no_hidden_target(table: Table) -> None:
    await hidden_eva(table)
    typed = await table.discord.autocomplete("attack", "target", "", user=table.carol, channel=table.channel,
                                             unit="Sachiel")
    names = [c["value"] for c in typed]
    assert "Eva-02" in names and "Eva-01" not in names, names
    squares = await table.discord.autocomplete("attack", "at", "", user=table.carol, channel=table.channel,
                                               unit="Sachiel")
    assert all("Eva-01" not in c["name"] and c["value"] != "C3" for c in squares), squares
    own = await table.discord.autocomplete("attack", "target", "", user=table.bob, channel=table.channel,
                                           unit="Eva-02")
    assert "Eva-01" in [c["value"] for c in own], "its own side still finds it"

    battle = await stored_battle(table)
    targets = {o.target for o in battle.legal_orders("Sachiel") if isinstance(o, Attack)}
    assert targets == {"Eva-02"}

    aimed = await table.slash("aim", user=table.carol, unit="Sachiel")
    menu = private(await press(table, last_message(aimed), "Attack: Pallet Rifle", table.carol))
    assert option_values(menu) == [battle.unit("Eva-02").id]
    assert "Eva-01" not in message_text(menu)

    refused = await table.slash("attack", user=table.carol, unit="Sachiel", weapon="Pallet Rifle", target="Eva-01")
    assert last_message(refused).ephemeral and "Eva-01 is hidden" in text_of(refused)
    assert "C3" not in text_of(refused)


async def test_after_it_attacks_it_shows_to_everyone(table: Table) -> None:
    await hidden_eva(table)
    dice(table, 90)  # a miss: the shot alone gives Eva-01 away
    public(await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel"))
    battle = await stored_battle(table)
    assert "hidden" not in battle.unit("Eva-01").statuses
    shown = last_message(await table.slash("map show", user=table.carol, full=True))
    assert token_pixels(shown.files[0].data, battle, "C3") > 50
    assert "Eva-01" in (shown.files[0].description or "")
    info = public(await table.slash("battle info", user=table.carol))
    assert "Eva-01 on C3" in info
    typed = await table.discord.autocomplete("attack", "target", "", user=table.carol, channel=table.channel,
                                             unit="Sachiel")
    assert "Eva-01" in [c["value"] for c in typed]


async def test_a_move_out_of_sight_tells_the_channel_only_that_it_moved(table: Table) -> None:
    await hidden_eva(table)
    before = len(table.discord.messages(nerv_thread(table)))  # type: ignore[arg-type]
    moved = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    battle = await stored_battle(table)
    eva = battle.unit("Eva-01")
    assert str(eva.cell) == "D3" and "hidden" in eva.statuses, "a move does not end hiding; only an attack does"
    text = public(moved)
    assert "Eva-01 moves out of sight; where, only NERV is told, in private." in text
    assert "D3" not in text and "C3" not in text, text
    said = last_message(moved)
    assert not said.files or token_pixels(said.files[0].data, battle, "D3") == 0
    told = table.discord.messages(nerv_thread(table))[before:]  # type: ignore[arg-type]
    assert any("D3" in message_text(m) for m in told), "the side reads where its unit went"


async def test_a_hidden_move_into_difficult_terrain_keeps_its_test_off_the_channel(table: Table) -> None:
    """A38: a unit entering Difficult Terrain tests its Agility; that test names the square, so a unit moving
    out of sight makes it in its side's thread, and the channel reads no test, field or footer naming F6."""
    await battle_with(table, ruleset="strategic-p", mode="free")
    await table.slash("map paint", terrain="forest", **{"from": "E5"}, to="G7")
    await add(table, "Alpha", "Blue", "E5", owner=table.alice, ag=40)
    await add(table, "Omega", "Red", "L12", owner=table.bob, ag=40)
    await table.gm_slash("gm side-threads", on=True)
    await start(table)
    dice(table, 5)
    public(await table.slash("hide", user=table.alice, unit="Alpha"))
    assert "hidden" in (await stored_battle(table)).unit("Alpha").statuses
    [thread] = [t for t in table.discord.threads(table.channel) if t.name.endswith("\u00b7 Blue")]
    before_thread, before_channel = len(table.discord.messages(thread)), len(posted(table))
    dice(table, 90, 90, 90, 90)  # the terrain test fails, as a hidden unit's worst luck would
    moved = await table.slash("move", user=table.alice, unit="Alpha", to="F6", mode="half")
    assert str((await stored_battle(table)).unit("Alpha").cell) == "F6"
    assert "moves out of sight" in public(moved)
    told = "\n".join(message_text(m) for m in table.discord.messages(thread)[before_thread:])
    assert "Difficult Terrain test on F6" in told, "the side reads its unit's terrain test"
    for message in posted(table)[before_channel:]:
        shown = message_text(message) + "".join(f.filename + (f.description or "") for f in message.files)
        assert "F6" not in shown and "Difficult Terrain" not in shown, shown


async def test_a_hidden_units_test_goes_to_its_side_and_the_channel_reads_only_that_it_tested(table: Table) -> None:
    """A test of a hidden unit is made with its square's terrain (Forest, A38 and A41), which would tell the
    other sides where it lies: its side's thread reads it whole, the channel only that the unit made a test."""
    await hidden_eva(table)
    before = len(table.discord.messages(nerv_thread(table)))  # type: ignore[arg-type]
    tested = public(await table.slash("act", user=table.alice, unit="Eva-01", stat="ag", reason="keep still"))
    told = "\n".join(message_text(m) for m in table.discord.messages(nerv_thread(table))[before:])  # type: ignore[arg-type]
    assert "Eva-01" in told and "keep still" in told, told
    assert "Eva-01" in tested and "C3" not in tested and "Forest" not in tested, tested
