"""Build interaction data for clicks, select menus and modal submissions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loopback.errors import InteractionError
from loopback.models import LoopbackChannel, LoopbackRole, LoopbackUser, StoredMessage, walk_components
from loopback.options import Resolved
from loopback.world import World


def component_data(
    world: World, message: StoredMessage, custom_id: str, user: LoopbackUser, values: list[Any] | None
) -> dict[str, Any]:
    """Validate a click or selection on a stored message and return interaction data."""
    if message.deleted:
        raise InteractionError(f"message {message.id} was deleted")
    if message.ephemeral and message.interaction_id is not None:
        owner = world.interactions_by_id.get(message.interaction_id)
        if owner is not None and owner.user is not user:
            raise InteractionError(f"only {owner.user.name} can see ephemeral message {message.id}")
    component = next(
        (c for c in walk_components(message.components) if c.get("custom_id") == custom_id), None
    )
    if component is None:
        raise InteractionError(
            f"message {message.id} has no component {custom_id!r} (has {message.custom_ids()})"
        )
    if component.get("disabled"):
        raise InteractionError(f"component {custom_id!r} is disabled")
    kind = component["type"]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if kind == 2:
        if values is not None:
            raise InteractionError(f"{custom_id!r} is a button; use click() without values")
        return data
    if values is None:
        raise InteractionError(f"{custom_id!r} is a select menu; pass values=[...]")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InteractionError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
    guild = world.guild_of(message.channel_id)
    resolved = Resolved(world, guild)
    if kind == 3:
        offered = [o["value"] for o in component.get("options", [])]
        bad = [v for v in values if v not in offered]
        if bad:
            raise InteractionError(f"{custom_id!r} offers {offered}, not {bad}")
        data["values"] = list(values)
    else:
        data["values"] = [_select_value(v, resolved, user) for v in values]
        if resolved.data:
            data["resolved"] = resolved.data
    return data


def _select_value(value: Any, resolved: Resolved, user: LoopbackUser) -> str:
    if isinstance(value, LoopbackUser):
        return resolved.user(value)
    if isinstance(value, LoopbackRole):
        return resolved.role(value)
    if isinstance(value, LoopbackChannel):
        return resolved.channel(value, user)
    raise InteractionError(f"select menus of users/roles/channels take harness objects, not {value!r}")


def modal_data(modal: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """Fill the bot's modal with values by custom_id and return the submission data."""
    fields = {c["custom_id"]: c for c in walk_components(modal.get("components", [])) if "custom_id" in c}
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise InteractionError(
            f"modal {modal.get('custom_id')!r} has no field {unknown[0]!r} ({sorted(fields)})"
        )

    def submitted(component: dict[str, Any]) -> dict[str, Any]:
        custom_id = component["custom_id"]
        if component["type"] == 4:
            text = values.get(custom_id, "")
            if not isinstance(text, str):
                raise InteractionError(f"text field {custom_id!r} needs a str, got {text!r}")
            if component.get("required", True) and not text:
                raise InteractionError(f"text field {custom_id!r} is required")
            if not component.get("min_length", 0) <= len(text) <= component.get("max_length", 4000):
                raise InteractionError(f"text field {custom_id!r}: length {len(text)} is out of range")
            return {"type": 4, "custom_id": custom_id, "value": text}
        return {
            "type": component["type"],
            "custom_id": custom_id,
            "values": list(values.get(custom_id, [])),
        }

    rows: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        if top["type"] == 1:
            inner = [submitted(c) for c in top.get("components", []) if "custom_id" in c]
            rows.append({"type": 1, "components": inner})
        elif top["type"] == 18 and "custom_id" in top.get("component", {}):
            rows.append({"type": 18, "component": submitted(top["component"])})
    return {"custom_id": modal["custom_id"], "components": rows}
