"""Read message bodies the bot sends (JSON or multipart) and apply them to stored messages."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from aiohttp import web
from aiohttp.hdrs import CONTENT_DISPOSITION, CONTENT_TYPE
from aiohttp.helpers import MimeType, parse_mimetype
from aiohttp.multipart import content_disposition_filename, parse_content_disposition
from multidict import CIMultiDict

from loopback.limits import check_message_body
from loopback.models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    MessageBody,
    MessageStore,
    Pings,
    StoredFile,
    StoredMessage,
    utcnow,
)

log = logging.getLogger(__name__)

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE_MENTION = re.compile(r"@(everyone|here)\b")
FILE_FIELD = re.compile(r"files\[(\d+)\]")

# Flags a bot may set itself when sending; the rest are Discord's to decide.
SENDABLE_FLAGS = (1 << 2) | FLAG_EPHEMERAL | (1 << 12) | (1 << 15)


async def read_body(request: web.Request) -> MessageBody:
    """Decode a JSON or multipart/form-data (payload_json + files[n]) request body."""
    if request.content_type == "multipart/form-data":
        body = MessageBody()
        for headers, data in _form_parts(await request.read(), parse_mimetype(request.headers[CONTENT_TYPE])):
            _, params = parse_content_disposition(headers.get(CONTENT_DISPOSITION))
            name = content_disposition_filename(params, "name") or ""
            if name == "payload_json":
                body.json = json.loads(data)
                continue
            match = FILE_FIELD.fullmatch(name)
            if match is None:
                log.warning("ignoring multipart field %r", name)
                continue
            filename = content_disposition_filename(params, "filename")
            body.files[int(match.group(1))] = StoredFile(filename=filename or name, data=data)
        return body
    if request.can_read_body:
        raw = await request.read()
        if raw:
            return MessageBody(json=json.loads(raw))
    return MessageBody()


def _form_parts(raw: bytes, mimetype: MimeType) -> list[tuple[CIMultiDict[str], bytes]]:
    """Split a whole multipart/form-data body into each part's headers and bytes.

    The body is read at once and cut at its boundary (which by definition appears nowhere else), rather than
    streamed through a part reader: a map's PNG is then copied once instead of searched chunk by chunk.
    """
    boundary = mimetype.parameters.get("boundary", "")
    if not boundary:
        raise web.HTTPBadRequest(text="multipart body without a boundary")
    delimiter = b"--" + boundary.encode("latin-1")
    pieces = raw.split(b"\r\n" + delimiter)
    # The first piece opens with the first delimiter; the last is the closing `--` and whatever follows.
    if not pieces[0].startswith(delimiter) or len(pieces) < 2 or not pieces[-1].startswith(b"--"):
        raise web.HTTPBadRequest(text="malformed multipart body")
    pieces[0] = pieces[0][len(delimiter):]
    parts = []
    for piece in pieces[:-1]:
        head, sep, data = piece.partition(b"\r\n\r\n")
        if not sep:
            raise web.HTTPBadRequest(text="multipart part without headers")
        headers: CIMultiDict[str] = CIMultiDict()
        for line in head.split(b"\r\n"):
            key, colon, value = line.decode("utf-8", "surrogateescape").partition(":")
            if colon:
                headers.add(key.strip(), value.strip())
        parts.append((headers, data))
    return parts


def compute_pings(content: str, allowed: dict[str, Any] | None, replied_author: int | None) -> Pings:
    """Work out who a message notifies, following Discord's allowed_mentions rules."""
    users = {int(x) for x in USER_MENTION.findall(content)}
    roles = {int(x) for x in ROLE_MENTION.findall(content)}
    everyone = bool(EVERYONE_MENTION.search(content))
    if allowed is None:
        # No allowed_mentions at all means Discord parses everything in the content.
        if replied_author is not None:
            users.add(replied_author)
        return Pings(everyone=everyone, users=frozenset(users), roles=frozenset(roles))
    parse = set(allowed.get("parse", []))
    listed_users = {int(x) for x in allowed.get("users", [])}
    listed_roles = {int(x) for x in allowed.get("roles", [])}
    pinged_users = {u for u in users if "users" in parse or u in listed_users}
    if replied_author is not None and allowed.get("replied_user"):
        pinged_users.add(replied_author)
    pinged_roles = {r for r in roles if "roles" in parse or r in listed_roles}
    return Pings(
        everyone=everyone and "everyone" in parse,
        users=frozenset(pinged_users),
        roles=frozenset(pinged_roles),
    )


def apply_body(
    message: StoredMessage, body: MessageBody, world: MessageStore, *, creating: bool, allow_empty: bool = False
) -> None:
    """Apply a create or edit body to a stored message, keeping Discord's edit semantics and limits."""
    check_message_body(body, None if creating else message, allow_empty=allow_empty)
    data = body.json
    message.bodies.append(data)
    if "content" in data:
        message.content = data["content"] or ""
    if "embeds" in data:
        message.embeds = list(data["embeds"] or [])
    if "components" in data:
        message.components = list(data["components"] or [])
    if "tts" in data:
        message.tts = bool(data["tts"])
    if "flags" in data and data["flags"] is not None:
        kept = message.flags & ~SENDABLE_FLAGS
        if not creating:
            # Ephemerality is fixed when a message is created; an edit cannot change it.
            kept |= message.flags & FLAG_EPHEMERAL
            wanted = int(data["flags"]) & SENDABLE_FLAGS & ~FLAG_EPHEMERAL
        else:
            wanted = int(data["flags"]) & SENDABLE_FLAGS
        message.flags = kept | wanted
    if "allowed_mentions" in data:
        message.allowed_mentions = data["allowed_mentions"]
    if creating and data.get("message_reference"):
        message.message_reference = dict(data["message_reference"])
        message.type = 19
    _apply_files(message, body, world)
    if not creating:
        message.edited_at = utcnow()


def finish_pings(message: StoredMessage, world: MessageStore) -> None:
    """Record who the message notified; call once, when its first real content lands."""
    replied_author = None
    # Only a reply (type 19) can notify the author it replies to; a pin notice also carries a reference.
    if message.message_reference is not None and message.type == 19:
        referenced = world.messages.get(int(message.message_reference.get("message_id", 0)))
        if referenced is not None:
            replied_author = referenced.author_id
    message.pings = compute_pings(message.content, message.allowed_mentions, replied_author)


def complete_deferred(message: StoredMessage, body: MessageBody, world: MessageStore) -> None:
    """Fill a deferred 'thinking' response with its first real content."""
    apply_body(message, body, world, creating=False)
    message.flags &= ~FLAG_LOADING
    # Filling a deferred response is how it is first shown, not an edit a user would see as such.
    message.edited_at = None
    finish_pings(message, world)


def _apply_files(message: StoredMessage, body: MessageBody, world: MessageStore) -> None:
    listed = body.json.get("attachments")
    if listed is None:
        for index in sorted(body.files):
            message.files.append(world.store_file(body.files[index], message.channel_id))
        return
    existing = {f.id: f for f in message.files}
    kept: list[StoredFile] = []
    for entry in listed:
        entry_id = int(entry["id"])
        if entry_id in body.files:
            upload = body.files[entry_id]
            upload.description = entry.get("description")
            if entry.get("filename"):
                upload.filename = entry["filename"]
            kept.append(world.store_file(upload, message.channel_id))
        elif entry_id in existing:
            kept.append(existing[entry_id])
        else:
            raise ValueError(
                f"attachment id {entry_id} is neither an upload index nor an existing attachment"
            )
    message.files = kept
