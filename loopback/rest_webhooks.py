"""Serve interaction callbacks and the interaction webhook (follow-ups, @original edits)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from loopback.events import Announcer
from loopback.limits import check_choices, check_modal
from loopback.messages import apply_body, complete_deferred, read_body
from loopback.models import FLAG_EPHEMERAL, MessageBody, StoredMessage
from loopback.payloads import message_payload
from loopback.replies import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from loopback.responses import (
    ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    DiscordHTTPError,
    json_response,
    no_content,
    not_found,
    snowflake,
)
from loopback.world import World

log = logging.getLogger(__name__)

# Message types Discord gives interaction responses.
CHAT_INPUT_COMMAND_MESSAGE = 20

# Which callback types each interaction type may use.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}


class WebhookRoutes:
    """Answer interaction callbacks and interaction webhook calls."""

    def __init__(self, world: World, announcer: Announcer) -> None:
        self.world = world
        self.announce = announcer

    def routes(self) -> list[web.RouteDef]:
        """Return this group's routes, relative to the API prefix."""
        hook = "/webhooks/{application_id}/{token}"
        return [
            web.post("/interactions/{interaction_id}/{token}/callback", self.callback),
            web.post(hook, self.followup),
            web.get(hook + "/messages/{message_id}", self.get_message),
            web.patch(hook + "/messages/{message_id}", self.edit_message),
            web.delete(hook + "/messages/{message_id}", self.delete_message),
        ]

    # Callbacks

    async def callback(self, request: web.Request) -> web.Response:
        """Record the bot's initial response to an interaction."""
        record = self.world.interactions_by_id.get(snowflake(request, "interaction_id"))
        if record is None or record.token != request.match_info["token"]:
            raise not_found("interaction", UNKNOWN_INTERACTION)
        if record.response_type is not None:
            raise DiscordHTTPError(400, "Interaction has already been acknowledged.", ALREADY_ACKNOWLEDGED)
        window = self.world.ack_window
        if window is not None and record.dispatched_at is not None:
            late = asyncio.get_running_loop().time() - record.dispatched_at
            if late > window:
                # Discord forgets an interaction nobody answered in time; the token is dead from then on.
                record.rejections.append(f"Unknown interaction: answered after {late:.2f}s, past the {window:g}s window")
                raise not_found("interaction", UNKNOWN_INTERACTION)
        body = await read_body(request)
        kind = int(body.json.get("type", 0))
        data: dict[str, Any] = body.json.get("data") or {}
        try:
            if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
                raise DiscordHTTPError(400, f"Interaction callback type {kind} is not valid here", 50035)
            if kind == AUTOCOMPLETE_RESULT:
                check_choices(data)
            elif kind == MODAL:
                check_modal(data)
            message = await self._respond(record, kind, MessageBody(json=data, files=body.files))
        except DiscordHTTPError as exc:
            # The interaction stays unanswered, as on Discord: the bot may still answer it properly.
            record.rejections.append(exc.message)
            raise
        record.response_type = kind
        record.response_data = data
        record.answered.set()
        if kind != DEFERRED_CHANNEL_MESSAGE:
            record.completed.set()
        log.debug("interaction %s answered with callback type %s", record.id, kind)
        return json_response(self._callback_result(record, kind, message))

    async def _respond(self, record: InteractionRecord, kind: int, body: MessageBody) -> StoredMessage | None:
        flags = int(body.json.get("flags") or 0)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            message = self.world.create_message(
                record.channel_id,
                body,
                loading=kind == DEFERRED_CHANNEL_MESSAGE,
                ephemeral=bool(flags & FLAG_EPHEMERAL),
                type=CHAT_INPUT_COMMAND_MESSAGE if record.type == APPLICATION_COMMAND else 0,
                webhook_id=self.world.application_id,
                application_id=self.world.application_id,
                interaction_id=record.id,
            )
            record.original_id = message.id
            await self.announce.message_created(message)
            return message
        if kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = self.world.messages.get(record.source_message_id or 0)
            if source is None:
                raise DiscordHTTPError(400, "This interaction has no message to update", 50035)
            record.original_id = source.id
            if kind == UPDATE_MESSAGE:
                apply_body(source, body, self.world, creating=False)
                await self.announce.message_updated(source)
            return source
        return None

    def _callback_result(
        self, record: InteractionRecord, kind: int, message: StoredMessage | None
    ) -> dict[str, Any]:
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        result: dict[str, Any] = {"interaction": interaction, "resource": {"type": kind}}
        if message is not None:
            interaction.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
            if kind != DEFERRED_UPDATE_MESSAGE:
                result["resource"]["message"] = message_payload(message, self.world)
        return result

    # Webhook

    def _record(self, request: web.Request) -> InteractionRecord:
        if snowflake(request, "application_id") != self.world.application_id:
            raise not_found("Webhook", UNKNOWN_WEBHOOK)
        record = self.world.interactions_by_token.get(request.match_info["token"])
        if record is None or record.response_type is None:
            # Discord only opens the webhook once the interaction has been answered.
            raise not_found("Webhook", UNKNOWN_WEBHOOK)
        return record

    def _webhook_message(self, request: web.Request, record: InteractionRecord) -> StoredMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message_id = record.original_id
        else:
            message_id = int(raw) if raw.isdigit() else None
            if message_id not in record.followup_ids and message_id != record.original_id:
                message_id = None
        message = self.world.messages.get(message_id or 0)
        if message is None or message.deleted:
            raise not_found("Message", UNKNOWN_MESSAGE)
        return message

    async def followup(self, request: web.Request) -> web.Response:
        """Send a follow-up; the first one after a deferral fills the 'thinking' message instead."""
        record = self._record(request)
        body = await read_body(request)
        original = self.world.messages.get(record.original_id or 0)
        if original is not None and original.loading:
            complete_deferred(original, body, self.world)
            record.completed.set()
            await self.announce.message_updated(original)
            message = original
        else:
            flags = int(body.json.get("flags") or 0)
            message = self.world.create_message(
                record.channel_id,
                body,
                ephemeral=bool(flags & FLAG_EPHEMERAL),
                webhook_id=self.world.application_id,
                application_id=self.world.application_id,
                interaction_id=record.id,
            )
            record.followup_ids.append(message.id)
            record.completed.set()
            await self.announce.message_created(message)
        if request.query.get("wait", "false").lower() in ("1", "true"):
            return json_response(message_payload(message, self.world))
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        """Return the original response or one follow-up."""
        record = self._record(request)
        return json_response(message_payload(self._webhook_message(request, record), self.world))

    async def edit_message(self, request: web.Request) -> web.Response:
        """Edit the original response (filling it if deferred) or a follow-up."""
        record = self._record(request)
        message = self._webhook_message(request, record)
        body = await read_body(request)
        if message.loading:
            complete_deferred(message, body, self.world)
        else:
            apply_body(message, body, self.world, creating=False)
        record.completed.set()
        await self.announce.message_updated(message)
        return json_response(message_payload(message, self.world))

    async def delete_message(self, request: web.Request) -> web.Response:
        """Delete the original response or a follow-up."""
        record = self._record(request)
        message = self._webhook_message(request, record)
        message.deleted = True
        record.completed.set()
        await self.announce.message_deleted(message)
        return no_content()
