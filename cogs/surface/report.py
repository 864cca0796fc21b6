"""Format a Surface Combat report (the resolver's data) as lines, pages and an embed a player can check.

Every roll of the engagement is in the log: each unit's initiative roll, the target priorities a lottery
draws from, the lottery roll, the extra-hit and deflection rolls, morale, rally and escape rolls.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord

from cogs.common.embeds import INFO, safe
from rules.battle import Battle

PAGE_CHARS = 3800  # under the 4,096 of an embed description, with room for the title and footer
FIELD_CHARS = 1024
ITEMS_PER_LINE = 12  # 64-character names, escaped: a line of them stays well under a page
ROLLS_SHOWN = 8
PAGED_MAX = 4
_PAGED: list[tuple[dict[str, Any], list[str]]] = []
TITLE_CHARS = 256
# A routed unit's fate is its rally roll's: the words say both, so each unit is counted once.
FATE_WORDS = {"destroyed": "destroyed", "rallies": "routed and rallied", "disintegrates": "routed and disintegrated",
              "escapes": "escaped", "lost": "lost fleeing", "disappears": "vanished", "fought on": "fought on"}
ROUT_FATES = frozenset({"rallies", "disintegrates"})


def _name(report: dict[str, Any], uid: str) -> str:
    """Return a unit's name as the report recorded it (names may change later), markdown defused."""
    return safe(report.get("units", {}).get(uid, {}).get("name", uid))


def _chance(row: dict[str, Any]) -> str:
    if row["roll"] is None:
        return "certain" if row["success"] else "impossible"
    return f"d{row['die']} {row['roll']} vs {row['needed']}"


def _morale(check: dict[str, Any]) -> str:
    return (f"morale d{check['die']} {check['roll']} vs {check['morale']} "
            f"(+{check['stay_band']} stays): {check['result']}")


def _through(rolls: list[dict[str, Any]]) -> str:
    """List each hit's deflection roll; past a few, count them (every roll stays in the order's dice)."""
    if not rolls:
        return "none"
    if len(rolls) <= ROLLS_SHOWN:
        return ", ".join(_chance(d) for d in rolls)
    got = sum(1 for d in rolls if d["success"])
    first = rolls[0]
    each = f"each d{first['die']} \u2264 {first['needed']}" if first["roll"] is not None else _chance(first)
    return f"{got} of {len(rolls)} ({each})"


def action_line(act: dict[str, Any], report: dict[str, Any]) -> str:
    """Describe one unit's turn of a round: morale, the lottery, hits, deflections, damage."""
    who = f"**{_name(report, act['unit'])}**"
    if "skipped" in act:
        return f"{who} is {act['skipped']} and loses its turn"
    parts: list[str] = []
    if "morale" in act:
        parts.append(_morale(act["morale"]))
        if "target" not in act:
            return f"{who} " + "; ".join(parts)
    if act.get("no_target"):
        return f"{who} " + "; ".join([*parts, "has no target left"])
    lot = act["lottery"]
    drawn = f"lottery d{lot['balls']}: {lot['roll']}" if lot["roll"] is not None else "the only target"
    hits = act["hits"]
    extra = f" + {_chance(hits['extra'])}" if hits["extra"]["roll"] is not None else ""
    through = _through(act["through"])
    res = act["result"]
    parts.append(f"fires at **{_name(report, act['target'])}** ({drawn}); "
                 f"hits {hits['hits']} (Acc/Eva {hits['q']}{extra}); through: {through}; "
                 f"damage {res['damage']} \u2192 {res['after']}")
    return f"{who} " + "; ".join(parts)


def _priority(entry: dict[str, Any]) -> str:
    """Return a TPV with its sum, like `18 = (2+4)\u00d73`."""
    adds = [int(line["add"]) for line in entry["lines"] if "add" in line]
    times = [int(line["times"]) for line in entry["lines"] if "times" in line]
    if len(adds) == 1 and not times:
        return str(entry["tpv"])
    body = "+".join(str(a) for a in adds)
    body = f"({body})" if times and len(adds) > 1 else body
    return f"{entry['tpv']} = {body}" + "".join(f"\u00d7{t}" for t in times)


def round_lines(rnd: dict[str, Any], report: dict[str, Any], before: dict[str, Any]) -> list[str]:
    """Return one round: the initiative rolls, the priorities that changed, then each unit's action."""
    order = [f"{_name(report, r['unit'])} {r['aiv']} ({r['iv']}+{r['roll']})" for r in rnd["initiative"]]
    lines = _listing(f"__Round {rnd['round']}__ \u00b7 AIV (IV+roll)", order)
    changed = [f"{_name(report, uid)} {_priority(e)}" for uid, e in rnd.get("tpv", {}).items()
               if before.get(uid, {}).get("tpv") != e["tpv"]]
    lines += _listing("Target priority (balls)" if not before else "Target priority now", changed)
    lines += [f"- {action_line(a, report)}" for a in rnd["actions"]]
    return lines


def _listing(label: str, items: list[str]) -> list[str]:
    """Return `label: a, b, c` over as many lines as keep each well under a page (a big battle lists hundreds)."""
    out = []
    for start in range(0, len(items), ITEMS_PER_LINE):
        more = " (cont.)" if start else ""
        out.append(f"{label}{more}: " + ", ".join(items[start:start + ITEMS_PER_LINE]))
    return out


def report_lines(report: dict[str, Any]) -> list[str]:
    """Return the round-by-round log as lines, every roll shown."""
    lines: list[str] = []
    before: dict[str, Any] = {}
    for rnd in report["log"]:
        lines += round_lines(rnd, report, before)
        before = {**before, **rnd.get("tpv", {})}
    for row in report["rally"]:
        if row["result"] != "recovers":
            lines.append(f"After the battle, **{_name(report, row['unit'])}** {row['result']} "
                         f"(d{row.get('die', 10)} {row['roll']} vs Rally {row.get('rally', '?')})")
    for row in report["escape"]:
        lines.append(f"Escape: **{_name(report, row['unit'])}** {row['result']}"
                     + (f" (d100 {row['roll']} vs {row['needed']})" if "roll" in row else ""))
    return lines


def paginate(lines: list[str], limit: int = PAGE_CHARS) -> list[str]:
    """Split lines into pages of at most `limit` characters (a longer line is cut with an ellipsis)."""
    pages: list[str] = []
    current = ""
    for line in (ln if len(ln) <= limit else ln[: limit - 1] + "\u2026" for ln in lines):
        if current and len(current) + 1 + len(line) > limit:
            pages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        pages.append(current)
    return pages or ["(no rounds were fought)"]


def plan_words(report: dict[str, Any], side: str) -> str:
    """Describe the plan a side fought with, now that the battle is over and plans are revealed."""
    chosen = report["plans"][side]
    parts = [f"intensity {chosen['intensity']}", f"daring {chosen['daring']}"]
    if chosen["dropped"]:
        parts.append(f"{len(chosen['dropped'])} dropped from transports")
    if chosen["besieged"]:
        parts.append("besieged")
    how = report.get("fallback", {}).get(side)
    source = {"default": "No plan, so the default plan", "standing": "No plan, so last turn's plan"}.get(how or "", "Plan")
    return f"{source}: {', '.join(parts)}"


def fate_words(report: dict[str, Any], side: str) -> str:
    """Count what became of a side's units, each once: fought on, destroyed, routed and rallied, escaped..."""
    units = [u for u in report.get("units", {}).values() if u["side"] == side]
    counts = Counter(u["fate"] for u in units)
    parts = [f"{n} {FATE_WORDS.get(fate, fate)}" for fate, n in counts.items()]
    # A unit that routed and then fled or was lost says so after its fate; one that rallied or fell apart
    # already has it in its words.
    routed = sum(1 for u in units if u["routed"] and u["fate"] not in ROUT_FATES)
    if routed:
        parts.append(f"{routed} of them routed first")
    return ", ".join(parts)


def summary_fields(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Return the summary: each side's result, losses, units' fates, retreat and plan, and the collateral."""
    fields: list[tuple[str, str]] = []
    for side in report["sides"]:
        level = report["verdict"]["levels"][side]
        lost = report["lost_points"][side]
        cap = report["capacity"][side]
        steps = report["retreat"][side]
        text = f"**{level.title()}** \u00b7 lost {lost}/{cap} damage points"
        if steps:
            text += f" \u00b7 cedes {steps} territory step{'s' if steps != 1 else ''}"
        fates = fate_words(report, side)
        if fates:
            text += f"\nUnits: {fates}"
        text += f"\n{plan_words(report, side)}"
        fields.append((safe(side)[:TITLE_CHARS], text[:FIELD_CHARS]))
    coll = ", ".join(f"{safe(k)} {v}" for k, v in report["collateral"].items() if v) or "none"
    fields.append(("Collateral damage", f"{report['collateral_count']} points: {coll}"[:FIELD_CHARS]))
    fields.append(("Rounds", f"{report['rounds_fought']} fought of {report['rounds_planned']} planned"))
    return fields


def pages_of(report: dict[str, Any]) -> list[str]:
    """Return the log's pages, worked out once per report (a long engagement has thousands of lines)."""
    for seen, pages in _PAGED:
        if seen is report:
            return pages
    pages = paginate(report_lines(report))
    _PAGED.append((report, pages))
    del _PAGED[:-PAGED_MAX]
    return pages


def page_count(report: dict[str, Any]) -> int:
    """Return how many pages the round-by-round log fills."""
    return len(pages_of(report))


def report_embed(battle: Battle, report: dict[str, Any], page: int) -> discord.Embed:
    """Return the summary embed with one page of the round-by-round log (the page is clamped to those there are)."""
    pages = pages_of(report)
    missing = f" \u00b7 there is no page {page}" if page > len(pages) else ""
    page = max(1, min(page, len(pages)))
    embed = discord.Embed(title=f"Surface Combat: {safe(battle.name)}"[:TITLE_CHARS], colour=INFO,
                          description=pages[page - 1])
    for name, value in summary_fields(report):
        embed.add_field(name=name, value=value, inline=False)
    more = " \u00b7 /surface report page:N or the buttons for more" if len(pages) > 1 else ""
    embed.set_footer(text=f"Log page {page}/{len(pages)}{missing}{more}")
    return embed
