"""Format a Surface Combat report (the resolver's data) as lines and pages a player can check."""

from __future__ import annotations

from typing import Any

PAGE_CHARS = 3800  # under the 4,096 of an embed description, with room for the title and footer


def _name(names: dict[str, str], uid: str) -> str:
    return names.get(uid, uid)


def _chance(row: dict[str, Any]) -> str:
    if row["roll"] is None:
        return "certain" if row["success"] else "impossible"
    return f"d{row['die']} {row['roll']} vs {row['needed']}"


def action_line(act: dict[str, Any], names: dict[str, str]) -> str:
    """Describe one unit's turn of a round: morale, the lottery, hits, deflections, damage."""
    who = f"**{_name(names, act['unit'])}**"
    if "skipped" in act:
        return f"{who} is {act['skipped']} and loses its turn"
    parts: list[str] = []
    if "morale" in act:
        parts.append(f"morale check: {act['morale']}")
        if "target" not in act:
            return f"{who} " + "; ".join(parts)
    if act.get("no_target"):
        return f"{who} has no target left"
    lot = act["lottery"]
    hits = act["hits"]
    extra = f" + {_chance(hits['extra'])}" if hits["extra"]["roll"] is not None else ""
    through = ", ".join(_chance(d) for d in act["through"]) or "none"
    res = act["result"]
    parts.append(f"fires at **{_name(names, act['target'])}** (lottery d{lot['balls']}: {lot['roll']}); "
                 f"hits {hits['hits']} (q {hits['q']}{extra}); through: {through}; "
                 f"damage {res['damage']} -> {res['after']}")
    return f"{who} " + "; ".join(parts)


def report_lines(report: dict[str, Any], names: dict[str, str]) -> list[str]:
    """Return the round-by-round log as lines, every roll shown."""
    lines: list[str] = []
    for rnd in report["log"]:
        order = ", ".join(f"{_name(names, r['unit'])} {r['aiv']}" for r in rnd["initiative"])
        lines.append(f"__Round {rnd['round']}__ · AIV: {order}")
        lines += [f"- {action_line(a, names)}" for a in rnd["actions"]]
    for row in report["rally"]:
        if row["result"] != "recovers":
            lines.append(f"After the battle, **{_name(names, row['unit'])}** {row['result']} (d10 {row['roll']})")
    for row in report["escape"]:
        lines.append(f"Escape: **{_name(names, row['unit'])}** {row['result']}"
                     + (f" (d100 {row['roll']} vs {row['needed']})" if "roll" in row else ""))
    return lines


def paginate(lines: list[str], limit: int = PAGE_CHARS) -> list[str]:
    """Split lines into pages of at most `limit` characters (a long line is cut)."""
    pages: list[str] = []
    current = ""
    for line in (ln[:limit] for ln in lines):
        if current and len(current) + 1 + len(line) > limit:
            pages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        pages.append(current)
    return pages or ["(no rounds were fought)"]


def summary_fields(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Return the summary: each side's result, losses, retreat, and the collateral damage."""
    fields: list[tuple[str, str]] = []
    for side in report["sides"]:
        level = report["verdict"]["levels"][side]
        lost = report["lost_points"][side]
        cap = report["capacity"][side]
        steps = report["retreat"][side]
        text = f"**{level.title()}** · lost {lost}/{cap} damage points"
        if steps:
            text += f" · cedes {steps} territory step{'s' if steps != 1 else ''}"
        fields.append((side[:256], text[:1024]))
    coll = ", ".join(f"{k} {v}" for k, v in report["collateral"].items() if v) or "none"
    fields.append(("Collateral damage", f"{report['collateral_count']} points: {coll}"[:1024]))
    fields.append(("Rounds", f"{report['rounds_fought']} fought of {report['rounds_planned']} planned"))
    return fields
