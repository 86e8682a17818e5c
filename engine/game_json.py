"""Saving and restoring a game: ``Game.to_json`` and ``Game.from_json``.

The saved state is everything except chance: shuffles are derived from the seed, the deal
attempt and the restock number (see ``engine/game.py``), so a restored game shuffles exactly
as the original would. Version 1 states saved before ``pile_from`` or ``history`` existed
still load (the owners of older pile cards and the older moves are simply unknown).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from .cards import Card, format_cards, parse_cards
from .melds import Meld
from .rules import Rules
from .view import MoveKind, PublicMove, TableMeld

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
            "history": [[m.seat, m.kind, str(m.card)] for m in game.history],
        },
        separators=(",", ":"),
    )


def from_json(cls: type[Game], text: str) -> Game:
    """Restore a game saved by ``to_json``; raises ``ValueError`` on malformed text."""
    try:
        data = json.loads(text)
        if data.get("v") != 1:
            raise ValueError(f"unknown state version {data.get('v')!r}")
        game = cls(data["players"], _rules_from_json(data["rules"]), data["seed"])
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
        game.history = [_public_move(*move) for move in data.get("history", [])]
    except (KeyError, TypeError, json.JSONDecodeError) as error:
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


def _public_move(seat: int, kind: str, card: str) -> PublicMove:
    """A saved history entry; states saved before the history existed simply have none."""
    if kind not in ("turned", "took", "bought", "discarded"):
        raise ValueError(f"unknown move kind {kind!r}")
    return PublicMove(seat, cast(MoveKind, kind), Card.parse(card))
