"""Combat Action's part of /help: how a GM sets its battle up, and its players' activations."""

GM_TITLE = "Combat Action (squads, vehicles, robots): the GM"
GM_GUIDE = (
    "1. `/battle new name:… ruleset:combat-action width:20 height:16 rules:\"cm_per_square=5 large_scale=false "
    "speed_modifier=true\"`: distances are table cm, 5 cm a square unless you say.\n"
    "2. Cover and obstacles: `/map paint terrain:partial` (+2 PF), `slit` (+3), `rock`, `woods`, `concrete`...\n"
    "3. Units: `/unit import file:` a stat-block file (see `examples/combat-action/`: kind infantry, character, "
    "vehicle, robot or building; SS, PF, MV in cm, size, squad, weapons with class and Pen, locations, crew, "
    "capacity, `inside` a vehicle), or `/unit add … stats:\"kind=vehicle pf=6 mv=30 facing=N\"`.\n"
    "4. `/turn mode` (initiative, side or free), then `/battle start`. Pinned and Routing are yours to give: "
    "`/unit edit unit:… stats:\"statuses=pinned\"`.\n"
    "5. `/battle rules show` lists every ruling (A72-A88: AP per model, max bands, cover stacking, damage...) "
    "to change with `/battle rules set`; `/gm end` closes the battle with its casualties."
)
PLAYER_TITLE = "Combat Action players"
PLAYER_GUIDE = (
    "An activation: the Discipline Phase (`/ca activate`, or your first action opens it; a machine out of control "
    "acts by its table), 2 AP of actions, then `/turn end` (End Phase). `/ca options` or My options lists every "
    "action you can take with its AP.\n"
    "`/move unit to mode:walk` (1 AP, MV) or `charge` (2 AP). `/attack unit weapon target [mode]` or `/ca fire`: "
    "standard 1 AP; sniping, automatic, heavy 2 AP; a grenade is `/ca prime` then `mode:grenade`. Close combat in "
    "base contact (the same square): `/ca close-combat` (2 AP; `hatch:True` breaks jammed hatches).\n"
    "`/ca posture` (flat down, get up, aim), `/ca hatch`, `/ca embark`, `/ca disembark`, `/ca reload`, "
    "`/ca unjam`, `/ca action` (hide, jump, climb, impart an order, open a door, pilot, control a robot)."
)
