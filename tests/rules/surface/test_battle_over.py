"""When a Surface battle is over: "If one side has all its units either routed or eliminated, it loses the
battle (big time)." (002 step 5, RULES.md 3.3)"""

from __future__ import annotations

from rules.systems.surface.victory import battle_over
from tests.rules.surface.helpers import add, battle, give


def test_sturdy_forces_fight_on_and_a_force_wiped_out_has_lost() -> None:
    b = battle()
    # Units that cannot hurt each other: after the engagement, both forces stand.
    for side in ("Red", "Blue"):
        add(b, f"{side}0", side, accuracy=1, evade=4, attack_strength=0, armor=5)
    give(b, "start")
    give(b, "surface-plan side:Red intensity:0")
    assert battle_over(b) is None, "no verdict while the plans are being made"
    give(b, "surface-plan side:Blue intensity:0")
    give(b, "surface-resolve")
    assert battle_over(b) is None, "both forces stand: another game turn may be fought"


def test_a_force_without_a_unit_standing_after_the_engagement_has_lost() -> None:
    b = battle()
    add(b, "Hammer", "Red", "battleoids", accuracy=9, attack_strength=9)
    add(b, "Cell 7", "Blue", "rebels", capacity=1, evade=0, armor=0, morale=0, rally=0)
    give(b, "start")
    give(b, "surface-plan side:Red intensity:2")
    give(b, "surface-plan side:Blue intensity:2")
    report = give(b, "surface-resolve").details
    assert report.units[b.unit("Cell 7").id].fate in ("destroyed", "disintegrates")
    verdict = battle_over(b)
    assert verdict is not None and verdict.standing == ("Red",)
    assert "Blue has no unit left in the fight" in verdict.reason and "Blue: decisive defeat" in verdict.reason
    assert b.system.verdict(b) == verdict, "the system answers with its own rule"


def test_a_force_emptied_while_the_plans_are_made_has_lost_too() -> None:
    b = battle()
    add(b, "Hammer", "Red")
    add(b, "Cell 7", "Blue")
    give(b, "start")
    assert battle_over(b) is None
    give(b, "remove-unit unit:'Cell 7'")
    verdict = battle_over(b)
    assert verdict is not None and verdict.standing == ("Red",) and "Game turn" not in verdict.reason
