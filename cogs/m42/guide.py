"""M42's part of /help: how a GM lays out its ground and units, and its players' actions."""

GM_TITLE = "M42: leaders, models and Command Radius"
GM_GUIDE = (
    "Units of a leader and models, in inches: `/battle new name:… ruleset:m42 width:34 height:20` "
    "(1 square = 1 inch; `rules:\"inches_per_square=0.5\"` makes it half an inch, set before any unit). Paint "
    "woods, fields, "
    "marsh, rocky ground, hills, ruins, buildings and lava with `/map paint`; walls, hedges, fences, creeks and "
    "lava channels go on square sides: `/map edge edges:L1-L9:e obstacle:wall height:2` (over 3\" stops "
    "infantry; `opening:1` makes a door, `openable:False` keeps models outside). `/map road from:A15 to:Z15`, "
    "`/map floors from:AA12 to:AE17 floors:2`; or `/map import` a file with `[road]`, `[floors]` and `[edges]`. "
    "`/unit add name side at ld:3 models:5 [interlinked]` places the leader and the bot the models (or "
    "`/unit import`). Action distances and every ruling are in `/battle rules show`; `/battle rules import` "
    "adds actions of your own (`[[action]]` key, name, inches, assault; docs/homebrew.md)."
)
PLAYER_TITLE = "Players in M42"
PLAYER_GUIDE = (
    "M42: `/move unit:… to:J5 mode:advance` moves the leader (advance, shooting-advance 6\"; fall-back, "
    "at-the-double 12\"; assault), halved once through area terrain, over an obstacle or a wall without opening; "
    "+2\" along one road. `/action … floor:1 models:\"I5 J4^1\"` climbs and places models by hand; "
    "`/place unit models` re-places them; `/radius unit` shows where they may stand. The GM's own actions are "
    "offered beside these, with their distance. A refusal names the rule and shows the legal squares."
)
