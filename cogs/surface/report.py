"""Format a Surface Combat report (the resolver's data) as lines, pages and an embed a player can check.

Every roll of the engagement is in the log: each unit's initiative roll, the target priorities a lottery
draws from, the lottery roll, the extra-hit and deflection rolls, morale, rally and escape rolls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import discord

from cogs.common.embeds import INFO, safe
from rules.battle import Battle
from rules.systems.surface.details import Fate, SurfaceReport
from rules.systems.surface.rounds import Action, Chance, MoraleCheck, Priority, Round

PAGE_CHARS = 3800  # under the 4,096 of an embed description, with room for the title and footer
FIELD_CHARS = 1024
ITEMS_PER_LINE = 12  # 64-character names, escaped: a line of them stays well under a page
ROLLS_SHOWN = 8
PAGED_MAX = 4
_PAGED: list[tuple[SurfaceReport, list[str]]] = []
TITLE_CHARS = 256
# A routed unit's fate is its rally roll's: the words say both, so each unit is counted once.
FATE_WORDS = {"destroyed": "destroyed", "rallies": "routed and rallied", "disintegrates": "routed and disintegrated",
              "escapes": "escaped", "lost": "lost fleeing", "disappears": "vanished", "fought on": "fought on"}
ROUT_FATES = frozenset({"rallies", "disintegrates"})


def _name(report: SurfaceReport, uid: str) -> str:
    """Return a unit's name as the report recorded it (names may change later), markdown defused."""
    fate = report.units.get(uid)
    return safe(fate.name if fate is not None else uid)


def _chance(row: Chance) -> str:
    if row.roll is None:
        return "certain" if row.success else "impossible"
    return f"d{row.die} {row.roll} vs {row.needed}"


def _morale(check: MoraleCheck) -> str:
    return f"morale d{check.die} {check.roll} vs {check.morale} (+{check.stay_band} stays): {check.result}"


def _through(rolls: Sequence[Chance]) -> str:
    """List each hit's deflection roll; past a few, count them (every roll stays in the order's dice)."""
    if not rolls:
        return "none"
    if len(rolls) <= ROLLS_SHOWN:
        return ", ".join(_chance(d) for d in rolls)
    got = sum(1 for d in rolls if d.success)
    first = rolls[0]
    each = f"each d{first.die} \u2264 {first.needed}" if first.roll is not None else _chance(first)
    return f"{got} of {len(rolls)} ({each})"


def action_line(act: Action, report: SurfaceReport) -> str:
    """Describe one unit's turn of a round: morale, the lottery, hits, deflections, damage."""
    who = f"**{_name(report, act.unit)}**"
    if act.skipped is not None:
        return f"{who} is {act.skipped} and loses its turn"
    parts: list[str] = []
    if act.morale is not None:
        parts.append(_morale(act.morale))
        if act.target is None:
            return f"{who} " + "; ".join(parts)
    if act.no_target:
        return f"{who} " + "; ".join([*parts, "has no target left"])
    lot, hits, res = act.lottery, act.hits, act.result
    if act.target is None or lot is None or hits is None or res is None:
        return f"{who} " + "; ".join([*parts, "does not fire"])
    drawn = f"lottery d{lot.balls}: {lot.roll}" if lot.roll is not None else "the only target"
    extra = f" + {_chance(hits.extra)}" if hits.extra.roll is not None else ""
    through = _through(act.through or ())
    parts.append(f"fires at **{_name(report, act.target)}** ({drawn}); "
                 f"hits {hits.hits} (Acc/Eva {hits.q}{extra}); through: {through}; "
                 f"damage {res.damage} \u2192 {res.after}")
    return f"{who} " + "; ".join(parts)


def _priority(entry: Priority) -> str:
    """Return a TPV with its sum, like `18 = (2+4)\u00d73`."""
    adds = [line.add for line in entry.lines if line.add is not None]
    times = [line.times for line in entry.lines if line.times is not None]
    if len(adds) == 1 and not times:
        return str(entry.tpv)
    body = "+".join(str(a) for a in adds)
    body = f"({body})" if times and len(adds) > 1 else body
    return f"{entry.tpv} = {body}" + "".join(f"\u00d7{t}" for t in times)


def round_lines(rnd: Round, report: SurfaceReport, before: Mapping[str, Priority]) -> list[str]:
    """Return one round: the initiative rolls, the priorities that changed, then each unit's action."""
    order = [f"{_name(report, r.unit)} {r.aiv} ({r.iv}+{r.roll})" for r in rnd.initiative]
    lines = _listing(f"__Round {rnd.round}__ \u00b7 AIV (IV+roll)", order)
    changed = [f"{_name(report, uid)} {_priority(e)}" for uid, e in rnd.tpv.items()
               if uid not in before or before[uid].tpv != e.tpv]
    lines += _listing("Target priority (balls)" if not before else "Target priority now", changed)
    lines += [f"- {action_line(a, report)}" for a in rnd.actions]
    return lines


def _listing(label: str, items: list[str]) -> list[str]:
    """Return `label: a, b, c` over as many lines as keep each well under a page (a big battle lists hundreds)."""
    out = []
    for start in range(0, len(items), ITEMS_PER_LINE):
        more = " (cont.)" if start else ""
        out.append(f"{label}{more}: " + ", ".join(items[start:start + ITEMS_PER_LINE]))
    return out


def report_lines(report: SurfaceReport) -> list[str]:
    """Return the round-by-round log as lines, every roll shown."""
    lines: list[str] = []
    before: dict[str, Priority] = {}
    for rnd in report.rounds:
        lines += round_lines(rnd, report, before)
        before = {**before, **rnd.tpv}
    for row in report.rally:
        if row.result != "recovers":
            lines.append(f"After the battle, **{_name(report, row.unit)}** {row.result} "
                         f"(d{row.die if row.die is not None else 10} {row.roll} vs Rally "
                         f"{row.rally if row.rally is not None else '?'})")
    for fled in report.escape:
        lines.append(f"Escape: **{_name(report, fled.unit)}** {fled.result}"
                     + (f" (d100 {fled.roll} vs {fled.needed})" if fled.roll is not None else ""))
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


def plan_words(report: SurfaceReport, side: str) -> str:
    """Describe the plan a side fought with, now that the battle is over and plans are revealed."""
    chosen = report.plans[side]
    parts = [f"intensity {chosen.intensity}", f"daring {chosen.daring}"]
    if chosen.dropped:
        parts.append(f"{len(chosen.dropped)} dropped from transports")
    if chosen.besieged:
        parts.append("besieged")
    how = report.fallback.get(side)
    source = {"default": "No plan, so the default plan", "standing": "No plan, so last turn's plan"}.get(how or "", "Plan")
    return f"{source}: {', '.join(parts)}"


def fate_words(fates: Iterable[Fate], side: str) -> str:
    """Count what became of a side's units, each once: fought on, destroyed, routed and rallied, escaped..."""
    units = [u for u in fates if u.side == side]
    counts = Counter(u.fate for u in units)
    parts = [f"{n} {FATE_WORDS.get(fate, fate)}" for fate, n in counts.items()]
    # A unit that routed and then fled or was lost says so after its fate; one that rallied or fell apart
    # already has it in its words.
    routed = sum(1 for u in units if u.routed and u.fate not in ROUT_FATES)
    if routed:
        parts.append(f"{routed} of them routed first")
    return ", ".join(parts)


def summary_fields(report: SurfaceReport) -> list[tuple[str, str]]:
    """Return the summary: each side's result, losses, units' fates, retreat and plan, and the collateral."""
    fields: list[tuple[str, str]] = []
    for side in report.sides:
        level = report.verdict.levels[side]
        lost = report.lost_points[side]
        cap = report.capacity[side]
        steps = report.retreat[side]
        text = f"**{level.title()}** \u00b7 lost {lost}/{cap} damage points"
        if steps:
            text += f" \u00b7 cedes {steps} territory step{'s' if steps != 1 else ''}"
        fates = fate_words(report.units.values(), side)
        if fates:
            text += f"\nUnits: {fates}"
        text += f"\n{plan_words(report, side)}"
        fields.append((safe(side)[:TITLE_CHARS], text[:FIELD_CHARS]))
    coll = ", ".join(f"{safe(k)} {v}" for k, v in report.collateral.items() if v) or "none"
    fields.append(("Collateral damage", f"{report.collateral_count} points: {coll}"[:FIELD_CHARS]))
    fields.append(("Rounds", f"{report.rounds_fought} fought of {report.rounds_planned} planned"))
    return fields


def pages_of(report: SurfaceReport) -> list[str]:
    """Return the log's pages, worked out once per report (a long engagement has thousands of lines)."""
    for seen, pages in _PAGED:
        if seen is report:
            return pages
    pages = paginate(report_lines(report))
    _PAGED.append((report, pages))
    del _PAGED[:-PAGED_MAX]
    return pages


def page_count(report: SurfaceReport) -> int:
    """Return how many pages the round-by-round log fills."""
    return len(pages_of(report))


def report_embed(battle: Battle, report: SurfaceReport, page: int) -> discord.Embed:
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
