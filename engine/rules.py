"""House rules as data: every option of RULES.md A1 / Part B is a field of one immutable ``Rules``.

A preset is just a ``Rules`` value; the engine asks the fields questions (``rules.buy_limit_for``)
and never compares preset names, so a table may mix any options it likes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .cards import ACE, JOKER_RANK, Card
from .errors import RulesConflict

GameKind = Literal["shanghai", "rummy"]
SlotKind = Literal["set", "run"]

#: A contract: the (kind, minimum size) of every meld it asks for, sets first.
Contract = tuple[tuple[SlotKind, int], ...]


def _contract(sets: int, set_size: int, runs: int, run_size: int) -> Contract:
    return (("set", set_size),) * sets + (("run", run_size),) * runs


CONTRACT_LISTS: dict[str, tuple[Contract, ...]] = {
    "list_000": (
        _contract(2, 3, 0, 4),
        _contract(1, 3, 1, 4),
        _contract(0, 3, 2, 4),
        _contract(3, 3, 0, 4),
        _contract(1, 3, 1, 7),
        _contract(2, 3, 1, 5),
        _contract(0, 3, 3, 4),
        _contract(1, 3, 1, 10),
        _contract(3, 3, 1, 5),
        _contract(0, 3, 3, 5),
    ),
    "list_004": (
        _contract(2, 3, 0, 4),
        _contract(1, 3, 1, 4),
        _contract(0, 3, 2, 4),
        _contract(3, 3, 0, 4),
        _contract(2, 3, 1, 4),
        _contract(1, 3, 2, 4),
        _contract(0, 3, 3, 4),
        _contract(1, 3, 1, 10),
        _contract(3, 3, 1, 5),
        _contract(0, 3, 3, 5),
    ),
}

#: Penalty value of a card by rank (0 is the joker), per score table.
SCORE_TABLES: dict[str, dict[int, int]] = {
    "table_000": {JOKER_RANK: 50, ACE: 20, 2: 20}
    | {r: 5 for r in range(3, 10)}
    | {r: 10 for r in range(10, 14)},
    "table_004": {JOKER_RANK: 50, ACE: 15, 2: 25}
    | {r: 5 for r in range(3, 10)}
    | {r: 10 for r in range(10, 14)},
}


def describe_contract(contract: Contract) -> str:
    """``"1 set of 3 + 1 run of 7"``: the words players use for a contract."""
    parts: list[str] = []
    for kind in ("set", "run"):
        sizes = [size for k, size in contract if k == kind]
        if sizes:
            noun = kind if len(sizes) == 1 else f"{kind}s"
            parts.append(f"{len(sizes)} {noun} of {sizes[0]}")
    return " + ".join(parts)


class Rules(BaseModel):
    """Every house rule of a table. Field names are the option names of RULES.md."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: GameKind = "shanghai"
    # O1: the smallest and largest table.
    players: tuple[int, int] = (2, 8)
    deck_profile: Literal["full_54", "bicycle_105_158"] = "full_54"
    deuces_wild: bool = False
    contract_list: Literal["list_000", "list_004"] = "list_000"
    buy_penalty_cards: Literal[1, 2] = 1
    buy_limit: Literal["3_then_4", "unlimited"] = "3_then_4"
    buy_priority: Literal["next_in_turn", "dealer_left"] = "next_in_turn"
    down_player_may_buy: bool = False
    down_player_blocks_buy: bool = True
    joker_limit: Literal["majority", "parity", "none"] = "majority"
    joker_identity: Literal["rank_and_suit", "rank_only"] = "rank_and_suit"
    contract_meld_size: Literal["minimum", "exact"] = "minimum"
    layoff_on_going_down_turn: bool = False
    same_suit_runs: Literal["separated", "unrestricted"] = "separated"
    same_rank_sets: bool = False
    run_ace_both_ends: bool = False
    joker_swap: Literal["down_only", "anyone_then_go_down", "off"] = "down_only"
    final_discard: Literal["optional", "required", "forbidden"] = "optional"
    blind_bonus: bool = True
    score_table: Literal["table_000", "table_004"] = "table_000"
    num_deals: int = Field(default=10, ge=1, le=10)
    first_dealer: Literal["random", "low_card"] = "random"
    #: None means unlimited restocks.
    max_restocks: int | None = Field(default=3, ge=0)
    on_exhaustion: Literal["score_all", "void_deal"] = "score_all"
    #: ``per_seat``: the stock is dealt out face down into one lane per seat (the top card to
    #: the first player, the next to the second, ...) and each seat draws from its own lane,
    #: so what a seat draws does not depend on how often the others drew. Duplicate events
    #: play it: the same seat at every table then draws the same cards. A seat whose lane is
    #: empty draws the top card of the whole stock; a rebuilt stock is laned again.
    stock_draws: Literal["shared", "per_seat"] = "shared"
    two_player_buy: Literal["in_turn_buy", "none"] = "in_turn_buy"
    tie_break: Literal["shared", "most_deals_out"] = "shared"
    # Part B (classic Rummy) options; ignored by Shanghai.
    ace_mode: Literal["low", "high_or_low"] = "low"
    win_condition: Literal["target", "fixed_hands"] = "target"
    target_points: int = Field(default=150, ge=1)
    dealer_rotation: Literal["left", "winner_deals_2p"] = "left"
    layoff_requires_own_meld: bool = False

    @model_validator(mode="after")
    def _check_players(self) -> Rules:
        low, high = self.players
        limit = 6 if self.game == "rummy" else 8
        if not 2 <= low <= high <= limit:
            raise RulesConflict(
                f"players must be a range within 2..{limit} for {self.game}, got {low}..{high}",
                code="rules.players_range",
                limit=limit,
            )
        return self

    @model_validator(mode="after")
    def _check_rummy_options(self) -> Rules:
        """Rummy ignores Shanghai's options, so a changed one would silently mean nothing
        (or, like ``deuces_wild``, leak into a game that has no wild cards): refuse it."""
        if self.game != "rummy":
            return self
        if self.final_discard == "forbidden":
            raise RulesConflict(
                "final_discard 'forbidden' is a Shanghai option: Rummy plays 'optional' or "
                "'required'",
                code="rules.shanghai_only",
                option="final_discard",
            )
        defaults = Rules.model_fields
        for name in SHANGHAI_ONLY:
            value, default = getattr(self, name), defaults[name].default
            if value != default:
                raise RulesConflict(
                    f"{name} {value!r} is a Shanghai option; Rummy plays without it "
                    f"(leave it at {default!r})",
                    code="rules.shanghai_only",
                    option=name,
                )
        return self

    # -- presets ---------------------------------------------------------------------------

    @staticmethod
    def preset(name: str) -> Rules:
        """One of ``PRESETS``; an unknown name raises ``ValueError`` listing the known ones."""
        try:
            return PRESETS[name]
        except KeyError:
            known = ", ".join(PRESETS)
            raise ValueError(f"Unknown preset {name!r}; choose one of: {known}") from None

    def with_options(self, **options: object) -> Rules:
        """A copy with some options changed, validated like a new ``Rules``."""
        return Rules.model_validate(self.model_dump() | options)

    # -- questions the engine asks ---------------------------------------------------------

    def check_player_count(self, count: int) -> None:
        """Raise ``ValueError`` unless ``count`` players may sit at this table."""
        low, high = self.players
        if not low <= count <= high:
            raise ValueError(f"This game needs {low} to {high} players, not {count}")

    def pack_for(self, players: int) -> tuple[int, int]:
        """(decks, jokers) for a table of ``players``."""
        if self.game == "rummy":
            return 1, 0
        if self.deck_profile == "bicycle_105_158":
            return (2, 1) if players <= 4 else (3, 2)
        decks = 2 if players <= 4 else 3 if players <= 6 else 4
        return decks, 2 * decks

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each player."""
        if self.game == "rummy":
            return 10 if players == 2 else 7 if players <= 4 else 6
        return 11

    def contract_for(self, deal: int) -> Contract:
        """The contract of deal ``deal`` (1-10)."""
        if not 1 <= deal <= 10:
            raise ValueError(f"Deals are numbered 1 to 10, not {deal}")
        return CONTRACT_LISTS[self.contract_list][deal - 1]

    def buy_limit_for(self, deal: int) -> int | None:
        """Buys each player may make in deal ``deal``; None means no limit (O6)."""
        if self.buy_limit == "unlimited":
            return None
        return 3 if deal <= 8 else 4

    def is_wild(self, card: Card) -> bool:
        """Jokers always; 2s when deuces are wild (a 2 may still play as natural)."""
        return card.rank == JOKER_RANK or (self.deuces_wild and card.rank == 2)

    def max_wilds(self, length: int) -> int:
        """Most wilds a meld of ``length`` cards may hold; every meld keeps one natural."""
        if self.joker_limit == "majority":
            return (length - 1) // 2
        if self.joker_limit == "parity":
            return length // 2
        return length - 1

    def card_value(self, card: Card) -> int:
        """Penalty points of a card left in hand."""
        if self.game == "rummy":
            if card.rank == ACE:
                return 15 if self.ace_mode == "high_or_low" else 1
            return min(card.rank, 10)
        return SCORE_TABLES[self.score_table][card.rank]

    @property
    def has_buying(self) -> bool:
        """Whether a discard may be bought out of turn: Shanghai's; Rummy has no buying."""
        return self.game == "shanghai"

    @property
    def min_set(self) -> int:
        return 3

    @property
    def min_run(self) -> int:
        return 3 if self.game == "rummy" else 4

    @property
    def max_set(self) -> int | None:
        """Rummy groups hold at most 4 (one deck); Shanghai sets have no maximum."""
        return 4 if self.game == "rummy" else None

    @property
    def ace_high_allowed(self) -> bool:
        return self.game == "shanghai" or self.ace_mode == "high_or_low"

    @property
    def ace_low_allowed(self) -> bool:
        return True


#: Options of Part A that classic Rummy (Part B) does not have; Rummy keeps their defaults.
SHANGHAI_ONLY: tuple[str, ...] = (
    "deck_profile",
    "deuces_wild",
    "contract_list",
    "buy_penalty_cards",
    "buy_limit",
    "buy_priority",
    "down_player_may_buy",
    "down_player_blocks_buy",
    "joker_limit",
    "joker_identity",
    "contract_meld_size",
    "layoff_on_going_down_turn",
    "same_suit_runs",
    "same_rank_sets",
    "run_ace_both_ends",
    "joker_swap",
    "blind_bonus",
    "score_table",
    "first_dealer",
    "on_exhaustion",
    "two_player_buy",
    "tie_break",
)

_STANDARD = Rules()
PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "preset_000": _STANDARD.with_options(
        players=(3, 8),
        deck_profile="bicycle_105_158",
        contract_meld_size="exact",
        final_discard="required",
        first_dealer="low_card",
        max_restocks=None,
    ),
    "preset_004": _STANDARD.with_options(
        deuces_wild=True,
        contract_list="list_004",
        buy_penalty_cards=2,
        buy_priority="dealer_left",
        down_player_blocks_buy=False,
        joker_limit="parity",
        joker_identity="rank_only",
        layoff_on_going_down_turn=True,
        joker_swap="anyone_then_go_down",
        final_discard="forbidden",
        blind_bonus=False,
        score_table="table_004",
    ),
    "rummy": _STANDARD.with_options(game="rummy", players=(2, 6), max_restocks=3),
}
