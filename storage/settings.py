"""Guild and user settings."""

from __future__ import annotations

import logging
from typing import Any, cast

from . import codec
from .engine import Engine
from .program import Program, Query, changed, count, one, single
from .records import NOTIFY_MODES, GuildSettings, NotifyMode

log = logging.getLogger(__name__)

DEFAULT_NOTIFY: NotifyMode = "channel"

_GET_GUILD = Query.of("SELECT gm_role_id, settings FROM guild_settings WHERE guild_id = ?")
_SET_GM_ROLE = Query.of("""
INSERT INTO guild_settings (guild_id, gm_role_id) VALUES (?, ?)
ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id
""")
# The merge reads, changes and writes the row; on PostgreSQL the row is made to exist and then
# locked first, so two processes merging at once cannot both start from the same settings.
_ENSURE_GUILD = Query.of("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING")
_GET_GUILD_FOR_WRITE = Query.of(
    "SELECT gm_role_id, settings FROM guild_settings WHERE guild_id = ?",
    postgres="SELECT gm_role_id, settings FROM guild_settings WHERE guild_id = ? FOR UPDATE",
)
_SET_GUILD_SETTINGS = Query.of("UPDATE guild_settings SET settings = ? WHERE guild_id = ?")
_GET_USER_SETTINGS = Query.of("SELECT settings FROM user_settings WHERE user_id = ?")
_ENSURE_USER = Query.of("INSERT INTO user_settings (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING")
_GET_USER_FOR_WRITE = Query.of(
    "SELECT settings FROM user_settings WHERE user_id = ?",
    postgres="SELECT settings FROM user_settings WHERE user_id = ? FOR UPDATE",
)
_SET_USER_SETTINGS = Query.of("UPDATE user_settings SET settings = ? WHERE user_id = ?")
_GET_NOTIFY = Query.of("SELECT notify FROM user_settings WHERE user_id = ?")
_SET_NOTIFY = Query.of("""
INSERT INTO user_settings (user_id, notify) VALUES (?, ?)
ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify
""")


def _guild_from_row(guild_id: int, row: tuple[Any, ...] | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id=guild_id, gm_role_id=None, settings={})
    return GuildSettings(guild_id=guild_id, gm_role_id=row[0], settings=codec.decode(row[1]))


class GuildRepo:
    """Store each guild's GM role and default settings."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get(self, guild_id: int) -> GuildSettings:
        """Return a guild's settings; a guild never configured gets empty defaults."""
        row = await self._engine.read(single(_GET_GUILD, guild_id))
        return _guild_from_row(guild_id, row)

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        """Set or clear the role whose members act as GM in this guild."""
        await self._engine.write(changed(_SET_GM_ROLE, guild_id, role_id))
        log.info("guild %d GM role set to %s", guild_id, role_id)

    async def update_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        """Merge values into the guild's settings; a value of None removes that key."""
        # Encode once up front so a value orjson cannot serialise fails before any write.
        codec.encode(values)

        def run() -> Program[GuildSettings]:
            yield count(_ENSURE_GUILD, guild_id)
            current = _guild_from_row(guild_id, (yield one(_GET_GUILD_FOR_WRITE, guild_id)))
            merged = dict(current.settings)
            for key, value in values.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            text = codec.encode(merged)
            yield count(_SET_GUILD_SETTINGS, text, guild_id)
            return GuildSettings(
                guild_id=guild_id, gm_role_id=current.gm_role_id, settings=codec.decode(text)
            )

        return await self._engine.write(run())


class UserRepo:
    """Store each user's notification preference."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get_notify(self, user_id: int) -> NotifyMode:
        """Return how a user wants to be told it is their turn ('channel' unless set)."""
        row = await self._engine.read(single(_GET_NOTIFY, user_id))
        return DEFAULT_NOTIFY if row is None else cast(NotifyMode, row[0])

    async def set_notify(self, user_id: int, mode: NotifyMode) -> None:
        """Set how a user wants to be told it is their turn."""
        if mode not in NOTIFY_MODES:
            raise ValueError(f"notify mode must be one of {sorted(NOTIFY_MODES)}, not {mode!r}")
        await self._engine.write(changed(_SET_NOTIFY, user_id, mode))

    async def get_zone(self, user_id: int) -> str | None:
        """Return the IANA time zone a user set, or None."""
        row = await self._engine.read(single(_GET_USER_SETTINGS, user_id))
        zone = None if row is None else codec.decode(row[0]).get("zone")
        return zone if isinstance(zone, str) else None

    async def set_zone(self, user_id: int, zone: str | None) -> None:
        """Set (or with None, forget) a user's time zone."""
        await self._set_setting(user_id, "zone", zone)

    async def get_digest_minute(self, user_id: int) -> int | None:
        """Return the local time (minutes after midnight) a user wants their daily digest at, or None."""
        row = await self._engine.read(single(_GET_USER_SETTINGS, user_id))
        minute = None if row is None else codec.decode(row[0]).get("digest_minute")
        return minute if isinstance(minute, int) else None

    async def set_digest_minute(self, user_id: int, minute: int | None) -> None:
        """Set (or with None, forget) the local time of a user's daily digest, in minutes after midnight."""
        await self._set_setting(user_id, "digest_minute", minute)

    async def _set_setting(self, user_id: int, key: str, value: object) -> None:
        """Set (or with None, remove) one of a user's settings, leaving the others as they are."""

        def run() -> Program[None]:
            yield count(_ENSURE_USER, user_id)
            row = yield one(_GET_USER_FOR_WRITE, user_id)
            settings = codec.decode(row[0])
            if value is None:
                settings.pop(key, None)
            else:
                settings[key] = value
            yield count(_SET_USER_SETTINGS, codec.encode(settings), user_id)

        await self._engine.write(run())
