"""Saving and restoring a game: ``Game.to_json`` and ``Game.from_json``.

The saved state is everything except chance: shuffles are derived from the seed, the deal
attempt and the restock number (see ``engine/game.py``), so a restored game shuffles exactly
as the original would. Version 1 states saved before ``pile_from`` or ``history`` existed
still load (the owners of older pile cards and the older moves are simply unknown).

The deal's history is saved in two lists so that it reads both ways: ``history`` holds the
pile moves (turned, took, bought, discarded) exactly as states have always held them, and
``plays``, present only when there are any, the lay-downs, lay-offs, swaps and going out,
each with its place in the whole history. A state saved before ``plays`` existed loads with
only its pile moves; an engine from before ``plays`` loads a newer state, ignoring them.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .cards import Card, format_cards, parse_cards
from .melds import Meld
from .rules import Rules
from .view import PILE_KINDS, MoveKind, PublicMove, TableMeld

if TYPE_CHECKING:
    from .game import Game


#: The one JSON style of a saved state: compact, so that a state's text is the same whichever
#: way its parts were encoded (whole, or in fragments joined here).
_COMPACT = (",", ":")


def to_json(game: Game) -> str:
    """The whole state as JSON; ``from_json`` restores a game that plays on identically.

    Saved at every commit, so the parts that do not change between two moves are not encoded
    again: the rules' text is kept per rule set, and the deal's history, which only grows
    within a deal, per game (``_HistoryText``). The text is the same as ``json.dumps`` of the
    whole state with ``_COMPACT`` separators, key for key (tested)."""
    body = json.dumps(
        {
            "players": game.players,
            "seed": game.seed,
            "deal": game.deal,
            "attempt": game.deal_attempt,
            "voids": game.void_redeals,
            "dealer": game.dealer,
            "current": game.current,
            "step": game.step,
            "hands": [format_cards(h) for h in game.hands],
            "stock": format_cards(game.stock),
            "pile": format_cards(game.pile),
            "pile_from": game.pile_from,
            "live": game.upcard_live,
            "discarder": game.discarder,
            "buys": game.buys_used,
            "requests": game.buy_requests,
            "down": game.down,
            "melds": [
                [m.owner, str(m.meld), [[seat, str(card)] for seat, card in m.laid_off]]
                for m in game.melds
            ],
            "restocks": game.restocks,
            "idle_restocks": game.idle_restocks,
            "dry": game.dry_turns,
            "went_down": game.went_down_this_turn,
            "wild_left": game.wild_left_hand,
            "taken": None if game.taken_upcard is None else str(game.taken_upcard),
            "played": game.played_this_deal,
            "played_before": game.played_before_turn,
            "sheet": game.score_sheet,
            "outs": game.deals_out,
            "blinds": game.blind_outs,
            "buys_total": game.buys_total,
            "winners": game.winner_seats,
        },
        separators=_COMPACT,
    )
    seeds = _seeds_json(game)
    tail = "," + json.dumps(seeds, separators=_COMPACT)[1:-1] if seeds else ""
    return (
        '{"v":1,"rules":'
        + _rules_text(game.rules)
        + ","
        + body[1:-1]
        + ","
        + _history_text(game)
        + tail
        + "}"
    )


def _seeds_json(game: Game) -> dict[str, Any]:
    """The game secret and any given deal seeds, in hex, and the stock's lanes (one digit a
    card); nothing for a game shuffled the older way from one shared stock, so that its state
    reads exactly as before."""
    out: dict[str, Any] = {}
    if game.secret is not None:
        out["secret"] = game.secret.hex()
    if game.given_deal_seeds is not None:
        out["deal_seeds"] = [seed.hex() for seed in game.given_deal_seeds]
    if game.stock_lanes:
        out["lanes"] = "".join(map(str, game.stock_lanes))
    return out


@dataclass(frozen=True, slots=True)
class _HistoryText:
    """A deal's moves encoded so far, one JSON array per move: ``moves`` is the very list they
    came from (a new deal, a restore and a copy each start a list of their own, and within a
    deal moves are only appended), ``count`` how many of its moves are encoded."""

    moves: list[PublicMove]
    count: int
    last: PublicMove | None
    pile: tuple[str, ...]
    plays: tuple[str, ...]

    def extends(self, history: list[PublicMove]) -> bool:
        """Whether ``history`` is these moves and perhaps more (its last known move still in
        its place: a list emptied and refilled is encoded anew)."""
        if self.moves is not history or self.count > len(history):
            return False
        return self.count == 0 or history[self.count - 1] is self.last


#: Each live game's history text; an ended or dropped game's entry goes with it.
_HISTORY_TEXT: weakref.WeakKeyDictionary[Game, _HistoryText] = weakref.WeakKeyDictionary()


def _history_text(game: Game) -> str:
    """``"history":[...]`` and, when there are any, ``"plays":[...]``: the pile moves (turned,
    took, bought, discarded) exactly as states have always held them, and the table moves
    (lay-downs, lay-offs, swaps, going out), each with its place in the whole history, so
    that a state saved before ``plays`` existed still reads as it did."""
    history = game.history
    known = _HISTORY_TEXT.get(game)
    if known is None or not known.extends(history):
        known = _HistoryText(history, 0, None, (), ())
    pile = list(known.pile)
    plays = list(known.plays)
    for index in range(known.count, len(history)):
        move = history[index]
        if move.kind in PILE_KINDS:
            pile.append(json.dumps([move.seat, move.kind, str(move.card)], separators=_COMPACT))
        else:
            plays.append(json.dumps(_play_json(index, move), separators=_COMPACT))
    last = history[-1] if history else None
    _HISTORY_TEXT[game] = _HistoryText(history, len(history), last, tuple(pile), tuple(plays))
    text = '"history":[' + ",".join(pile) + "]"
    return text + ',"plays":[' + ",".join(plays) + "]" if plays else text


def _play_json(index: int, move: PublicMove) -> list[Any]:
    return [
        index,
        move.seat,
        move.kind,
        None if move.card is None else str(move.card),
        [str(meld) for meld in move.melds],
        move.meld,
        None if move.wild is None else str(move.wild),
    ]


def from_json(cls: type[Game], text: str) -> Game:
    """Restore a game saved by ``to_json``; raises ``ValueError`` on malformed text."""
    try:
        data = json.loads(text)
        if data.get("v") != 1:
            raise ValueError(f"unknown state version {data.get('v')!r}")
        secret = data.get("secret")
        seeds = data.get("deal_seeds")
        game = cls(
            data["players"],
            _rules_from_json(data["rules"]),
            data["seed"],
            secret=None if secret is None else bytes.fromhex(secret),
            deal_seeds=None if seeds is None else [bytes.fromhex(seed) for seed in seeds],
        )
        game.deal = data["deal"]
        game.deal_attempt = data["attempt"]
        game.void_redeals = data["voids"]
        game.dealer = data["dealer"]
        game.current = data["current"]
        game.step = data["step"]
        game.hands = [parse_cards(h) for h in data["hands"]]
        game.stock = parse_cards(data["stock"])
        game.stock_lanes = [int(seat) for seat in data.get("lanes", "")]
        game.pile = parse_cards(data["pile"])
        game.pile_from = data.get("pile_from") or (
            [None] * (len(game.pile) - 1) + [data["discarder"]] if game.pile else []
        )
        game.upcard_live = data["live"]
        game.discarder = data["discarder"]
        game.buys_used = data["buys"]
        game.buy_requests = data["requests"]
        game.down = data["down"]
        game.melds = [
            TableMeld(
                entry[0],
                Meld.parse(entry[1]),
                tuple((seat, Card.parse(card)) for seat, card in entry[2:][0])
                if len(entry) > 2
                else (),
            )
            for entry in data["melds"]
        ]
        game.restocks = data["restocks"]
        game.idle_restocks = data.get("idle_restocks", 0)
        game.dry_turns = data["dry"]
        game.went_down_this_turn = data["went_down"]
        game.wild_left_hand = data["wild_left"]
        game.taken_upcard = None if data["taken"] is None else Card.parse(data["taken"])
        game.played_this_deal = data["played"]
        game.played_before_turn = data["played_before"]
        game.score_sheet = data["sheet"]
        game.deals_out = data["outs"]
        game.blind_outs = data["blinds"]
        game.buys_total = data["buys_total"]
        game.winner_seats = tuple(data["winners"])
        game.history = _history(data.get("history", []), data.get("plays", []))
    except (KeyError, TypeError, StopIteration, json.JSONDecodeError) as error:
        raise ValueError(f"Not a saved game: {error}") from error
    return game


_RULES_TEXT_CACHE: dict[Rules, str] = {}
_RULES_FROM_CACHE: dict[str, Rules] = {}


#: Options newer than saved games, written only when not at their default, so that a game
#: that does not use them saves exactly as before (and older saves, without them, load).
_NEWER_OPTIONS = {"stock_draws": "shared"}


def _rules_text(rules: Rules) -> str:
    cached = _RULES_TEXT_CACHE.get(rules)
    if cached is None:
        data = rules.model_dump(mode="json")
        for option, default in _NEWER_OPTIONS.items():
            if data[option] == default:
                del data[option]
        cached = _RULES_TEXT_CACHE[rules] = json.dumps(data, separators=_COMPACT)
    return cached


def _rules_from_json(data: dict[str, Any]) -> Rules:
    key = json.dumps(data, sort_keys=True)
    cached = _RULES_FROM_CACHE.get(key)
    if cached is None:
        cached = _RULES_FROM_CACHE[key] = Rules.model_validate(data)
    return cached


def _history(pile_moves: list[list[Any]], plays: list[list[Any]]) -> list[PublicMove]:
    """The deal's history from its two saved lists (see the module docstring): the table
    moves go back to their places, the pile moves fill the rest in order. States saved
    before the history existed simply have none."""
    pile = iter([_pile_move(*move) for move in pile_moves])
    history: list[PublicMove] = []
    for index, seat, kind, card, melds, meld, wild in plays:
        if kind not in _TABLE_KINDS or not isinstance(index, int) or index < len(history):
            raise ValueError(f"bad table move {kind!r} at {index!r}")
        while len(history) < index:
            history.append(next(pile))  # StopIteration: a table move beyond the history
        history.append(
            PublicMove(
                seat,
                cast(MoveKind, kind),
                None if card is None else Card.parse(card),
                tuple(Meld.parse(text) for text in melds),
                meld,
                None if wild is None else Card.parse(wild),
            )
        )
    history.extend(pile)
    return history


_TABLE_KINDS = frozenset(("went_down", "laid_off", "swapped", "went_out"))


#: Saved pile moves already read (moves are immutable values, so restored histories share
#: them): a long deal's history is most of a state's restore time otherwise. Bounded, since
#: there are only so many seats, kinds and cards; a state with odd entries just reads slower.
_PILE_MOVES: dict[tuple[int, str, str], PublicMove] = {}
_PILE_MOVES_MAX = 8 * 4 * 60


def _pile_move(seat: int, kind: str, card: str) -> PublicMove:
    """A saved pile move (``turned``, ``took``, ``bought`` or ``discarded``)."""
    key = (seat, kind, card)
    move = _PILE_MOVES.get(key)
    if move is None:
        if kind not in PILE_KINDS:
            raise ValueError(f"unknown move kind {kind!r}")
        move = PublicMove(seat, cast(MoveKind, kind), Card.parse(card))
        if len(_PILE_MOVES) < _PILE_MOVES_MAX:
            _PILE_MOVES[key] = move
    return move
