"""Hand analysis for advice and for the computer players: how far a hand is from its contract.

Terminology:
- *slot*: one meld the contract asks for, ``(kind, size)``;
- *window*: the values a planned run would cover, ``low .. low + size - 1`` of one suit;
- *missing*: a position of a planned meld that no card of the hand fills yet;
- *deficiency*: the fewest cards the hand still has to receive (by drawing, taking or buying)
  before it can meet the contract, counting the wilds it already holds; 0 means the contract
  could go down now if the hand is big enough;
- *outs*: how many cards of the pack would fill a missing position (the copies of the natural
  not in this hand, plus the wilds); *difficulty* adds up ``1 / outs`` over what is missing, so
  a run gap (two copies in two decks) weighs about four times a set's third card;
- *spare*: a card of the hand that the plan does not use: the discard candidates.

Why an estimate and not the exact solver: a computer player asks this question for every
candidate discard, for the upcard and for every buy window, thousands of times a game. The
search here is the solver's shape (runs first, per suit and start, then sets by rank count)
but keeps only the few most promising windows per run slot and scores a plan by counting, so a
hand costs a few hundred microseconds at most, and answers are memoised on the card
multiset. It never reports 0 for a hand the solver cannot lay down; on random hands of the
standard preset it agrees with the solver whenever the solver can (tested), and elsewhere it is
a close upper bound (a 2 under ``deuces_wild`` counts as a wild in runs, never as itself).
Going down itself always uses ``solver.find_contract``, which is exact.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.cards import ACE, JOKER, SUIT_SYMBOLS, SUITS, Card, rank_text
from engine.errors import Param
from engine.melds import Meld, MeldCard
from engine.rules import Contract, Rules, SlotKind, describe_contract
from engine.solver import find_contract

#: Index of a natural card in a hand key: ``13 * suit + rank - 1``; the joker is 52.
JOKER_INDEX = 52
_INDEX: dict[Card, int] = {JOKER: JOKER_INDEX} | {
    Card.of(rank, suit): 13 * si + rank - 1
    for si, suit in enumerate(SUITS)
    for rank in range(1, 14)
}
_CARD: list[Card] = [Card.of(i % 13 + 1, SUITS[i // 13]) for i in range(52)] + [JOKER]

#: Run windows kept per run slot while searching (first, middle, last of several run slots;
#: a lone run slot keeps ``_LONE_RUN``): the best few by cards held.
_WIDTHS = [4, 2, 1]
_LONE_RUN = 8
#: Entries kept in the memo, least recently used dropped first: about 1.1 KB each, so about
#: 22 MB at most for a bot that runs for weeks, and far more than one game needs.
_CACHE_LIMIT = 20_000


def card_index(card: Card) -> int:
    """The card's index in a hand key (0-51 naturals, 52 the joker)."""
    return _INDEX[card]


def card_of_index(index: int) -> Card:
    """The card at ``index`` of a hand key (the inverse of ``card_index``)."""
    return _CARD[index]


def hand_key(hand: Iterable[Card]) -> tuple[int, ...]:
    """The multiset of a hand as a sorted tuple: the memo key of every analysis here."""
    return tuple(sorted([_INDEX[card] for card in hand]))


# -- public results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NeededCard:
    """One card still missing: any of ``options`` (naturals), or a wild when ``wild_ok``."""

    options: tuple[Card, ...]
    wild_ok: bool
    wild_name: str = "a joker"

    def __str__(self) -> str:
        if len(self.options) == 1:
            text = self.options[0].pretty()
        elif len({c.rank for c in self.options}) == 1:
            text = f"any {rank_text(self.options[0].rank)}"
        else:
            text = ", ".join(c.pretty() for c in self.options)
        return f"{text} or {self.wild_name}" if self.wild_ok else text


@dataclass(frozen=True, slots=True)
class SlotPlan:
    """How one slot of the contract would be filled: the cards used and what is missing.

    ``rank`` is the set's rank; ``suit`` and ``low`` the run's suit and lowest value.
    """

    kind: SlotKind
    size: int
    rank: int
    suit: str | None
    low: int
    cards: tuple[Card, ...]
    missing: tuple[NeededCard, ...]

    def describe(self) -> str:
        if self.kind == "set":
            return f"set of {rank_text(self.rank)}s"
        assert self.suit is not None
        high = self.low + self.size - 1
        low_text = rank_text(ACE if self.low == 14 else self.low)
        high_text = rank_text(ACE if high == 14 else high)
        return f"run {low_text}-{high_text}{SUIT_SYMBOLS[self.suit]}"


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The shortest way found from a hand to its contract."""

    deficiency: int
    difficulty: float
    slots: tuple[SlotPlan, ...]
    spare: tuple[Card, ...]

    @property
    def needed(self) -> tuple[NeededCard, ...]:
        return tuple(n for slot in self.slots for n in slot.missing)


#: Why a card is the one to throw; the bot words each code in the player's language
#: (``hint.reason.<code>``), the engine keeps only the English of ``DiscardReason.__str__``.
ReasonCode = Literal[
    "cannot_lay_off",  # down: it fits no meld on the table; params: points
    "no_meld",  # Rummy: it fits no meld or partial meld; params: points
    "loosest",  # Rummy: the loosest card outside the melds
    "lengthens_meld",  # it only lengthens a planned meld
    "no_part",  # no part of any meld being built; params: points
    "weakest_spare",  # the weakest card the plan does not use; params: points
    "least_loss",  # every card works towards the contract; this one hurts least
    "go_out",  # laying down empties the hand: nothing to discard
    "expert",  # the expert computer player's choice
    "guard_lead",  # the expert's, guarding a lead late in the game; params: points (the lead)
]

_REASON_ENGLISH: dict[str, str] = {
    "cannot_lay_off": "it cannot be laid off and costs {points} points",
    "no_meld": "it fits no meld or partial meld and costs {points} points",
    "loosest": "it is the loosest card left outside your melds",
    "lengthens_meld": "it only lengthens a meld you already have; the rest matter more",
    "no_part": "it is no part of any meld you are building and costs {points}",
    "weakest_spare": "it is the weakest spare card (worth {points} points in hand)",
    "least_loss": "every card works towards the contract; this one costs the least to lose",
    "go_out": "you go out by laying down",
    "expert": "it is the expert computer player's choice",
    "guard_lead": (
        "you lead by {points} points this late in the game: keep the points in your hand low"
    ),
}


@dataclass(frozen=True, slots=True)
class DiscardReason:
    """Why a discard is advised, free of any language: a ``code`` and its ``params``
    (numbers only), as the engine's refusals carry theirs, so the bot can word it for each
    reader. ``after_lay_down``: the advice is for the hand left once the contract is down.
    """

    code: ReasonCode
    params: Mapping[str, Param] = field(default_factory=dict)
    after_lay_down: bool = False
    #: The expert computer player, asked too, would throw the same card.
    expert_agrees: bool = False

    def __str__(self) -> str:
        """English, for the engine's own tests and logs; players read the bot's wording."""
        text = _REASON_ENGLISH[self.code].format(**self.params)
        if self.expert_agrees:
            text += ", and the expert computer player would throw it too"
        return f"after laying down, {text}" if self.after_lay_down else text


@dataclass(frozen=True, slots=True)
class Hint:
    """Advice for one hand: what it still needs, the lay-down if there is one, what to throw.

    For classic Rummy ``contract`` is empty, ``lay_down`` holds the melds the hand can lay now
    (or None) and ``needed`` the cards that would complete a new meld.
    """

    contract: Contract
    needed: tuple[NeededCard, ...]
    lay_down: tuple[Meld, ...] | None
    discard: Card | None
    reason: DiscardReason

    @property
    def cards_needed(self) -> int:
        return len(self.needed)

    def __str__(self) -> str:
        lines: list[str] = []
        if self.lay_down:
            lines.append("Lay down now: " + " | ".join(str(m) for m in self.lay_down))
        elif self.contract:
            goal = describe_contract(self.contract)
            if not self.needed:
                lines.append(f"You hold {goal}; you need more cards in hand to go down")
            else:
                wanted = "; ".join(str(n) for n in self.needed)
                lines.append(f"{len(self.needed)} card(s) from {goal}: {wanted}")
        elif self.needed:
            lines.append("Would complete a meld: " + "; ".join(str(n) for n in self.needed))
        if self.discard is not None:
            lines.append(f"Discard {self.discard.pretty()}: {self.reason}")
        return "\n".join(lines)


# -- the rules, read once ----------------------------------------------------------------------


class _Profile:
    """What the analysis asks of ``Rules`` and the table size, read once per pair."""

    __slots__ = (
        "decks",
        "deuces",
        "exact",
        "max_wilds",
        "rules",
        "separated",
        "top",
        "wild_name",
        "wilds_in_pack",
    )

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        decks, jokers = rules.pack_for(players)
        self.decks = decks
        self.deuces = rules.deuces_wild
        self.wilds_in_pack = jokers + (4 * decks if rules.deuces_wild else 0)
        self.top = 14 if rules.ace_high_allowed else 13
        self.separated = rules.same_suit_runs == "separated"
        self.exact = rules.contract_meld_size == "exact"
        self.max_wilds = tuple(max(0, rules.max_wilds(n)) for n in range(16))
        self.wild_name = "a joker or a 2" if rules.deuces_wild else "a joker"


#: One ``Rules`` object per distinct rule set ever analysed: the memo keys use its id, and since
#: these objects live as long as the process, an id there is never reused by another value.
#: Few entries: a server's tables share a handful of rule sets.
_CANONICAL: dict[Rules, Rules] = {}
#: Profiles by (id of a canonical ``Rules``, players).
_PROFILES: dict[tuple[int, int], _Profile] = {}
#: The last rules objects seen, by id, for a lookup without hashing the whole ``Rules`` (each
#: table holds its own equal copy). Bounded, so an ended table's ``Rules`` is not kept for ever
#: (a live one dropped from here costs one hash when it comes back); an entry is used only
#: while it still names the very object asked about.
_RECENT: OrderedDict[tuple[int, int], tuple[Rules, _Profile]] = OrderedDict()
_RECENT_LIMIT = 256
_PROFILE_LOCK = threading.Lock()


def _profile(rules: Rules, players: int) -> _Profile:
    key = (id(rules), players)
    recent = _RECENT.get(key)  # the hot path: no lock, no reordering (first in, first out)
    if recent is not None and recent[0] is rules:
        return recent[1]
    with _PROFILE_LOCK:
        canonical = _CANONICAL.setdefault(rules, rules)
        prof = _PROFILES.get((id(canonical), players))
        if prof is None:
            prof = _PROFILES[(id(canonical), players)] = _Profile(canonical, players)
        _RECENT[key] = (rules, prof)
        _RECENT.move_to_end(key)
        while len(_RECENT) > _RECENT_LIMIT:
            _RECENT.popitem(last=False)
        return prof


def is_wild_index(index: int, rules: Rules) -> bool:
    """Whether the card at ``index`` is a wild at this table (jokers; 2s if deuces are wild)."""
    return index == JOKER_INDEX or (rules.deuces_wild and index % 13 == 1)


# -- the search --------------------------------------------------------------------------------

# A found plan, compact: (deficiency, difficulty, runs, sets) with runs as (suit index, low
# value, length, values held, search order key) and sets as (rank, size, naturals held).
_Run = tuple[int, int, int, tuple[int, ...], tuple[int, int, int, int, int, int]]
_Set = tuple[int, int, int]
_Found = tuple[int, float, tuple[_Run, ...], tuple[_Set, ...]]

_MEMO: OrderedDict[tuple[tuple[int, ...], Contract, int, int], _Found] = OrderedDict()
#: The bot runs computer seats and Hint's expert search in worker threads that share the
#: memo: without the lock one thread's eviction can remove the entry another is moving to the
#: end (a KeyError). The search itself runs outside the lock.
_MEMO_LOCK = threading.Lock()


def _rank_of(value: int) -> int:
    return ACE if value == 14 else value


_SLOTS: dict[Contract, tuple[tuple[int, ...], tuple[int, ...]]] = {}
_WINDOWS: dict[tuple[int, int, int], tuple[tuple[int, int, int], ...]] = {}


def _slots(contract: Contract) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The contract's run sizes, longest first, and its set sizes, smallest first: read once
    per contract (a handful per rule set), not once per search."""
    found = _SLOTS.get(contract)
    if found is None:
        runs = tuple(sorted((size for kind, size in contract if kind == "run"), reverse=True))
        sets = tuple(sorted(size for kind, size in contract if kind == "set"))
        found = _SLOTS[contract] = (runs, sets)
    return found


def _windows(size: int, stretch: int, top: int) -> tuple[tuple[int, int, int], ...]:
    """Every window a run slot of ``size`` may take, as (length, low value, value mask): up to
    ``stretch`` longer than the slot, within values 1..``top``."""
    key = (size, stretch, top)
    found = _WINDOWS.get(key)
    if found is None:
        found = _WINDOWS[key] = tuple(
            (length, low, ((1 << length) - 1) << low)
            for length in range(size, min(size + stretch, top) + 1)
            for low in range(1, top - length + 2)
        )
    return found


def _search(key: tuple[int, ...], contract: Contract, prof: _Profile) -> _Found:
    """The plan with the lowest (deficiency, difficulty) among those searched."""
    counts = [[0] * 15 for _ in range(4)]
    wilds = deuces = 0
    for index in key:
        if index == JOKER_INDEX or (prof.deuces and index % 13 == 1):
            wilds += 1
            deuces += index != JOKER_INDEX
        else:
            counts[index // 13][index % 13 + 1] += 1
    rank_held = [counts[0][r] + counts[1][r] + counts[2][r] + counts[3][r] for r in range(15)]
    wild_outs = max(prof.wilds_in_pack - wilds, 0)
    run_sizes, set_sizes = _slots(contract)
    top = prof.top
    max_wilds = prof.max_wilds
    # Missing positions weigh 1 / outs; a run gap has the suit's copies, a set's card any suit.
    run_outs = prof.decks + wild_outs
    # Only runs read a suit's cards by value: a contract of sets alone skips the table.
    held_at = (
        [[row[ACE if v == 14 else v] if 1 <= v <= 14 else 0 for v in range(16)] for row in counts]
        if run_sizes
        else []
    )
    set_weight = [1.0 / max(4 * prof.decks - rank_held[r] + wild_outs, 1) for r in range(15)]

    best: list[_Found] = []
    best_score = [(1 << 30, 0.0)]

    def mask_of(row: list[int]) -> int:
        mask = 0
        for rank in range(1, 14):
            if row[rank]:
                mask |= 1 << rank
        if row[ACE] and top == 14:
            mask |= 1 << 14
        return mask

    def leaf(runs: list[_Run], rows: list[list[int]]) -> None:
        score_sets(runs, rows, 0)
        if deuces >= 2 and set_sizes:
            # Under deuces_wild a 2 is natural in a set of 2s: try spending some so.
            score_sets(runs, rows, min(deuces, set_sizes[0]))

    def score_sets(runs: list[_Run], rows: list[list[int]], natural_twos: int) -> None:
        # Sets: the ranks with the most naturals left (they are all the same size).
        sets: list[_Set] = []
        if set_sizes:
            size = set_sizes[0]
            totals = rank_held[:]
            for _, _, _, values, _ in runs:
                for v in values:
                    totals[ACE if v == 14 else v] -= 1
            totals[2] += natural_twos
            # Most naturals first; among equals the rank with more outs left.
            order = sorted([(-min(size, totals[r]), set_weight[r], r) for r in range(1, 14)])
            for (minus_have, _, rank), size in zip(order, set_sizes, strict=False):
                sets.append((rank, size, -minus_have))
            if natural_twos and all(rank != 2 for rank, _, _ in sets):
                return
        # Missing positions, hardest first, get the wilds (within each slot's limit).
        entries: list[tuple[float, int]] = []
        caps: list[int] = []
        slot = 0
        for suit, low, size, values, _ in runs:
            for v in range(low, low + size):
                if v not in values:
                    entries.append((1.0 / max(run_outs - held_at[suit][v], 1), slot))
            caps.append(max_wilds[size])
            slot += 1
        for rank, size, have in sets:
            entries.extend([(set_weight[rank], slot)] * (size - have))
            caps.append(max_wilds[size])
            slot += 1
        entries.sort(reverse=True)
        left = wilds - natural_twos
        missing = 0
        difficulty = 0.0
        for weight, where in entries:
            if left and caps[where]:
                caps[where] -= 1
                left -= 1
            else:
                missing += 1
                difficulty += weight
        score = (missing, difficulty)
        if score < best_score[0]:
            best_score[0] = score
            best[:] = [(missing, difficulty, tuple(runs), tuple(sets))]

    # A run may be planned longer than its slot when the hand has wilds to spare: 5H 7H 9H
    # and two jokers make the five-card run 5-9H (two wilds need three naturals).
    windows_of: dict[int, tuple[tuple[int, int, int], ...]] = {}
    if run_sizes:
        spare_wilds = max(0, wilds - min(max_wilds[size] for size in run_sizes))
        stretch = 0 if prof.exact else min(2 * spare_wilds, 4)
        windows_of = {size: _windows(size, stretch, top) for size in run_sizes}
    last = len(run_sizes) - 1

    def runs_from(
        level: int,
        rows: list[list[int]],
        masks: list[int],
        blocked: list[int],
        runs: list[_Run],
        miss: int,
    ) -> None:
        if level > last:
            leaf(runs, rows)
            return
        size = run_sizes[level]
        # (cards to come if the wilds went here, gaps, length, suit, low, cards held): fewest
        # cards to come, then fewest gaps, since every gap costs a wild or a card; a stretched
        # window only where its wilds are within limits.
        candidates: list[tuple[int, int, int, int, int, int]] = []
        best_have = 0
        for suit in range(4):
            mask, block = masks[suit], blocked[suit]
            for length, low, window in windows_of[size]:
                if window & block:
                    continue
                have = (mask & window).bit_count()
                if length == size:
                    if have > best_have:
                        best_have = have
                elif length - have > max_wilds[length]:
                    continue
                gaps = length - have
                short = gaps - min(gaps, max_wilds[length], wilds)
                candidates.append((short, gaps, length, suit, low, have))
        if not candidates:
            # Every window of every suit is blocked by the runs already planned: count this
            # run as wholly missing rather than lose the plan.
            runs_from(
                level + 1,
                rows,
                masks,
                blocked,
                [*runs, (0, 1, size, (), (size, size, size, 0, 1, 0))],
                miss + size,
            )
            return
        remaining = sum(run_sizes[level:]) - best_have * (last + 1 - level)
        if miss + remaining - wilds > best_score[0][0]:
            return
        candidates.sort()
        # Identical run slots are filled in one canonical order, best windows first, so that
        # the same windows are not searched in every order.
        prev = runs[-1] if runs else None
        ordered = candidates
        if prev is not None and prev[2] >= size:
            after = prev[4]
            ordered = [c for c in candidates if c >= after] or candidates[:1]
        if last == 0:
            width = _LONE_RUN
        else:
            width = _WIDTHS[0] if level == 0 else _WIDTHS[1] if level < last else _WIDTHS[2]
        cutoff = ordered[0][0] + 1
        kept = [c for c in ordered if c[0] <= cutoff][:width] or ordered[:1]
        if best_have == 0:
            kept = kept[:1]
        for candidate in kept:
            _, gaps, length, suit, low, _ = candidate
            row = rows[suit][:]
            values: list[int] = []
            for v in range(low, low + length):
                rank = ACE if v == 14 else v
                if row[rank]:
                    row[rank] -= 1
                    values.append(v)
            new_rows = [*rows[:suit], row, *rows[suit + 1 :]]
            new_masks = [*masks[:suit], mask_of(row), *masks[suit + 1 :]]
            new_blocked = blocked
            if prof.separated:
                # The run's values and one value either side stay clear of later runs.
                fence = ((1 << (length + 2)) - 1) << (low - 1)
                new_blocked = [*blocked[:suit], blocked[suit] | fence, *blocked[suit + 1 :]]
            runs_from(
                level + 1,
                new_rows,
                new_masks,
                new_blocked,
                [*runs, (suit, low, length, tuple(values), candidate)],
                miss + gaps,
            )

    if run_sizes:
        runs_from(0, counts, [mask_of(row) for row in counts], [0, 0, 0, 0], [], 0)
    else:
        leaf([], counts)
    return best[0]


def _found(key: tuple[int, ...], contract: Contract, rules: Rules, players: int) -> _Found:
    prof = _profile(rules, players)
    memo_key = (key, contract, id(prof.rules), players)  # prof.rules: the canonical object
    with _MEMO_LOCK:
        found = _MEMO.get(memo_key)
        if found is not None:
            _MEMO.move_to_end(memo_key)
            return found
    found = _search(key, contract, prof)
    with _MEMO_LOCK:
        _MEMO[memo_key] = found
        while len(_MEMO) > _CACHE_LIMIT:
            _MEMO.popitem(last=False)
    return found


def deficiency_of_key(
    key: tuple[int, ...], contract: Contract, rules: Rules, players: int = 4
) -> tuple[int, float]:
    """(deficiency, difficulty) of a hand given as ``hand_key``; the computer players' probe."""
    found = _found(key, contract, rules, players)
    return found[0], found[1]


def deficiency(hand: Iterable[Card], contract: Contract, rules: Rules, players: int = 4) -> int:
    """The fewest cards ``hand`` still needs to meet ``contract`` (0: it could go down)."""
    return _found(hand_key(hand), contract, rules, players)[0]


def plan_contract(
    hand: Sequence[Card], contract: Contract, rules: Rules, players: int = 4
) -> HandPlan:
    """The plan behind ``deficiency``: which cards fill which slot, what is missing, what is
    spare. ``players`` sets the pack size, which only changes how outs are counted.
    """
    key = hand_key(hand)
    prof = _profile(rules, players)
    missing, difficulty, runs, sets = _found(key, contract, rules, players)
    pool = Counter(key)
    wild_pool = [i for i in sorted(pool.elements()) if is_wild_index(i, rules)]
    for index in wild_pool:
        pool[index] -= 1
    slots: list[SlotPlan] = []
    gaps: list[tuple[int, int, NeededCard]] = []  # (slot, priority, need)
    for suit, low, size, values, _ in runs:
        used = []
        for v in values:
            index = 13 * suit + _rank_of(v) - 1
            pool[index] -= 1
            used.append(_CARD[index])
        for v in range(low, low + size):
            if v not in values:
                card = Card.of(_rank_of(v), SUITS[suit])
                gaps.append((len(slots), 1, NeededCard((card,), True, prof.wild_name)))
        slots.append(SlotPlan("run", size, 0, SUITS[suit], low, tuple(used), ()))
    for rank, size, have in sets:
        used = []
        if rank == 2 and rules.deuces_wild:
            twos = [i for i in wild_pool if i != JOKER_INDEX][:have]
            for index in twos:
                wild_pool.remove(index)
            used.extend(_CARD[i] for i in twos)
        for suit in range(4):
            index = 13 * suit + rank - 1
            take = min(pool[index], have - len(used))
            if take > 0:
                pool[index] -= take
                used.extend([_CARD[index]] * take)
        options = tuple(Card.of(rank, s) for s in SUITS)
        gaps.extend(
            (len(slots), 0, NeededCard(options, True, prof.wild_name)) for _ in range(size - have)
        )
        slots.append(SlotPlan("set", size, rank, None, 0, tuple(used), ()))
    # Wilds fill run gaps first (they are the hardest to draw), within each slot's limit.
    caps = [prof.max_wilds[s.size] for s in slots]
    wilds_for: list[list[Card]] = [[] for _ in slots]
    uncovered: list[list[NeededCard]] = [[] for _ in slots]
    for where, _, need in sorted(gaps, key=lambda g: -g[1]):
        if wild_pool and caps[where]:
            caps[where] -= 1
            wilds_for[where].append(_CARD[wild_pool.pop()])
        else:
            uncovered[where].append(need)
    slots = [
        SlotPlan(
            s.kind,
            s.size,
            s.rank,
            s.suit,
            s.low,
            s.cards + tuple(wilds_for[i]),
            tuple(uncovered[i]),
        )
        for i, s in enumerate(slots)
    ]
    spare = [_CARD[i] for i in sorted(pool.elements())] + [_CARD[i] for i in wild_pool]
    return HandPlan(missing, difficulty, tuple(slots), tuple(spare))


# -- classic Rummy -----------------------------------------------------------------------------


def rummy_melds(hand: Sequence[Card], rules: Rules) -> tuple[Meld, ...]:
    """The disjoint melds of ``hand`` that leave the fewest points unmelded."""
    cards = sorted(set(hand), key=Card.sort_key)
    candidates: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            candidates.append(tuple(group))
            if len(group) == 4:
                candidates.extend(tuple(g for g in group if g != skip) for skip in group)
    top = 14 if rules.ace_high_allowed else 13
    for suit in SUITS:
        values = {c.rank for c in cards if c.suit == suit}
        if ACE in values and top == 14:
            values.add(14)
        for low in range(1, top + 1):
            high = low
            while high + 1 <= top and high + 1 in values and low in values:
                high += 1
                if high - low + 1 >= rules.min_run:
                    candidates.append(
                        tuple(Card.of(_rank_of(v), suit) for v in range(low, high + 1))
                    )
    candidates = [c for c in candidates if len(set(c)) == len(c)]
    value = rules.card_value
    best: list[tuple[int, tuple[tuple[Card, ...], ...]]] = [(-1, ())]

    def search(start: int, used: frozenset[Card], chosen: tuple[tuple[Card, ...], ...]) -> None:
        score = sum(value(c) for c in used) * 100 + len(used)
        if score > best[0][0]:
            best[0] = (score, chosen)
        for i in range(start, len(candidates)):
            meld = candidates[i]
            if used.isdisjoint(meld):
                search(i + 1, used | frozenset(meld), (*chosen, meld))

    search(0, frozenset(), ())
    melds: list[Meld] = []
    for chosen_meld in best[0][1]:
        if len({c.rank for c in chosen_meld}) == 1:
            melds.append(Meld("set", tuple(MeldCard(c, c.rank, c.suit) for c in chosen_meld)))
        else:
            low = chosen_meld[0].rank
            melds.append(
                Meld("run", tuple(MeldCard(c, low + i, c.suit) for i, c in enumerate(chosen_meld)))
            )
    return tuple(melds)


def rummy_needed(hand: Sequence[Card], rules: Rules) -> tuple[NeededCard, ...]:
    """The cards that would turn a pair or a two-card run of the hand's deadwood into a meld."""
    melded = {c for m in rummy_melds(hand, rules) for c in m.plain_cards}
    rest = sorted({c for c in hand if c not in melded}, key=Card.sort_key)
    held = set(hand)
    top = 14 if rules.ace_high_allowed else 13
    needed: dict[Card, None] = {}
    for i, card in enumerate(rest):
        for other in rest[i + 1 :]:
            wanted: list[Card] = []
            if other.rank == card.rank:
                wanted = [Card.of(card.rank, s) for s in SUITS]
            elif other.suit == card.suit and card.suit is not None:
                low, high = sorted((card.rank, other.rank))
                if high - low == 1:
                    values = [low - 1, high + 1]
                elif high - low == 2:
                    values = [low + 1]
                else:
                    values = []
                wanted = [Card.of(_rank_of(v), card.suit) for v in values if 1 <= v <= top]
            needed.update((c, None) for c in wanted if c not in held)
    return tuple(NeededCard((c,), False) for c in needed)


# -- discards ----------------------------------------------------------------------------------


def card_links(card: Card, others: Sequence[Card], contract: Contract, rules: Rules) -> float:
    """How much ``card`` works with ``others`` towards melds of the contract's kinds.

    Pairs count when the contract has sets, same-suit cards two values apart or nearer when
    it has runs; a wild links with everything. Classic Rummy has both kinds.
    """
    if rules.is_wild(card):
        return 100.0
    kinds = {kind for kind, _ in contract} or {"set", "run"}
    links = 0.0
    for other in others:
        if rules.is_wild(other):
            continue
        if "set" in kinds and other.rank == card.rank:
            links += 1.0
        if "run" in kinds and other.suit == card.suit and other.rank != card.rank:
            gap = abs(other.rank - card.rank)
            if card.rank == ACE or other.rank == ACE:
                gap = min(gap, abs(_high(other.rank) - _high(card.rank)))
            if gap <= 2:
                links += 0.6 if gap == 1 else 0.4
    return links


def _high(rank: int) -> int:
    return 14 if rank == ACE else rank


def extends_plan(card: Card, plan: HandPlan) -> bool:
    """Whether ``card`` would lengthen a planned meld (a fourth 8, the next card of a run)."""
    for slot in plan.slots:
        if slot.kind == "set" and card.rank == slot.rank:
            return True
        if slot.kind == "run" and card.suit == slot.suit:
            value = card.rank
            high = slot.low + slot.size - 1
            if value == slot.low - 1 or value == high + 1 or (card.rank == ACE and high == 13):
                return True
    return False


def fits_table(card: Card, table: Iterable[Meld], rules: Rules) -> bool:
    """Whether ``card`` could be laid off on one of the table's melds now."""
    return any(meld.placements(card, rules) for meld in table)


def suggest_discard(
    hand: Sequence[Card],
    contract: Contract,
    rules: Rules,
    *,
    players: int = 4,
    table: Sequence[Meld] = (),
    down: bool = False,
    urgency: float = 0.0,
) -> tuple[Card, DiscardReason]:
    """The card to throw and why (a code the bot words; ``str()`` of it is English).

    Not down: a spare card (one the plan does not use) that links least with the rest and costs
    most; wilds are kept. Down: the costliest card that cannot be laid off. ``urgency`` (0 to
    1, how close an opponent is to going out) makes points weigh more than plans.
    """
    if not hand:
        raise ValueError("An empty hand has nothing to discard")
    value = rules.card_value
    if down or (not contract and rules.game == "shanghai"):
        stuck = [c for c in hand if not fits_table(c, table, rules)] or list(hand)
        card = max(stuck, key=lambda c: (value(c), -card_links(c, hand, contract, rules)))
        return card, DiscardReason("cannot_lay_off", {"points": value(card)})
    if rules.game == "rummy":
        melded = {c for m in rummy_melds(hand, rules) for c in m.plain_cards}
        loose = [c for c in hand if c not in melded] or list(hand)

        def rummy_score(card: Card) -> float:
            others = [c for c in hand if c is not card]
            return card_links(card, others, contract, rules) * 6 - value(card)

        card = min(loose, key=rummy_score)
        if card_links(card, [c for c in hand if c is not card], contract, rules) == 0:
            return card, DiscardReason("no_meld", {"points": value(card)})
        return card, DiscardReason("loosest")
    plan = plan_contract(hand, contract, rules, players)
    spare = [c for c in plan.spare if not rules.is_wild(c)]
    if spare:
        weight = 6.0 * (1.0 - urgency)

        def score(card: Card) -> float:
            others = list(hand)
            others.remove(card)
            links = card_links(card, others, contract, rules)
            if extends_plan(card, plan):
                links += 1.5
            return links * weight - value(card)

        card = min(spare, key=score)
        others = list(hand)
        others.remove(card)
        if extends_plan(card, plan):
            return card, DiscardReason("lengthens_meld")
        if card_links(card, others, contract, rules) == 0:
            return card, DiscardReason("no_part", {"points": value(card)})
        return card, DiscardReason("weakest_spare", {"points": value(card)})
    # Every card is in the plan: give up the one whose loss hurts least.
    key = hand_key(hand)
    options: list[tuple[tuple[int, float, int], Card]] = []
    for card in dict.fromkeys(hand):
        if rules.is_wild(card) and any(not rules.is_wild(c) for c in hand):
            continue
        smaller = list(key)
        smaller.remove(_INDEX[card])
        d, diff = deficiency_of_key(tuple(smaller), contract, rules, players)
        options.append(((d, diff, -value(card)), card))
    options.sort(key=lambda o: o[0])
    card = options[0][1]
    return card, DiscardReason("least_loss")


# -- the hint ----------------------------------------------------------------------------------


def hint(
    hand: Sequence[Card],
    deal: int,
    rules: Rules,
    *,
    players: int = 4,
    table: Sequence[Meld] = (),
) -> Hint:
    """Advice for ``hand`` in deal ``deal``: cards still needed, the lay-down, a discard.

    Shanghai: ``needed`` is the shortest way to the contract found by ``plan_contract``
    (wilds in hand already counted), ``lay_down`` what ``find_contract`` would lay now.
    Rummy (``deal`` ignored): ``lay_down`` the best melds now, ``needed`` the cards that would
    complete a meld. ``table`` (the melds on the table) only sharpens the discard advice.
    """
    if rules.game == "rummy":
        melds = rummy_melds(hand, rules)
        discard, reason = suggest_discard(hand, (), rules, players=players, table=table)
        return Hint((), rummy_needed(hand, rules), melds or None, discard, reason)
    contract = rules.contract_for(deal)
    plan = plan_contract(hand, contract, rules, players)
    found = find_contract(hand, deal, rules)
    lay_down = None if found is None else tuple(found)
    if found is not None:
        left = list(hand)
        for meld in found:
            for card in meld.plain_cards:
                left.remove(card)
        if not left:
            return Hint(contract, (), lay_down, None, DiscardReason("go_out"))
        table_after = [*table, *found]
        discard, reason = suggest_discard(
            left, contract, rules, players=players, table=table_after, down=True
        )
        after = DiscardReason(reason.code, reason.params, after_lay_down=True)
        return Hint(contract, (), lay_down, discard, after)
    discard, reason = suggest_discard(hand, contract, rules, players=players, table=table)
    return Hint(contract, plan.needed, None, discard, reason)
