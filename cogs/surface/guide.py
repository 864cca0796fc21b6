"""Surface Combat's part of /help: a battle of armies without a map, fought by secret plans."""

GM_TITLE = "Surface Combat (no map)"
GM_GUIDE = (
    "Army against army, no map: `/battle new name:… ruleset:surface` (no width or height), then "
    "`/surface add name side type [owner] [ratings] [flags]` per unit (Grunts, Space Marines, Mobile Infantry, "
    "Powered Armor, Armor, Battleoids, Rebels, Partisans, Special Forces) or `/surface import` a forces file, and "
    "`/surface side` for leaders. `/gm deadline` and `/gm policy` set the planning clock; `/battle start` opens "
    "the plans. Each side's player commits `/surface plan side intensity daring [dropped] [besieged]` in secret; "
    "the battle is fought when both are in or the deadline passes (wait: the GM decides; hold: missing plans "
    "take the default; default: last turn's plan), or at `/surface resolve force:True`. `/surface status` shows "
    "who has planned, `/surface report page` every roll, `/surface export` the survivors, "
    "`/surface next-turn` the next game turn, `/battle end` the end."
)
