"""Each player's own settings in a battle (reminders, a muted turn) and where a battle's private posts go."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import codec
from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, count, every, one, single

# A muted turn written as this means: the next turn that calls the player.
NEXT_TURN = "*"

_PLAYER_COLUMNS = "battle_id, user_id, remind, muted_turn, turn_key, reminded, stall_told, reminded_since"
_GET_PLAYER = Query.of(f"SELECT {_PLAYER_COLUMNS} FROM battle_players WHERE battle_id = ? AND user_id = ?")
_PLAYERS = Query.of(f"SELECT {_PLAYER_COLUMNS} FROM battle_players WHERE battle_id = ? ORDER BY user_id")
_PUT_PLAYER = Query.of(f"""
INSERT INTO battle_players ({_PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (battle_id, user_id) DO UPDATE SET
    remind = excluded.remind, muted_turn = excluded.muted_turn, turn_key = excluded.turn_key,
    reminded = excluded.reminded, stall_told = excluded.stall_told, reminded_since = excluded.reminded_since
""")
_POSTING_COLUMNS = "battle_id, side_threads, stall_after, fallback_told, threads, gm_thread"
_GET_POSTING = Query.of(f"SELECT {_POSTING_COLUMNS} FROM battle_posting WHERE battle_id = ?")
_PUT_POSTING = Query.of(f"""
INSERT INTO battle_posting ({_POSTING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (battle_id) DO UPDATE SET
    side_threads = excluded.side_threads, stall_after = excluded.stall_after,
    fallback_told = excluded.fallback_told, threads = excluded.threads, gm_thread = excluded.gm_thread
""")
_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's settings in one battle, and the reminders of the turn named by turn_key."""

    battle_id: int
    user_id: int
    remind: str = "battle"  # battle, off, once, or every:N (hours)
    muted_turn: str | None = None
    turn_key: str | None = None
    reminded: int = 0
    stall_told: bool = False
    reminded_since: float | None = None  # when the first of the reminders counted in `reminded` was sent

    def for_turn(self, key: str | None) -> PlayerRecord:
        """Return this record with its counts belonging to the turn `key` (zero when that turn is new)."""
        if key == self.turn_key:
            return self
        return PlayerRecord(self.battle_id, self.user_id, self.remind, self.muted_turn, key, 0, False, None)

    def muted(self, key: str | None) -> bool:
        """Return whether the player muted the turn `key`."""
        return key is not None and self.muted_turn == key


@dataclass(frozen=True, slots=True)
class PostingRecord:
    """Where a battle's private posts go, and when the GM hears who is stalling."""

    battle_id: int
    side_threads: bool = False
    stall_after: int = 0
    fallback_told: bool = False
    threads: dict[str, Any] = field(default_factory=dict)  # side -> {"thread": id, "members": [user ids]}
    gm_thread: int | None = None  # the GM's private thread, where stall reports go


def _player(row: tuple[Any, ...]) -> PlayerRecord:
    since = None if row[7] is None else float(row[7])
    return PlayerRecord(int(row[0]), int(row[1]), str(row[2]), row[3], row[4], int(row[5]), bool(row[6]), since)


class PlayerRepo:
    """Read and write players' settings per battle, and each battle's posting settings."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get(self, battle_id: int, user_id: int) -> PlayerRecord:
        """Return a player's settings in a battle (the defaults when never set)."""
        row = await self._engine.read(single(_GET_PLAYER, battle_id, user_id))
        return PlayerRecord(battle_id, user_id) if row is None else _player(row)

    async def of_battle(self, battle_id: int) -> list[PlayerRecord]:
        """Return every player of a battle who set something or was reminded."""
        return [_player(row) for row in await self._engine.read(every(_PLAYERS, battle_id))]

    async def save(self, player: PlayerRecord) -> None:
        """Store a player's settings and counts."""
        if player.reminded < 0:
            raise ValueError("reminded cannot be negative")

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, player.battle_id)) is None:
                raise BattleNotFound(player.battle_id)
            yield count(_PUT_PLAYER, player.battle_id, player.user_id, player.remind, player.muted_turn,
                        player.turn_key, player.reminded, int(player.stall_told), player.reminded_since)

        await self._engine.write(run())

    async def posting(self, battle_id: int) -> PostingRecord:
        """Return a battle's posting settings (no side threads, no stall reports, when never set)."""
        row = await self._engine.read(single(_GET_POSTING, battle_id))
        if row is None:
            return PostingRecord(battle_id)
        return PostingRecord(int(row[0]), bool(row[1]), int(row[2]), bool(row[3]), codec.decode(row[4]),
                             None if row[5] is None else int(row[5]))

    async def save_posting(self, posting: PostingRecord) -> None:
        """Store a battle's posting settings."""
        if posting.stall_after < 0:
            raise ValueError("stall_after cannot be negative")
        text = codec.encode(posting.threads)

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, posting.battle_id)) is None:
                raise BattleNotFound(posting.battle_id)
            yield count(_PUT_POSTING, posting.battle_id, int(posting.side_threads), posting.stall_after,
                        int(posting.fallback_told), text, posting.gm_thread)

        await self._engine.write(run())
