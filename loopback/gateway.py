"""Serve a Discord gateway over a plain-text websocket: HELLO, IDENTIFY, heartbeats, READY, dispatches.

Sharding works as on Discord: a session that identifies with ``shard: [id, count]`` hears only about the
guilds with ``(guild_id >> 22) % count == id``, and direct messages (no guild) go to shard 0. A session
without a shard hears everything. Several bot processes can connect at once, each with its own shards.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from loopback.payloads import guild_payload, member_payload, user_payload
from loopback.world import World

log = logging.getLogger(__name__)

# Gateway opcodes.
DISPATCH = 0
HEARTBEAT = 1  # only ever received: discord.py answers a server heartbeat through its send rate limiter
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intent bits deciding which events a session receives.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

# Discord closes with 4004 when the token is wrong.
AUTHENTICATION_FAILED = 4004

HEARTBEAT_INTERVAL_MS = 41250


@dataclass(eq=False)
class GatewaySession:
    """Hold one identified websocket connection and its sequence counter."""

    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    intents: int = 0
    sequence: int = 0
    identified: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] | None = None
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    def serves(self, guild_id: int | None) -> bool:
        """Return whether this session receives the events of a guild (None: direct messages)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one gateway payload as a text frame."""
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send one DISPATCH event with the next sequence number."""
        self.sequence += 1
        await self.send({"op": DISPATCH, "t": event, "s": self.sequence, "d": data})


class Gateway:
    """Accept gateway connections and push events to every identified session."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.token: str | None = None
        self.sessions: list[GatewaySession] = []
        self.url = ""

    def identified_sessions(self) -> list[GatewaySession]:
        """Return the sessions that completed IDENTIFY and are still open."""
        return [s for s in self.sessions if s.identified and not s.ws.closed]

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """Return the identified sessions that serve a guild (None: direct messages)."""
        return [s for s in self.identified_sessions() if s.serves(guild_id)]

    async def dispatch(self, event: str, data: Any, *, intent: int = GUILDS, single: bool = False) -> int:
        """Send an event to the sessions serving its guild whose intents cover it (intent 0: always).

        The guild is the payload's ``guild_id`` (none: a direct message). With single, only the first such
        session gets it, as Discord delivers an interaction once. Return how many sessions got it.
        """
        guild = data.get("guild_id") if isinstance(data, dict) else None
        sent = 0
        for session in self.sessions_for(None if guild is None else int(guild)):
            if intent == 0 or session.intents & intent:
                await session.dispatch(event, data)
                sent += 1
                if single:
                    break
        return sent

    async def close(self) -> None:
        """Close every open gateway connection."""
        for session in list(self.sessions):
            await session.ws.close(code=1000)
        self.sessions.clear()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Run one gateway connection from HELLO until the client goes away."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws=ws)
        self.sessions.append(session)
        log.debug("gateway connection opened (%s)", request.query_string)
        try:
            await session.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._receive(session, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    log.debug("gateway connection error: %s", ws.exception())
        finally:
            session.closed.set()
            if session in self.sessions:
                self.sessions.remove(session)
            log.debug("gateway connection closed (code %s)", ws.close_code)
        return ws

    async def _receive(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data: Any = payload.get("d")
        if op == HEARTBEAT:
            await session.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(session, data)
        elif op == RESUME:
            # Sessions are not kept across connections; asking for a fresh IDENTIFY is what Discord does too.
            await session.send({"op": INVALID_SESSION, "d": False})
        elif op == REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(session, data)
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            pass
        else:
            log.warning("gateway received unknown opcode %s", op)

    async def _identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if self.token is not None and data.get("token") != self.token:
            log.warning("gateway IDENTIFY with the wrong token; closing with %s", AUTHENTICATION_FAILED)
            await session.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        session.intents = int(data.get("intents", 0))
        shard = data.get("shard")
        if isinstance(shard, list) and len(shard) == 2:
            session.shard = (int(shard[0]), int(shard[1]))
        session.identified = True
        world = self.world
        guilds = [g for g in world.guilds.values() if session.serves(g.id)]
        ready = {
            "v": 10,
            "user": {**user_payload(world.bot_user), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "geo_ordered_rtc_regions": [],
            "auth_session_id_hash": "",
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        all_members = bool(session.intents & GUILD_MEMBERS)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild_payload(guild, world, all_members=all_members))
        log.debug("gateway session %s identified with intents %s, shard %s", session.session_id, session.intents,
                  session.shard)

    async def _send_member_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        wanted = {int(uid) for uid in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = []
        for membership in guild.members.values():
            user = self.world.users[membership.user_id]
            if wanted and user.id not in wanted:
                continue
            if not wanted and query and not user.name.lower().startswith(query):
                continue
            members.append(member_payload(guild, membership, user))
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
