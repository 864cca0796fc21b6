"""Guild settings, user settings and in-place messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database, GuildSettings, MessageRef

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle


async def test_guild_defaults(db: Database) -> None:
    assert await db.guilds.get(1) == GuildSettings(guild_id=1, gm_role_id=None, settings={})


async def test_gm_role_and_settings(db: Database) -> None:
    await db.guilds.set_gm_role(1, 555)
    merged = await db.guilds.update_settings(1, ruleset="m42", turn_hours=24, dice={"manual": False})
    assert merged == GuildSettings(1, 555, {"ruleset": "m42", "turn_hours": 24, "dice": {"manual": False}})
    merged = await db.guilds.update_settings(1, turn_hours=48, ruleset=None)
    assert merged.settings == {"turn_hours": 48, "dice": {"manual": False}}
    assert await db.guilds.get(1) == merged

    await db.guilds.set_gm_role(1, None)
    assert await db.guilds.get(1) == GuildSettings(1, None, {"turn_hours": 48, "dice": {"manual": False}})
    assert await db.guilds.get(2) == GuildSettings(2, None, {})


async def test_settings_only_for_one_guild(db: Database) -> None:
    settings = await db.guilds.update_settings(7, map_crop=True)
    assert settings == GuildSettings(7, None, {"map_crop": True})
    assert (await db.guilds.get(8)).settings == {}


async def test_unserialisable_settings_are_refused(db: Database) -> None:
    with pytest.raises(TypeError):
        await db.guilds.update_settings(1, bad=object())
    assert await db.guilds.get(1) == GuildSettings(1, None, {})


async def test_user_notify(db: Database) -> None:
    assert await db.users.get_notify(42) == "channel"
    await db.users.set_notify(42, "dm")
    assert await db.users.get_notify(42) == "dm"
    await db.users.set_notify(42, "channel")
    assert await db.users.get_notify(42) == "channel"
    with pytest.raises(ValueError, match="notify"):
        await db.users.set_notify(42, "pigeon")  # type: ignore[arg-type]
    assert await db.users.get_notify(42) == "channel"


async def test_settings_persist(db_target: str) -> None:
    db = await Database.open(db_target)
    await db.guilds.set_gm_role(1, 2)
    await db.users.set_notify(3, "dm")
    await db.close()
    db = await Database.open(db_target)
    try:
        assert (await db.guilds.get(1)).gm_role_id == 2
        assert await db.users.get_notify(3) == "dm"
    finally:
        await db.close()


async def test_messages(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    assert await db.messages.get(battle.id, "status_board") is None
    await db.messages.set(battle.id, "status_board", 200, 3001)
    ref = await db.messages.get(battle.id, "status_board")
    assert ref == MessageRef(200, 3001)
    assert ref is not None
    channel_id, message_id = ref
    assert (channel_id, message_id) == (200, 3001)

    await db.messages.set(battle.id, "status_board", 201, 3002)
    await db.messages.set(battle.id, "turn_prompt", 200, 3003)
    assert await db.messages.get(battle.id, "status_board") == (201, 3002)
    assert await db.messages.get(battle.id, "turn_prompt") == (200, 3003)

    assert await db.messages.delete(battle.id, "turn_prompt") is True
    assert await db.messages.delete(battle.id, "turn_prompt") is False
    assert await db.messages.get(battle.id, "turn_prompt") is None
    with pytest.raises(BattleNotFound):
        await db.messages.set(battle.id + 100, "status_board", 1, 2)
