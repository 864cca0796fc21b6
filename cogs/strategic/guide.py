"""Strategic Combat's part of /help: how a GM sets its battle up, and its players' commands."""

GM_TITLE = "Strategic Combat: set up a battle"
GM_GUIDE = (
    # The steps between /battle new and /battle start, and the GM's own overrides.
    "1. `/battle new name:… ruleset:strategic-e width:30 height:20` here (or `thread:True`).\n"
    "2. Lay out the ground: `/map paint terrain:forest from:C3 to:F8`, `/map generate style:river-valley seed:7`, "
    "or `/map import` a text grid, a Tiled map or a colour picture with its legend.\n"
    "3. Add units: `/unit add name:Eva-01 side:NERV at:E5 owner:@player ag:45`, or `/unit import` a stat-block file.\n"
    "4. P-Scale: sides buy features with `/feature place`; check everything with `/battle info` and `/map show full:True`.\n"
    "5. `/battle start`. `/gm move`, `/gm edit`, `/gm set` and `/gm freeze` override the rules mid-battle; "
    "`/battle rules import` brings in homebrew terrain and features (a TOML table)."
)
PLAYER_TITLE = "Strategic Combat players"
PLAYER_GUIDE = (
    "`/move unit:… to:E5 mode:full` moves along the cheapest legal path; leave out `to` to see your reach.\n"
    "`/attack unit:… weapon:… target:…` shoots or strikes with the full breakdown; `/range` previews a shot.\n"
    "`/charge unit:… target:…` moves up to AB×1.5 into reach and strikes in melee, one Full action.\n"
    "`/aim`, `/hide`, `/maneuver`, `/defend`, `/act` (a test), `/extinguish`, `/trap`; "
    "`/map show range:… weapon:…` draws a weapon's range bands."
)
