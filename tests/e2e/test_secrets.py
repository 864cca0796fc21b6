"""Hidden stays hidden: every reply, post, DM, autocomplete and map each role can see, searched for each secret.

The secrets: NERV's hidden Fire Trap on B2, NERV's feature points, the GM's hidden roll and alice's standing
order. NERV's player (alice) may know the first two and her own standing order, the GM knows everything,
and the other side's player (bob) and a member with no units (carol) know none of them.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from loopback.models import LoopbackUser, StoredMessage
from render.geometry import Geometry
from rules.battle import Battle
from rules.visibility import GM
from tests.e2e.conftest import Table, embed_text, last_message, text_of
from tests.e2e.turn_helpers import stored_battle

SECRETS = {
    # The catalogue of feature types names a Fire Trap to everyone; what is secret is that one lies on B2.
    "trap": ("Fire Trap (", "Fire Trap on", "Fire Trap) on", "B2: Fire", "**B2** Fire", "fire_trap on"),
    "nerv points": ("pool **37**", "left **34**", "37 FP", "34 FP", "value:37", "/37", "**34**"),
    "hidden roll": ("Operation Yashima",),
    "standing order": ("H9",),
}
KNOWS = {
    "gm": {"trap", "nerv points", "hidden roll", "standing order"},
    "alice": {"trap", "nerv points", "standing order"},
    "bob": set(),
    "carol": set(),
}
TRAP = (1, 1)  # B2
WIDTH, HEIGHT = 12, 10


async def setup_secrets(table: Table) -> None:
    """Lay the trap, the points and the standing order on a P-Scale battle still in setup."""
    await table.slash("battle new", name="Gora", ruleset="strategic-p", width=WIDTH, height=HEIGHT)
    await table.slash("map paint", terrain="forest", **{"from": "A1"}, to="C3")
    await table.slash("unit add", name="Eva-01", side="NERV", at="E5", owner=table.alice)
    await table.slash("unit add", name="Sachiel", side="Angels", at="K5", owner=table.bob)
    await table.slash("feature points", side="NERV", value=37)
    await table.slash("feature points", side="Angels", value=9)
    placed = await table.slash("feature place", user=table.alice, type="fire_trap", at="B2", side="NERV")
    assert last_message(placed).ephemeral
    await table.gm_slash("gm policy", policy="default")
    await table.slash("turn standing", user=table.alice, unit="Eva-01", order="move to:H9 mode:half")


async def begin(table: Table) -> None:
    """Start the battle and have the GM roll in secret."""
    await table.slash("battle start")
    await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima")


def texts_of(messages: list[StoredMessage]) -> list[str]:
    """Return the text of messages, with their embeds and file descriptions."""
    out = []
    for m in messages:
        parts = [m.content, *(embed_text(e) for e in m.embeds), *(f.description or "" for f in m.files)]
        out.append("\n".join(parts))
    return out


def seen_by(table: Table, user: LoopbackUser) -> list[StoredMessage]:
    """Return every message the user can read: public posts, their private replies, their DMs."""
    world = table.discord.world
    seen = []
    for channel_id in list(world.channels):
        for message in world.messages_in(channel_id, include_ephemeral=True):
            if not message.ephemeral:
                seen.append(message)
                continue
            record = world.interactions_by_id.get(message.interaction_id or 0)
            if record is not None and record.user.id == user.id:
                seen.append(message)
    return seen + table.discord.dm_messages(user)


async def look_around(table: Table, user: LoopbackUser) -> list[str]:
    """Use every reading command and autocomplete as the user; return the autocomplete answers as text."""
    for command, options in (("battle info", {}), ("battle log", {}), ("turn status", {}), ("feature list", {}),
                             ("map show", {"full": True}), ("unit info", {"unit": "Eva-01"}),
                             ("unit info", {"unit": "Sachiel"}), ("help", {})):
        await table.slash(command, user=user, **options)
    choices: list[dict[str, Any]] = []
    for command, option, given in (("trap trigger", "at", {"side": "NERV"}), ("trap trigger", "side", {}),
                                   ("feature place", "type", {"side": "NERV"}), ("feature place", "side", {}),
                                   ("feature points", "side", {}), ("unit info", "unit", {}),
                                   ("turn standing", "unit", {}), ("attack", "target", {"unit": "Eva-01"})):
        choices += await table.discord.autocomplete(command, option, "", user=user, channel=table.channel, **given)
    return [f"{c['name']} {c['value']}" for c in choices]


def trap_square(png: bytes) -> bytes | None:
    """Return the pixels of the trap's square in a full map image, or None for a cropped or other image."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    box = Geometry.build(WIDTH, HEIGHT).cell_box(*TRAP)
    if image.width < box[2] or image.height < box[3]:
        return None
    return image.crop(box).tobytes()


async def test_no_role_sees_a_secret_it_may_not_know(table: Table) -> None:
    await setup_secrets(table)
    # The other side learns nothing about the trap square by trying to build on it: a side with no points
    # hears only about its points, and one with points hears what any occupied square says.
    await table.slash("feature points", side="Angels", value=0)
    poor = await table.slash("feature place", user=table.bob, type="barrier_walls", at="B2", side="Angels")
    assert "costs 2 FP, but Angels has 0 FP left" in text_of(poor)
    await table.slash("feature points", side="Angels", value=9)
    await table.slash("feature place", user=table.bob, type="barrier_walls", at="B2", side="Angels")
    await begin(table)
    users = {"gm": table.gm, "alice": table.alice, "bob": table.bob, "carol": table.carol}
    answers = {role: await look_around(table, user) for role, user in users.items()}
    battle = await stored_battle(table)
    plain = Battle.from_dict(battle.to_dict())
    for key in ("feature", "feature_side", "feature_purchase"):
        plain.cells["B2"].pop(key, None)
    without_trap = trap_square((await table.service.render(plain, full=True)).png)
    with_trap = trap_square((await table.service.render(battle, full=True, viewer=GM)).png)
    assert without_trap is not None and with_trap != without_trap, "the probe can tell a drawn trap"
    problems = []
    for role, user in users.items():
        visible = seen_by(table, user)
        everything = "\n".join(texts_of(visible) + answers[role])
        for secret, tokens in SECRETS.items():
            shown = [t for t in tokens if t in everything]
            if secret not in KNOWS[role] and shown:
                where = [t[:300] for t in texts_of(visible) + answers[role] if any(x in t for x in shown)]
                problems.append(f"{role} saw the {secret}: {shown} in {where}")
            if secret in KNOWS[role] and not shown and secret != "hidden roll":
                problems.append(f"{role} was never shown the {secret} (the search would miss a leak)")
        if "trap" not in KNOWS[role]:
            squares = [trap_square(f.data) for m in visible for f in m.files if f.filename.endswith(".png")]
            drawn = [s for s in squares if s == with_trap]
            assert squares.count(without_trap) >= 2, f"{role} saw too few full maps of the forest to judge"
            if drawn:
                problems.append(f"{role} saw the trap drawn on {len(drawn)} map(s)")
    gm_text = "\n".join(texts_of(seen_by(table, table.gm)))
    assert "Operation Yashima" in gm_text, "the GM sees the hidden roll"
    assert not problems, "\n".join(problems)


async def test_building_on_a_hidden_trap_answers_as_on_any_occupied_square(table: Table) -> None:
    await setup_secrets(table)
    await table.slash("feature place", user=table.alice, type="minefield", at="G5", side="NERV")
    on_trap = await table.slash("feature place", user=table.bob, type="barrier_walls", at="B2", side="Angels")
    on_mines = await table.slash("feature place", user=table.bob, type="barrier_walls", at="G5", side="Angels")
    assert last_message(on_trap).ephemeral and last_message(on_mines).ephemeral
    assert text_of(on_trap).replace("B2", "G5") == text_of(on_mines)
    assert "Fire Trap" not in text_of(on_trap) and "NERV" not in text_of(on_trap)
