"""Guild settings, user settings and in-place messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database, GuildSettings, MessageRef

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle


async def test_guild_defaults(db: Database) -> None:
    assert await db.guilds.get(1) == GuildSettings(guild_id=1, gm_role_id=None, settings={})


async def test_a_users_zone_and_digest_hour_are_kept_apart_and_forgotten_alone(db: Database) -> None:
    assert await db.users.get_zone(9) is None and await db.users.get_digest_minute(9) is None
    await db.users.set_digest_minute(9, 7 * 60 + 30)
    await db.users.set_zone(9, "Asia/Tokyo")
    assert (await db.users.get_zone(9), await db.users.get_digest_minute(9)) == ("Asia/Tokyo", 450)
    await db.users.set_zone(9, None)
    assert (await db.users.get_zone(9), await db.users.get_digest_minute(9)) == (None, 450)
    await db.users.set_digest_minute(9, None)
    assert await db.users.get_digest_minute(9) is None
    assert await db.users.get_notify(9) == "channel", "the notification setting is untouched"


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


async def test_player_settings_per_battle(db: Database, new_battle: NewBattle) -> None:
    from storage import PlayerRecord

    first, second = await new_battle(), await new_battle()
    assert await db.players.get(first.id, 5) == PlayerRecord(first.id, 5)
    await db.players.save(PlayerRecord(first.id, 5, remind="every:6", muted_turn="1|side|NERV", turn_key="1|side|NERV",
                                       reminded=2, stall_told=True))
    await db.players.save(PlayerRecord(first.id, 6, remind="off"))
    assert await db.players.get(first.id, 5) == PlayerRecord(first.id, 5, "every:6", "1|side|NERV", "1|side|NERV", 2,
                                                            True)
    assert [p.user_id for p in await db.players.of_battle(first.id)] == [5, 6]
    assert await db.players.of_battle(second.id) == []
    # A new turn starts the counts again, keeping the player's settings.
    assert (await db.players.get(first.id, 5)).for_turn("2|side|NERV") == PlayerRecord(
        first.id, 5, "every:6", "1|side|NERV", "2|side|NERV", 0, False)
    with pytest.raises(BattleNotFound):
        await db.players.save(PlayerRecord(999_999, 5))


async def test_posting_settings_per_battle(db: Database, new_battle: NewBattle) -> None:
    from storage import PostingRecord

    battle = await new_battle()
    assert await db.players.posting(battle.id) == PostingRecord(battle.id)
    threads = {"NERV": {"thread": 12, "members": [1, 2]}}
    await db.players.save_posting(PostingRecord(battle.id, side_threads=True, stall_after=3, fallback_told=True,
                                                threads=threads))
    assert await db.players.posting(battle.id) == PostingRecord(battle.id, True, 3, True, threads)
    with pytest.raises(ValueError):
        await db.players.save_posting(PostingRecord(battle.id, stall_after=-1))
