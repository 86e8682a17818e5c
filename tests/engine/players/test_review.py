"""Notes from the expert: a seat's decisions beside the expert's, from the seat's own view.

The expert reviewing its own game finds nothing to say; a weaker player gets notes, at most
three a deal, each a real difference; and the notes stay the same when everything the seat
could not see (the other hands, the hands laid open at a deal's end, the other seats' views)
is changed, while every position the expert is shown is one of the seat's own views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from engine import JOKER, Game, Rules
from engine.actions import Action, DrawStock, RequestBuy
from engine.players import review as review_module
from engine.players.determinize import sample_game
from engine.players.expert import ExpertStrategy
from engine.players.levels import make_strategy
from engine.players.review import (
    NOTES_PER_DEAL,
    PRIORITY,
    Note,
    decisions,
    review,
    review_decisions,
)
from engine.record import GameRecord, record_game
from engine.replay import ReplayStep, replay
from engine.view import PlayerView


def played(names: Sequence[str], seed: int, deals: int = 3) -> GameRecord:
    """A game of computer players as the bot's buy window runs it, recorded."""
    rules = Rules.preset("standard").with_options(num_deals=deals)
    players = [f"p{seat}" for seat in range(len(names))]
    game = Game.new(players, rules, seed, secret=random.Random(seed).randbytes(32))
    strategies = [make_strategy(name) for name in names]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(names))]
    actions: list[tuple[int, Action]] = []
    while not game.is_over:
        current = game.current
        if game.buy_window_open:
            for offset in range(1, len(names)):
                seat = (current + offset) % len(names)
                player = players[seat]
                if RequestBuy() in game.legal_actions(player) and strategies[seat].wants_buy(
                    game.view(player), rngs[seat]
                ):
                    game.apply(player, RequestBuy())
                    actions.append((seat, RequestBuy()))
        player = players[current]
        action = strategies[current].choose(
            game.view(player), game.legal_actions(player), rngs[current]
        )
        game.apply(player, action)
        actions.append((current, action))
    return record_game(game, actions)


@pytest.fixture(scope="module")
def mixed() -> GameRecord:
    return played(["easy", "expert", "random", "normal"], seed=7)


def test_the_expert_has_nothing_to_say_about_its_own_game() -> None:
    record = played(["expert", "normal", "easy", "normal"], seed=3)
    assert review(record, 0) == []


def test_a_weaker_player_gets_at_most_three_notes_a_deal(mixed: GameRecord) -> None:
    for seat in (0, 2):
        notes = review(mixed, seat)
        assert notes, f"seat {seat} played like the expert throughout"
        assert {note.seat for note in notes} == {seat}
        deals = [note.deal for note in notes]
        assert all(deals.count(deal) <= NOTES_PER_DEAL for deal in set(deals))
        assert [note.step for note in notes] == sorted(note.step for note in notes)
        for note in notes:
            assert note.played != note.expert
            assert note.kind in PRIORITY
            assert str(note.reason)  # every code has its English and all its params


def test_the_most_important_notes_are_kept(mixed: GameRecord) -> None:
    """A deal with more differences than notes keeps those of the highest priority."""
    seat = 2
    player = mixed.seats[seat]
    every: list[Note] = []
    for decision in decisions(replay(mixed), seat, player):
        every += review_decisions([decision])
    kept = review(mixed, seat)
    for deal in {note.deal for note in kept}:
        all_of_deal = [note for note in every if note.deal == deal]
        kept_of_deal = [note for note in kept if note.deal == deal]
        assert len(kept_of_deal) == min(NOTES_PER_DEAL, len(all_of_deal))
        lowest_kept = min(PRIORITY[note.kind] for note in kept_of_deal)
        dropped = [note for note in all_of_deal if note not in kept_of_deal]
        assert all(PRIORITY[note.kind] <= lowest_kept for note in dropped)


def _blurred(step: ReplayStep, seat: int, players: Sequence[str]) -> ReplayStep:
    """``step`` with everything ``seat`` could not see changed: the other seats' hands in
    their views, the hands laid open, the events and the other seats' actions."""
    views: dict[str | None, PlayerView] = {None: step.view(None)}
    for other, player in enumerate(players):
        view = step.view(player)
        if other != seat and view.hand is not None:
            view = replace(view, hand=(JOKER, *reversed(view.hand)))
        views[player] = view
    revealed = tuple((JOKER,) * (len(hand) + 1) for hand in step.revealed)
    action = step.action if step.seat == seat else (None if step.action is None else DrawStock())
    return replace(step, events=(), revealed=revealed, action=action, _views=views)


def test_the_notes_depend_only_on_what_the_seat_saw(
    mixed: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat = 0
    player = mixed.seats[seat]
    notes = review(mixed, seat)
    blurred = [_blurred(step, seat, mixed.seats) for step in replay(mixed)]
    assert review_decisions(decisions(blurred, seat, player)) == notes

    own_views = {id(step.view(player)) for step in blurred}
    shown: list[PlayerView] = []

    class Watched(ExpertStrategy):
        def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
            shown.append(view)
            return super().choose(view, legal, rng)

        def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
            shown.append(view)
            return super().wants_buy(view, rng)

    def watched_sample(view: PlayerView, rng: random.Random) -> Game:
        shown.append(view)
        return sample_game(view, rng)

    monkeypatch.setattr(review_module, "ExpertStrategy", Watched)
    monkeypatch.setattr(review_module, "sample_game", watched_sample)
    assert review_decisions(decisions(blurred, seat, player)) == notes
    assert shown and all(id(view) in own_views for view in shown)


def test_a_seat_not_at_the_game_is_refused(mixed: GameRecord) -> None:
    with pytest.raises(ValueError, match="seat 4"):
        review(mixed, 4)


def test_reviews_in_threads_side_by_side_agree(mixed: GameRecord) -> None:
    """The bot reviews off its event loop, maybe two games at once: no shared state."""
    alone = [review(mixed, seat) for seat in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda seat: review(mixed, seat), range(4)))
    assert together == alone
