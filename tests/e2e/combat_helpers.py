"""Shared steps of the combat tests: dice we choose, units with weapons, the stored battle, refusals."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageChops

from bot.mapview import build_view
from bot.service import Actor
from loopback.models import LoopbackUser
from loopback.replies import Reply
from render import cell_box
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import AddUnit, Order
from rules.turnorders import SetTurnMode
from storage import BattleRecord
from tests.e2e.conftest import Table, last_message, text_of

RIFLE = {"name": "Pallet Rifle", "range": 100, "damage": "2d10+5", "type": "I", "pen": 4}
PISTOL = {"name": "Pistol", "range": 20, "damage": "1d10", "type": "I"}
KNIFE = {"name": "Prog Knife", "melee": True, "damage": "1d10+2", "type": "R", "pen": 2, "tearing": True}
N2 = {"name": "N2 Mine", "range": 50, "damage": "1d10+3", "type": "X", "blast": 2}
POSITRON = {"name": "Positron Rifle", "range": 100, "damage": "2d10", "type": "E", "pen": 6}
BEAM = {"name": "Beam", "range": 100, "line": 30, "damage": "1d10", "type": "I"}


class ScriptedRandom(random.Random):
    """A random source whose dice show the given faces first, then fall back to a fixed seed."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        """Return the next scripted face, checked against the die's range."""
        if not self.faces:
            return super().randint(a, b)
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted face {face} does not fit a d{b}"
        return face


def dice(table: Table, *faces: int) -> None:
    """Make the next order's dice show these faces, in the order the rules roll them."""
    table.service.rng_factory = lambda: ScriptedRandom(faces)


def gm(table: Table) -> Actor:
    """Return the GM as the table service sees them."""
    return Actor(user_id=table.gm.id, guild_id=table.discord.guild.id, name="gm", manage_guild=True)


async def stored(table: Table) -> BattleRecord:
    """Return the stored record of the channel's battle."""
    record = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert record is not None
    return record


async def stored_battle(table: Table) -> Battle:
    """Return the channel's battle as the database holds it."""
    return Battle.from_dict((await stored(table)).state)


async def give(table: Table, order: Order) -> None:
    """Apply a setup order as the GM, straight through the table service."""
    await table.service.execute(gm(table), await stored(table), order, render=False)


async def add(table: Table, name: str, side: str, at: str, owner: LoopbackUser | None = None, **stats: Any) -> None:
    """Place a unit with a full stat block (weapons, skills, statuses) as the GM."""
    await give(table, AddUnit(name=name, side=side, at=Cell.parse(at), owner=owner.id if owner else None,
                              stats=stats or None))


async def battle_with(table: Table, ruleset: str = "strategic-e", width: int = 20, height: int = 15,
                      mode: str | None = "free") -> None:
    """Create the channel's battle; units come next, then `start`."""
    await table.slash("battle new", name="Test Battle", ruleset=ruleset, width=width, height=height)
    if mode is not None:
        await give(table, SetTurnMode(mode=mode))


async def start(table: Table) -> None:
    """Start the battle."""
    reply = await table.slash("battle start")
    assert not last_message(reply).ephemeral, text_of(reply)


async def arm(table: Table, mode: str | None = "free", forest: str | None = None) -> None:
    """Set up an E-Scale battle: Eva-01 (alice) and Eva-02 (bob) of NERV against Sachiel."""
    await battle_with(table, mode=mode)
    if forest:
        await table.slash("map paint", terrain="forest", cells=forest)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ws=40, s=40, ag=40,
              weapons=[RIFLE, PISTOL, KNIFE, N2, POSITRON, BEAM])
    await add(table, "Eva-02", "NERV", "C5", owner=table.bob, bs=45, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, ap=4, t=40, ws=30, weapons=[RIFLE])


async def refused(table: Table, command: str, fragment: str, user: LoopbackUser | None = None,
                  **options: Any) -> Reply:
    """Run a command that must be refused: ephemeral, the fragment in the message, the battle unchanged."""
    before = await stored(table)
    reply = await table.slash(command, user=user, **options)
    message = last_message(reply)
    assert message.ephemeral, f"refusal of /{command} was public: {text_of(reply)}"
    assert fragment in text_of(reply), text_of(reply)
    after = await stored(table)
    assert after.version == before.version and after.state == before.state
    return reply


def public(reply: Reply) -> str:
    """Return the text of a reply that must be public."""
    message = last_message(reply)
    assert not message.ephemeral, f"expected a public answer: {text_of(reply)}"
    return text_of(reply)


def square_pixels(png: bytes, battle: Battle, cell: str) -> Image.Image:
    """Return the pixels of one square of a rendered (uncropped) map."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    square = Cell.parse(cell)
    return image.crop(cell_box(build_view(battle), square.x, square.y))


def differs(a: Image.Image, b: Image.Image) -> bool:
    """Return whether two images differ in any pixel."""
    return ImageChops.difference(a, b).getbbox() is not None
