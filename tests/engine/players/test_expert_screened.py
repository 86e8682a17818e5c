"""The expert's screened switches (docs/computer-players.md): each is off by default, and
each, switched on, changes the decision it was built for and no other."""

from __future__ import annotations

import random

from engine import Game, Rules
from engine.players.expert import ClassicExpertStrategy, ExpertStrategy
from engine.players.strategy import NormalStrategy, cards_short
from tests.engine.positions import position

STANDARD = Rules.preset("standard")
#: Deal 10 (three runs of five): two runs of four and seven spares, fifteen cards after two
#: buys, so the hand is not short of cards; 7H lengthens 3H-6H, leaving it four cards away.
BOUGHT_HAND = "3H 4H 5H 6H 8C 9C 10C JC KS QD AD 4S 7D 9D KC"


def _late(lead: int, *, deal: int = 10, **zones: object) -> Game:
    """A position in ``deal`` whose earlier deals left p1's total ``lead`` points below each
    opponent's (negative: behind)."""
    game = position(deal=deal, discarder=0, **zones)  # type: ignore[arg-type]
    game.score_sheet = [[100, 100 - lead, 100, 100]] + [[0, 0, 0, 0]] * (deal - 2)
    return game


def test_the_switches_are_off_by_default_and_in_the_classic_expert() -> None:
    for strategy in (ExpertStrategy(), ClassicExpertStrategy()):
        assert not strategy.chase and not strategy.latent
        assert strategy.big_threat_scale == 1.0


def test_chasing_far_behind_in_the_last_deal_the_expert_buys_what_it_would_leave() -> None:
    """7H shortens the hand by one but leaves it four cards away: the normal player and the
    expert pass. Chasing, 100 points or more behind the leader in deal 10, the expert buys;
    99 behind, or in deal 9, it passes like the expert."""
    zones = {"hands": {1: BOUGHT_HAND}, "pile": "7H", "current": 2, "step": "draw"}
    view = _late(-100, **zones).view("p1")
    assert cards_short(view) == 0
    assert not NormalStrategy().wants_buy(view, random.Random(1))
    assert not ExpertStrategy().wants_buy(view, random.Random(1))
    assert ExpertStrategy(chase=True).chasing_deficit(view) == 100
    for lead, deal, buys in (
        (-100, 10, True),
        (-300, 10, True),
        (-99, 10, False),
        (-300, 9, False),
    ):
        view = _late(lead, deal=deal, **zones).view("p1")
        assert ExpertStrategy(chase=True).wants_buy(view, random.Random(1)) is buys


def test_the_latent_threat_counts_an_opponent_holding_a_big_contract_in_hand() -> None:
    """In deal 10 nobody down: the normal threat is 0. p2 holds fifteen cards (the contract
    and, after its draw, a discard): the latent threat is 0.35; with eleven cards, 0; and in
    deal 5 (a contract that fits a dealt hand) never."""
    zones = {"pile": "7H", "current": 2, "step": "draw"}
    big = _late(0, hands={1: BOUGHT_HAND, 2: BOUGHT_HAND}, **zones).view("p1")
    assert ExpertStrategy().threat(big) == 0.0
    assert ExpertStrategy(latent=True).threat(big) == 0.35
    small = _late(0, hands={1: BOUGHT_HAND}, **zones).view("p1")
    assert ExpertStrategy(latent=True).threat(small) == 0.0
    early = _late(0, deal=5, hands={1: BOUGHT_HAND, 2: BOUGHT_HAND}, **zones).view("p1")
    assert ExpertStrategy(latent=True).threat(early) == 0.0


def test_the_big_deal_threat_scale_weighs_points_less_only_in_big_deals() -> None:
    """p2 is down with two cards (threat 0.8): a king's discard cost falls with its points
    weighed 1 + 3 x 0.8. Scaled by 0.5 in deal 10 it weighs 1 + 1.5 x 0.8, so the king costs
    more to throw (its points gain less); in deal 5 the scale changes nothing."""

    def king_cost(deal: int, scale: float) -> float:
        game = _late(0, deal=deal, hands={1: BOUGHT_HAND, 2: "3C 4C"}, step="play", down=(2,))
        view = game.view("p1")
        expert = ExpertStrategy()
        expert.big_threat_scale = scale
        _, cost = expert._discard_costs(view, list(view.hand or ()))
        assert expert.point_threat == 3.0  # restored after the call
        return cost(next(c for c in view.hand or () if str(c) == "KS"))

    assert king_cost(10, 0.5) > king_cost(10, 1.0)
    assert king_cost(5, 0.5) == king_cost(5, 1.0)
