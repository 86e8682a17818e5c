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
from typing import TYPE_CHECKING, Any, cast

from .cards import Card, format_cards, parse_cards
from .melds import Meld
from .rules import Rules
from .view import PILE_KINDS, MoveKind, PublicMove, TableMeld

if TYPE_CHECKING:
    from .game import Game


def to_json(game: Game) -> str:
    """The whole state as JSON; ``from_json`` restores a game that plays on identically."""
    return json.dumps(
        {
            "v": 1,
            "rules": _rules_json(game.rules),
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
            **_history_json(game.history),
            **_seeds_json(game),
        },
        separators=(",", ":"),
    )


def _seeds_json(game: Game) -> dict[str, Any]:
    """The game secret and any given deal seeds, in hex; nothing for a game shuffled the
    older way, so that its state reads exactly as before."""
    out: dict[str, Any] = {}
    if game.secret is not None:
        out["secret"] = game.secret.hex()
    if game.given_deal_seeds is not None:
        out["deal_seeds"] = [seed.hex() for seed in game.given_deal_seeds]
    return out


def _history_json(history: list[PublicMove]) -> dict[str, Any]:
    """``{"history": [...], "plays": [...]}``, the pile moves and the table moves (see the
    module docstring); no ``plays`` when there are none, so that such a state reads exactly
    as it did before they were kept."""
    pile = [[m.seat, m.kind, str(m.card)] for m in history if m.kind in PILE_KINDS]
    if len(pile) == len(history):
        return {"history": pile}
    plays = [
        [
            index,
            m.seat,
            m.kind,
            None if m.card is None else str(m.card),
            [str(meld) for meld in m.melds],
            m.meld,
            None if m.wild is None else str(m.wild),
        ]
        for index, m in enumerate(history)
        if m.kind not in PILE_KINDS
    ]
    return {"history": pile, "plays": plays}


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


_RULES_JSON_CACHE: dict[Rules, dict[str, Any]] = {}
_RULES_FROM_CACHE: dict[str, Rules] = {}


def _rules_json(rules: Rules) -> dict[str, Any]:
    cached = _RULES_JSON_CACHE.get(rules)
    if cached is None:
        cached = _RULES_JSON_CACHE[rules] = rules.model_dump(mode="json")
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
