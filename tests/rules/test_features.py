"""Artificial features: feature point pools, placement and its refusals, removal and refunds, hidden traps."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, InvalidOrderError, NotFoundError
from rules.orders import Order, Paint, SetRule
from rules.systems.strategic.actions.features import PlaceFeature, RemoveFeature, SetFp
from rules.systems.strategic.features import fp_pool, fp_status, visible_features
from tests.rules.conftest import add, dice, start


def cells(*names: str) -> tuple[Cell, ...]:
    """Parse cell names."""
    return tuple(Cell.parse(n) for n in names)


def place(battle: Battle, feature: str, side: str, at: str, *more: str) -> None:
    """Place a feature purchase."""
    battle.apply(PlaceFeature(feature=feature, side=side, at=Cell.parse(at), cells=cells(*more)), dice())


def refused(battle: Battle, order: Order, error: type[GameError], fragment: str) -> None:
    """Check an order is refused with a message and changes nothing."""
    before = battle.to_dict()
    with pytest.raises(error, match=fragment):
        battle.apply(order, dice())
    assert battle.to_dict() == before


@pytest.fixture
def p(battle_p: Battle) -> Battle:
    """A P-scale battle whose side Red has a Supreme Commander with Int 45 (IB 4: 8 FP) and Blue has none."""
    add(battle_p, "Commander", "Red", "T15", int=45, supreme_commander=True)
    add(battle_p, "Grunt", "Blue", "S15", int=60)
    return battle_p


# --- the pool: "Each side gets a pool of feature points, which usually equal the Supreme Commander's
#     IB*2. However, this can be modified up or down depending on the Mission" (000:L78, A28) --------


def test_pool_is_twice_the_supreme_commanders_ib(p: Battle) -> None:
    assert fp_status(p) == {"Red": {"pool": 8, "spent": 0, "left": 8}, "Blue": {"pool": 0, "spent": 0, "left": 0}}


def test_unnatural_intelligence_raises_ib(p: Battle) -> None:
    add(p, "Genius", "Green", "R15", int=45, unnatural={"int": 2}, supreme_commander=True)
    assert fp_pool(p, p.ensure_side("Green")) == 16


def test_set_fp_adjusts_or_overrides_the_pool(p: Battle) -> None:
    p.apply(SetFp(side="Red", adjust=3), dice())
    assert fp_status(p)["Red"]["pool"] == 11
    p.apply(SetFp(side="red", value=5), dice())
    assert fp_status(p)["Red"]["pool"] == 5
    p.apply(SetFp(side="Red", adjust=-20), dice())
    assert fp_status(p)["Red"]["pool"] == 0  # floored at 0
    p.apply(SetFp(side="Blue", value=0), dice())  # "some Missions might remove a side's ability to lay Features"
    assert fp_status(p)["Blue"]["pool"] == 0


def test_set_fp_refusals(p: Battle) -> None:
    refused(p, SetFp(side="Green", value=3), NotFoundError, "no side `Green`.*Red, Blue")
    refused(p, SetFp(side="Red", value=5000), InvalidOrderError, "0 to 1000")
    refused(p, SetFp(side="Red", adjust=-5000), InvalidOrderError, "-1000")
    start(p)
    refused(p, SetFp(side="Red", value=3), IllegalOrderError, "before the battle begins")


# --- placing -----------------------------------------------------------------------------------


def test_place_a_minefield(p: Battle) -> None:
    out = p.apply(PlaceFeature(feature="Minefield", side="Red", at=Cell.parse("C3")), dice())
    state = p.square_state(Cell.parse("C3"))
    assert state["feature"] == "minefield" and state["feature_side"] == "Red" and state["mine_triggers"] == 5
    assert fp_status(p)["Red"] == {"pool": 8, "spent": 3, "left": 5}
    assert out.effects[0].kind == "feature_placed" and not out.hidden


def test_barrier_walls_lay_three_squares_for_one_cost(p: Battle) -> None:
    """000:L108 "May lay down 3 squares of Barrier Walls" with 16 Cover AP; A27 one purchase, up to 3 squares."""
    place(p, "barrier walls", "Red", "C3", "D3", "E3")
    for name in ("C3", "D3", "E3"):
        state = p.square_state(Cell.parse(name))
        assert state["feature"] == "barrier_walls" and state["feature_ap"] == 16
    assert fp_status(p)["Red"]["spent"] == 2
    place(p, "trench", "Red", "C5")  # fewer than 3 is allowed (A27)
    assert fp_status(p)["Red"]["spent"] == 4


def test_over_budget_is_refused(p: Battle) -> None:
    place(p, "minefield", "Red", "C3")
    place(p, "minefield", "Red", "C4")
    refused(p, PlaceFeature(feature="minefield", side="Red", at=Cell.parse("C5")), IllegalOrderError,
            r"costs 3 FP, but Red has 2 FP left \(pool 8, spent 6\)")
    refused(p, PlaceFeature(feature="trench", side="Blue", at=Cell.parse("C6")), IllegalOrderError, "Blue has 0 FP left")


def test_wrong_terrain_is_refused(p: Battle) -> None:
    """000:L99 the Terrain column gives the allowed base terrains."""
    p.apply(Paint(terrain="rough", frm=Cell.parse("C3")), dice())
    refused(p, PlaceFeature(feature="minefield", side="Red", at=Cell.parse("C3")), IllegalOrderError,
            "C3 is Rough, but a Minefield stands only on Plain, Forest, Urban \\(Tech\\) or Water")
    refused(p, PlaceFeature(feature="trench", side="Red", at=Cell.parse("C3")), IllegalOrderError,
            "only on Plain")


def test_tech_is_urban(p: Battle) -> None:
    """A26: Tech = Urban, so a Bakelite Trap (Tech) goes on Urban."""
    p.apply(Paint(terrain="urban", frm=Cell.parse("C3")), dice())
    place(p, "bakelite trap", "Red", "C3")
    refused(p, PlaceFeature(feature="bakelite trap", side="Red", at=Cell.parse("D3")), IllegalOrderError,
            r"only on Urban \(Tech\)")


def test_second_feature_on_a_square_is_refused(p: Battle) -> None:
    """000:L80 "No Terrain square may have more than one Feature"."""
    place(p, "trench", "Red", "C3")
    refused(p, PlaceFeature(feature="minefield", side="Red", at=Cell.parse("C3")), IllegalOrderError,
            "C3 already holds a feature, and no square may have more than one")


def test_one_bad_square_refuses_the_whole_purchase(p: Battle) -> None:
    """A27: each square is validated on its own, and nothing is laid unless all are good."""
    p.apply(Paint(terrain="water", frm=Cell.parse("E3")), dice())
    refused(p, PlaceFeature(feature="barrier walls", side="Red", at=Cell.parse("C3"), cells=cells("D3", "E3")),
            IllegalOrderError, "E3 is Water")
    refused(p, PlaceFeature(feature="barrier walls", side="Red", at=Cell.parse("C3"), cells=cells("D3", "Z99")),
            IllegalOrderError, "off the map")


def test_too_many_or_repeated_squares_are_refused(p: Battle) -> None:
    refused(p, PlaceFeature(feature="trench", side="Red", at=Cell.parse("C3"), cells=cells("D3", "E3", "F3")),
            InvalidOrderError, "up to 3 squares; you gave 4")
    refused(p, PlaceFeature(feature="minefield", side="Red", at=Cell.parse("C3"), cells=cells("D3")),
            InvalidOrderError, "one square")
    refused(p, PlaceFeature(feature="trench", side="Red", at=Cell.parse("C3"), cells=cells("C3")),
            InvalidOrderError, "listed twice")


@pytest.mark.constant("feature_squares_contiguous")
def test_contiguous_squares_when_the_gm_asks(p: Battle) -> None:
    """A27: contiguity is not required, but a GM flag may require it."""
    place(p, "trench", "Red", "C3", "H9")
    p.apply(SetRule(key="feature_squares_contiguous", value="true"), dice())
    refused(p, PlaceFeature(feature="trench", side="Red", at=Cell.parse("C5"), cells=cells("C7")),
            IllegalOrderError, "must touch")
    place(p, "trench", "Red", "C5", "D6", "E5")


def test_features_only_before_the_battle(p: Battle) -> None:
    """000:L77 "Features ... are chosen and placed before the battle begins"."""
    start(p)
    refused(p, PlaceFeature(feature="trench", side="Red", at=Cell.parse("C3")), IllegalOrderError,
            "before the battle begins; this battle is already active")


def test_e_scale_has_no_features(battle_e: Battle) -> None:
    add(battle_e, "Eva", "NERV", "A1", int=60, supreme_commander=True)
    refused(battle_e, PlaceFeature(feature="minefield", side="NERV", at=Cell.parse("C3")), IllegalOrderError,
            "no artificial features")
    refused(battle_e, SetFp(side="NERV", value=4), IllegalOrderError, "only P-Scale")


def test_unknown_feature_and_side(p: Battle) -> None:
    refused(p, PlaceFeature(feature="moat", side="Red", at=Cell.parse("C3")), GameError, "`minefield`")
    refused(p, PlaceFeature(feature="trench", side="Purple", at=Cell.parse("C3")), NotFoundError, "no side")


def test_paint_under_a_feature_must_suit_it(p: Battle) -> None:
    place(p, "trench", "Red", "C3")
    refused(p, Paint(terrain="water", frm=Cell.parse("C3")), IllegalOrderError, "holds a Trench")


# --- removing and refunds ----------------------------------------------------------------------


def test_removing_the_whole_purchase_in_setup_refunds_it(p: Battle) -> None:
    place(p, "barrier walls", "Red", "C3", "D3")
    out = p.apply(RemoveFeature(at=Cell.parse("C3")), dice())
    assert out.details.refund == 0 and fp_status(p)["Red"]["spent"] == 2
    out = p.apply(RemoveFeature(at=Cell.parse("D3")), dice())
    assert out.details.refund == 2 and fp_status(p)["Red"]["spent"] == 0
    assert "C3" not in p.cells and "D3" not in p.cells


def test_removing_during_the_battle_refunds_nothing(p: Battle) -> None:
    """A28: unspent FP are lost at battle start, so a removal in play gives nothing back."""
    place(p, "minefield", "Red", "C3")
    start(p)
    out = p.apply(RemoveFeature(at=Cell.parse("C3")), dice())
    assert out.details.refund == 0 and fp_status(p)["Red"]["spent"] == 3


def test_removing_nothing_is_refused(p: Battle) -> None:
    refused(p, RemoveFeature(at=Cell.parse("C3")), IllegalOrderError, "no feature on C3")


# --- hidden traps (A28, A29) -------------------------------------------------------------------------


def test_traps_are_seen_by_their_side_the_gm_and_detectors(p: Battle) -> None:
    p.apply(Paint(terrain="forest", frm=Cell.parse("C3")), dice())
    out = p.apply(PlaceFeature(feature="fire trap", side="Red", at=Cell.parse("C3")), dice())
    place(p, "minefield", "Red", "D3")
    assert out.hidden  # the placement is not announced to the table
    assert [f.key for f in visible_features(p, {"Red"}, gm=False)] == ["fire_trap", "minefield"]
    assert [f.key for f in visible_features(p, {"Blue"}, gm=False)] == ["minefield"]  # "Minefields are not hidden"
    assert [f.key for f in visible_features(p, set(), gm=True)] == ["fire_trap", "minefield"]
    p.square(Cell.parse("C3"))["revealed"].append("Blue")
    assert [f.key for f in visible_features(p, {"blue"}, gm=False)] == ["fire_trap", "minefield"]


def test_feature_view_carries_the_state(p: Battle) -> None:
    place(p, "barrier walls", "Red", "C3")
    (view,) = visible_features(p, {"Blue"}, gm=False)
    assert view.to_dict() == {
        "cell": "C3", "key": "barrier_walls", "name": "Barrier Walls", "label": "BW", "side": "Red", "hidden": False,
        "revealed_to": [], "cover_ap": 16, "triggers_left": None, "bridge_wounds_lost": None, "purchase": 1,
    }


# --- orders have a text form ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order",
    [PlaceFeature(feature="barrier walls", side="Red Army", at=Cell(2, 2), cells=(Cell(3, 2), Cell(4, 2))),
     PlaceFeature(feature="minefield", side="Red", at=Cell(0, 0)), RemoveFeature(at=Cell(5, 5)),
     SetFp(side="Red", value=4), SetFp(side="Red", adjust=-2), SetFp(side="Red")],
)
def test_feature_orders_round_trip(order: Order) -> None:
    assert Order.parse(str(order)) == order


def test_undo_restores_a_placement(p: Battle) -> None:
    before = p.to_dict()
    place(p, "barrier walls", "Red", "C3", "D3")
    p.undo()
    assert p.to_dict() == before
