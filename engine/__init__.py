"""Shanghai Rummy (and classic Rummy) as a pure, typed rules library.

No clock, no I/O, no discord: the bot, the computer players and the tests ask it what a
player may do (``Game.legal_actions``; any other go-down is built with ``GoDownBuilder``),
apply one action at a time (``Game.apply``), and read a per-player view (``Game.view``).
"""

from .actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    RequestBuy,
    Swap,
    SwapJoker,
    TakeUpcard,
    parse_action,
)
from .builder import GoDownBuilder, meld_readings
from .cards import JOKER, Card, format_cards, parse_cards
from .errors import (
    BuyRefused,
    CardNotInHand,
    ContractNotMet,
    GameOver,
    HandSizeRule,
    IllegalAction,
    IllegalMeld,
    NotYourTurn,
    UnknownPlayer,
    WrongStep,
)
from .game import Game
from .melds import Meld, MeldCard
from .rules import PRESETS, Contract, Rules, describe_contract
from .solver import find_contract
from .view import PlayerView, PublicMove, SeatView, TableMeld

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "BuyInTurn",
    "BuyRefused",
    "CancelBuy",
    "Card",
    "CardNotInHand",
    "Contract",
    "ContractNotMet",
    "Discard",
    "DrawStock",
    "Game",
    "GameOver",
    "GoDown",
    "GoDownBuilder",
    "HandSizeRule",
    "IllegalAction",
    "IllegalMeld",
    "LayMelds",
    "LayOff",
    "LayOffItem",
    "Meld",
    "MeldCard",
    "NotYourTurn",
    "PlayerView",
    "PublicMove",
    "RequestBuy",
    "Rules",
    "SeatView",
    "Swap",
    "SwapJoker",
    "TableMeld",
    "TakeUpcard",
    "UnknownPlayer",
    "WrongStep",
    "describe_contract",
    "find_contract",
    "format_cards",
    "meld_readings",
    "parse_action",
    "parse_cards",
]
