"""Recording what the engine answers, for the differential test (issue 28).

The engine was made faster without changing a single answer. To hold it to that, random games
are played in every preset and at every table size, and at each step everything the engine
says is folded into a running SHA-256: every seat's legal actions (in order), the events of
the action applied, the acting seat's and a spectator's view, the JSON state, and the refusal
(class, code and message) of a random probe action that is usually illegal. Every
``CHECKPOINT`` steps the digest is written down, so a mismatch names the first stretch of the
game where the answers differ.

The fixture (``fixtures/differential.json``) was recorded from the engine as it stood after
S49a and before the speed work (commit a4340c4); ``test_differential.py`` replays it.
Regenerate it only when a rule deliberately changes an answer:
``python -m tests.engine.differential --write`` (from the repository root).

Since issue 23 the deal's history also keeps the table moves (lay-downs, lay-offs, joker
swaps, going out), which the recorded engine did not have. Rather than re-record, the
recorder folds in the history *projected to the recorded engine's shape*: only the pile moves
(turned, took, bought, discarded) as ``PublicMove(seat, kind, card)``, the JSON without its
``plays`` list. Every other answer is still compared with the engine before the speed work;
the new moves themselves are held to the events by ``test_history.py``.

In the same way the rules' ``stock_draws`` option (duplicate events' lanes), which the
recorded engine did not have, is left out of the views' text while it is ``shared``, the only
value these games play (the saved state leaves it out by itself); ``test_stock_lanes.py``
holds the lanes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path

from engine import (
    Card,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    LayOff,
    LayOffItem,
    RequestBuy,
    Rules,
    SwapJoker,
    TakeUpcard,
    parse_action,
)
from engine.actions import Action, BuyInTurn, CancelBuy, Swap
from engine.cards import format_cards
from engine.players.random_play import random_step
from engine.view import PILE_KINDS, PlayerView, SeatView
from engine.view import PublicMove as NewPublicMove

FIXTURE = Path(__file__).parent / "fixtures" / "differential.json"
CHECKPOINT = 250
#: A deal cut short rather than hang a test (random play ends every deal long before this).
MAX_STEPS = 60_000

PROBE_CARDS = [Card.parse(t) for t in ("7H", "JK", "KS", "2C", "AD", "10D", "5S")]


def tables(games_per_size: int) -> list[tuple[str, int, int]]:
    """(preset, players, seed) of the recorded games: every preset, every table size."""
    found = []
    for preset in ("standard", "preset_000", "preset_004", "rummy"):
        low, high = Rules.preset(preset).players
        for players in range(low, high + 1):
            for index in range(games_per_size):
                found.append((preset, players, 1000 * players + index))
    return found


def _probe(game: Game, rng: random.Random) -> tuple[str, Action]:
    """An action chosen without regard to the rules; usually illegal."""
    card = rng.choice(PROBE_CARDS + (game.hands[game.current][:2] or PROBE_CARDS))
    meld = rng.randrange(max(1, len(game.melds)) + 1)
    options: list[Action] = [
        DrawStock(),
        TakeUpcard(),
        BuyInTurn(),
        RequestBuy(),
        CancelBuy(),
        Discard(card),
        LayOff((LayOffItem(card, meld, rng.choice(("low", "high", None))),)),
        SwapJoker(Swap(card, meld, rng.randrange(4))),
        parse_action("down set: 8H 8S 8C | set: 9H 9S JK=9C"),
        parse_action("down run: 3H 4H JK=5H 6H | run: 7S 8S 9S 10S"),
    ]
    return rng.choice(game.players), rng.choice(options)


def _refusal(game: Game, player: str, action: Action) -> str:
    """What the engine says to a probe: its refusal, or that it would be legal."""
    probe = Game.from_json(game.to_json())
    try:
        probe.apply(player, action)
    except IllegalAction as error:
        return f"{type(error).__name__}|{error.code}|{error}"
    return "legal"


@dataclass(frozen=True, slots=True)
class PublicMove:
    """A history entry as the recorded engine had it (its ``repr`` is the same)."""

    seat: int
    kind: str
    card: Card | None


def _old_history(history: tuple[NewPublicMove, ...]) -> tuple[PublicMove, ...]:
    """The history as the recorded engine kept it: its pile moves only."""
    return tuple(PublicMove(m.seat, m.kind, m.card) for m in history if m.kind in PILE_KINDS)


def _old_view_repr(view: PlayerView) -> str:
    """``repr(view)`` as the recorded engine printed it (its history projected)."""
    text = repr(replace(view, history=_old_history(view.history)))  # type: ignore[arg-type]
    return text.replace(_NEW_RULE_REPR, "")


#: The rules' option the recorded engine did not have, as its default shows in a view's repr.
_NEW_RULE_REPR = " stock_draws='shared',"


def _old_json(text: str) -> str:
    """The saved state as the recorded engine wrote it: without the table moves' list."""
    if '"plays":' not in text:
        return text
    data = json.loads(text)
    del data["plays"]
    return json.dumps(data, separators=(",", ":"))


def _view_text(view: PlayerView) -> str:
    """A view's fields as text (``repr`` of the whole view is ten times slower); its melds,
    history and score sheet are in the JSON state, and the full ``repr`` of a spectator's
    view is recorded every tenth step."""
    return " ".join(
        str(part)
        for part in (
            view.player,
            view.seat,
            view.deal,
            view.contract,
            view.dealer,
            view.current,
            view.step,
            None if view.hand is None else format_cards(view.hand),
            [_seat_tuple(s) for s in view.seats],
            view.upcard,
            view.upcard_live,
            view.discarder,
            view.stock_size,
            view.discard_size,
            view.buy_limit,
            view.my_buy_requested,
            view.taken_upcard,
            view.went_down_this_turn,
            view.is_over,
            view.winners,
            view.restocks,
            len(_old_history(view.history)),
            "|".join(str(m.meld) for m in view.melds),
        )
    )


def _seat_tuple(seat: SeatView) -> tuple[object, ...]:
    return (seat.player, seat.hand_size, seat.is_down, seat.buys_used, seat.total)


def record(
    preset: str, players: int, seed: int, max_steps: int = MAX_STEPS
) -> tuple[int, list[str]]:
    """Play one random game (at most ``max_steps`` actions); (steps, digests at every
    checkpoint and at the end)."""
    rules = Rules.preset(preset)
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    rng = random.Random(seed)
    probes = random.Random(seed + 1)
    digest = hashlib.sha256()
    checkpoints: list[str] = []
    steps = 0
    while not game.is_over and steps < max_steps:
        parts = ["|".join(map(str, game.legal_actions(p))) for p in game.players]
        if probes.random() < 0.1:
            parts.append(_refusal(game, *_probe(game, probes)))
        player, action = random_step(game, rng)
        parts.append(f"{player} {action!r}")
        parts.append(repr(game.apply(player, action)))
        parts.append(_view_text(game.view(player)))
        if steps % 10 == 0:
            parts.append(_old_view_repr(game.view(None)))
        text = game.to_json()
        parts.append(_old_json(text))
        if steps % 97 == 0:  # now and then carry on from a restored copy
            game = Game.from_json(text)
        digest.update("\n".join(parts).encode())
        steps += 1
        if steps % CHECKPOINT == 0:
            checkpoints.append(digest.hexdigest()[:16])
    checkpoints.append(digest.hexdigest()[:16])
    return steps, checkpoints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2, help="games per preset and table size")
    parser.add_argument("--write", action="store_true", help="write the fixture")
    args = parser.parse_args()
    fixture: dict[str, list[object]] = {}
    total = 0
    for preset, players, seed in tables(args.games):
        steps, checkpoints = record(preset, players, seed)
        total += steps
        fixture[f"{preset}:{players}:{seed}"] = [steps, *checkpoints]
    print(f"{len(fixture)} games, {total:,} positions")
    if args.write:
        FIXTURE.write_text(json.dumps(fixture, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
