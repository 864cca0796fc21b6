"""The HTML pages: a battle's page around its frame, the index, and the short pages of refusals."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.webfront import GM_AUDIENCE, Access
from web.frame import Frame, text

HEAD = ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">'
        '<link rel="stylesheet" href="/static/view.css">')
NOT_FOUND = (f"{HEAD}<title>Not found</title></head><body><main class=\"short\"><h1>Not found</h1>"
             "<p>There is nothing at this address. A battle's links come from <code>/battle web links</code> on Discord; "
             "a GM may have replaced them.</p></main></body></html>")


def message_page(status: int, message: str) -> str:
    """Return a short page with a status and what to do."""
    return (f"{HEAD}<title>{status}</title></head><body><main class=\"short\"><h1>{status}</h1>"
            f"<p>{escape(message)}</p></main></body></html>")


def index_page() -> str:
    """Return the front page: what this is and where the links come from (no battle is listed)."""
    return (f"{HEAD}<title>battlepost</title></head><body><main class=\"short\"><h1>battlepost</h1>"
            "<p>The web view of battles played on Discord. Type <code>/battle web links</code> in a battle's channel for "
            "its links.</p></main></body></html>")


def audience_words(access: Access) -> str:
    """Say whose view a link opens."""
    if access.audience == GM_AUDIENCE:
        return "GM's view: everything, hidden units and rolls included"
    if access.side is not None:
        return f"{access.side}'s view: your side's hidden units and secrets included"
    return "Spectators' view"


def page_html(access: Access, frame: Frame, head: Any, token: str) -> str:
    """Return a battle's whole page; the script (served by us, no inline code) makes it move and stay live."""
    base = f"/b/{token}"
    since = ("" if head.since is None else
             f'<button type="button" id="since" data-step="{head.since}">Since my last turn</button>')
    return (
        f"{HEAD}<title>{escape(head.name)} \u00b7 battlepost</title><script src=\"/static/view.js\" defer></script>"
        f'</head><body data-frame="{base}/frame.json" data-events="{base}/events" data-steps="{frame.steps}" '
        f'data-version="{frame.data.get("version", 0)}">'
        '<a class="skip" href="#log-section">Skip to the log</a>'
        f'<header><h1>{text(head.name)}</h1><p class="meta">{text(head.ruleset)} \u00b7 {escape(audience_words(access))}'
        ' \u00b7 <span id="live-state" aria-live="polite">live</span></p>'
        f'<div id="status" aria-live="polite">{frame.status}</div></header>'
        '<main>'
        '<section id="board-section" aria-label="The battle">'
        f'<div id="board">{frame.board}</div>'
        '<div id="card-box" class="card-box" role="status" aria-live="polite" hidden></div>'
        '</section>'
        '<div class="side">'
        '<section id="replay" aria-label="Replay">'
        '<h2>Replay</h2>'
        '<div class="controls"><button type="button" id="first">\u00ab First</button>'
        '<button type="button" id="prev">\u25c0 Previous</button>'
        f'<input type="range" id="slider" min="0" max="{frame.steps}" value="{frame.step}" step="1" '
        'aria-label="Order of the battle to show">'
        '<button type="button" id="next">Next \u25b6</button><button type="button" id="now">Now \u00bb</button>'
        f"{since}</div>"
        f'<p id="step-label" aria-live="polite">Order {frame.step} of {frame.steps} (now)</p>'
        '<p class="help">\u2190 and \u2192 step through the orders.</p>'
        '</section>'
        f'<section id="log-section" aria-label="Log" tabindex="-1"><h2>Log</h2><div id="log">{frame.log}</div></section>'
        f'<section aria-label="Map as text"><details id="textmap-box" data-text="{base}/text"><summary>The map as text '
        '(for screen readers)</summary><div id="textmap" aria-live="polite"><p>Opening this reads the whole map as text.</p>'
        '</div></details></section>'
        f'<section aria-label="Rule constants"><details><summary>Rule constants</summary>{head.constants}</details>'
        '</section></div>'
        f'<div id="cards" hidden>{frame.cards}</div>'
        "</main></body></html>"
    )
