"""Reject what Discord would reject: oversized content, embeds, files, components, choices and modals."""

from __future__ import annotations

from typing import Any

from loopback.models import MessageBody, StoredMessage, walk_components
from loopback.responses import INVALID_FORM_BODY, DiscordHTTPError

CANNOT_SEND_EMPTY_MESSAGE = 50006

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILE_DESCRIPTION = 1024  # an attachment's alt text
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_MODAL_TITLE = 45
# Per-embed field limits, from Discord's documentation.
EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_FIELDS = 25
COMPONENTS_V2 = 1 << 15


def invalid(reason: str) -> DiscordHTTPError:
    """Build Discord's 'Invalid Form Body' error with the reason spelled out."""
    return DiscordHTTPError(400, f"Invalid Form Body: {reason}", INVALID_FORM_BODY)


def check_message_body(body: MessageBody, existing: StoredMessage | None, *, allow_empty: bool) -> None:
    """Raise the 400 Discord answers when a message create or edit breaks its limits."""
    data = body.json
    content = data["content"] if "content" in data else (existing.content if existing else "")
    content = content or ""
    if len(content) > MAX_CONTENT:
        raise invalid(f"content is {len(content)} characters; the limit is {MAX_CONTENT}")
    embeds = data["embeds"] if "embeds" in data else (existing.embeds if existing else [])
    _check_embeds(embeds or [])
    for upload in body.files.values():
        if upload.size > MAX_FILE_BYTES:
            raise DiscordHTTPError(
                413, f"Request entity too large: {upload.filename} is {upload.size} bytes", 40005
            )
    for entry in data.get("attachments") or []:
        described = entry.get("description") or ""
        if len(described) > MAX_FILE_DESCRIPTION:
            raise invalid(f"an attachment's description is {len(described)} characters; "
                          f"the limit is {MAX_FILE_DESCRIPTION}")
    if "attachments" in data:
        file_count = len(data["attachments"] or [])
    else:
        file_count = len(body.files) + (len(existing.files) if existing else 0)
    if file_count > MAX_FILES:
        raise invalid(f"{file_count} files; the limit is {MAX_FILES}")
    components = data["components"] if "components" in data else (existing.components if existing else [])
    flags = int(data.get("flags") or (existing.flags if existing else 0))
    _check_components(components or [], v2=bool(flags & COMPONENTS_V2))
    if not allow_empty and not (content or embeds or file_count or components or data.get("poll")):
        raise DiscordHTTPError(400, "Cannot send an empty message", CANNOT_SEND_EMPTY_MESSAGE)


def _check_embeds(embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > MAX_EMBEDS:
        raise invalid(f"{len(embeds)} embeds; the limit is {MAX_EMBEDS}")
    total = 0
    for index, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT_LIMITS.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                raise invalid(f"embeds[{index}].{key} is {len(text)} characters; the limit is {limit}")
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            raise invalid(f"embeds[{index}] has {len(fields)} fields; the limit is {MAX_FIELDS}")
        for number, embed_field in enumerate(fields):
            for key, limit in FIELD_LIMITS.items():
                text = embed_field.get(key) or ""
                total += len(text)
                if not text:
                    raise invalid(f"embeds[{index}].fields[{number}].{key} is required")
                if len(text) > limit:
                    raise invalid(
                        f"embeds[{index}].fields[{number}].{key} is {len(text)} characters (max {limit})"
                    )
        total += len((embed.get("footer") or {}).get("text") or "") + len(
            (embed.get("author") or {}).get("name") or ""
        )
    if total > MAX_EMBED_TOTAL:
        raise invalid(f"embeds hold {total} characters in total; the limit is {MAX_EMBED_TOTAL}")


def _check_components(components: list[dict[str, Any]], *, v2: bool) -> None:
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            raise invalid(f"{len(components)} action rows; the limit is {MAX_ACTION_ROWS}")
        for index, row in enumerate(components):
            if len(row.get("components", [])) > MAX_ROW_ITEMS:
                raise invalid(f"action row {index} holds more than {MAX_ROW_ITEMS} components")
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if len(custom_id) > MAX_CUSTOM_ID:
            raise invalid(f"custom_id {custom_id[:20]!r}... is longer than {MAX_CUSTOM_ID} characters")
        if custom_id in seen:
            raise invalid(f"custom_id {custom_id!r} is used twice in one message")
        seen.add(custom_id)


def check_choices(data: dict[str, Any]) -> None:
    """Raise the 400 Discord answers for an autocomplete result it cannot show."""
    choices = data.get("choices") or []
    if len(choices) > MAX_CHOICES:
        raise invalid(f"{len(choices)} autocomplete choices; the limit is {MAX_CHOICES}")
    for index, choice in enumerate(choices):
        name = str(choice.get("name", ""))
        if not 1 <= len(name) <= MAX_CHOICE_TEXT:
            raise invalid(f"choices[{index}].name must be 1 to {MAX_CHOICE_TEXT} characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
            raise invalid(f"choices[{index}].value must be at most {MAX_CHOICE_TEXT} characters")


def check_modal(data: dict[str, Any]) -> None:
    """Raise the 400 Discord answers for a modal it cannot show."""
    title = data.get("title") or ""
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        raise invalid(f"modal title must be 1 to {MAX_MODAL_TITLE} characters")
    if not 1 <= len(data.get("components") or []) <= MAX_ACTION_ROWS:
        raise invalid(f"a modal needs 1 to {MAX_ACTION_ROWS} components")
    _check_components(data["components"], v2=True)
