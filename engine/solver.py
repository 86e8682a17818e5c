"""The contract search: can a hand meet this deal's contract, and how, leaving the fewest points?

Terminology:
- *slot*: one meld the contract asks for, ``(kind, size)``; all run slots of one contract share
  a size and every set slot is a set of 3;
- *natural*, *wild*: as in RULES.md 0.3; a 2 under ``deuces_wild`` is both: natural in a set of
  2s or at its own value and suit in a run, wild everywhere else;
- *pool*: the wild cards not placed as naturals (jokers, and spare 2s under ``deuces_wild``);
- *value*: a run position, 1 (low ace) to 14 (high ace); an *interval* ``lo..hi`` is the values
  a run covers and a *gap* is a position of it that no natural fills, so a wild must;
- *points placed*: the penalty value (``rules.card_value``) of the cards put on the table.
  Maximising it is the same as minimising the points left in hand (what a helper
  suggesting a go-down prefers), because a hand's total is fixed;
- *plan*: a found arrangement in compact form (intervals with their gaps, set ranks with
  natural and wild counts), turned into ``Meld`` values only once, for the winner.

How (PERFORMANCE.md, "The contract search"): runs first, per suit and start, extending the
interval one value at a time while counting gaps, runs in canonical (suit, start) order so that
identical run slots are not searched m! times; then the sets on what is left by a dynamic
programme over ranks (only the count of naturals per rank matters for a set). Every complete
choice of runs is scored exactly: sets are chosen by the programme, spare wilds go into sets,
and wilds still left over replace the cheapest naturals of runs that have room for them.

Exactness: the None / not-None answer is exact, and so is the points preference: a run takes
a natural wherever one is free, except that it also tries a wild there when the natural could
serve a set of its rank or a later run (the only two ways a natural can be wanted elsewhere);
intervals are tried at every length (``minimum``), including wild-only ends. Under ``minimum``
a set always takes every natural of its rank (more naturals never hurt a set), except 2s under
``deuces_wild``, whose split between the set of 2s and the pool is tried in full. The tests
hold this against a brute-force search over every valid meld of small hands.

The going-out rule is applied after the search: when the best plan leaves a hand size
that ``final_discard`` forbids (0 under ``required``, 1 under ``forbidden``), the best plan
leaving at least 1 (or 2) cards is the best plan for the hand less some 1 (or 2) cards, and
those smaller hands are searched cheapest removal first until no removal can do better.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from .cards import ACE, JOKER, SUITS, Card
from .melds import Meld, MeldCard
from .rules import Rules, SlotKind

#: Index of a card in a count vector: 0 is the joker, ``16 * suit + rank`` a natural.
_INDEX: dict[Card, int] = {JOKER: 0} | {
    Card.of(rank, suit): 16 * si + rank for si, suit in enumerate(SUITS) for rank in range(1, 14)
}
_VECTOR = 64

#: A run of a plan: suit index, lo, hi and the values its wilds stand for.
_RunPlan = tuple[int, int, int, tuple[int, ...]]
#: The sets of a plan: (rank, number of sets of that rank, naturals, wilds) per rank used.
_SetPlan = tuple[tuple[int, int, int, int], ...]
#: A plan: (points placed, cards placed, runs, sets).
_Plan = tuple[int, int, tuple[_RunPlan, ...], _SetPlan]


class _Params:
    """What the search asks of ``Rules``, read once per rules value (it is in the inner loop)."""

    __slots__ = (
        "deuce_val",
        "deuces_wild",
        "exact",
        "final_discard",
        "gaps_memo",
        "joker_val",
        "k_lim",
        "max_run",
        "max_set",
        "maxw",
        "min_nat_memo",
        "nat_val",
        "options_memo",
        "rank_only",
        "rules",
        "same_rank_sets",
        "separated",
        "shape_memo",
        "split_memo",
        "top",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: Most wilds in a meld of each length; index 0 unused.
        self.maxw = [0] + [rules.max_wilds(length) for length in range(1, 400)]
        self.deuces_wild = rules.deuces_wild
        self.exact = rules.contract_meld_size == "exact"
        self.separated = rules.same_suit_runs == "separated"
        self.same_rank_sets = rules.same_rank_sets
        self.top = 14 if rules.ace_high_allowed else 13
        self.max_run = 14 if rules.run_ace_both_ends else 13
        self.max_set = rules.max_set
        self.rank_only = rules.joker_identity == "rank_only"
        self.nat_val = [0] + [rules.card_value(Card.of(rank, "C")) for rank in range(1, 14)]
        self.joker_val = rules.card_value(JOKER)
        self.deuce_val = self.nat_val[2]
        # naturals - wilds must reach k_lim in a run (majority 1, parity 0); None: any mix
        # with one natural. Used to stop extending an interval that can never be valid.
        self.k_lim: int | None = {"majority": 1, "parity": 0}.get(rules.joker_limit)
        self.final_discard = rules.final_discard
        self.split_memo: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...] | None] = {}
        self.options_memo: dict[
            tuple[int, bool, int, int, int], tuple[tuple[int, int, int, int], ...]
        ] = {}
        self.shape_memo: dict[int, tuple[int, int, int, int]] = {}
        self.gaps_memo: dict[int, tuple[int, int, int, int]] = {}
        self.min_nat_memo: dict[int, int] = {}

    def run_gaps(self, held: int, run_size: int) -> tuple[int, int, int, int]:
        """The fewest gaps (values no natural of the suit fills) that 0, 1, 2 and 3 runs of
        ``run_size`` in one suit must have, given the values ``held`` (bit v); 99 when they
        cannot fit. Under ``separated`` runs of one suit keep a value between them; otherwise
        they may share values (another deck's copies), so k runs have k times one's gaps."""
        key = held | run_size << 16
        found = self.gaps_memo.get(key)
        if found is not None:
            return found
        top = self.top
        if held & 2 and top == 14:
            held |= 1 << 14  # an ace may play high
        window = (1 << run_size) - 1
        if not self.separated:  # two runs of a suit may share values (one deck each)
            one = min(
                (
                    run_size - ((held >> lo) & window).bit_count()
                    for lo in range(1, top - run_size + 2)
                ),
                default=99,
            )
            found = (0, one, 2 * one, 3 * one)
            self.gaps_memo[key] = found
            return found
        gaps = [
            run_size - ((held >> lo) & window).bit_count() for lo in range(1, top - run_size + 2)
        ]
        step = run_size + 1  # the next run starts a value past this one's end at the earliest
        # best[k][i]: the fewest gaps of k runs, the last one starting at window i or before.
        best = [[0] * len(gaps)]
        for _ in range(3):
            prev, row, low = best[-1], [], 99
            for i, g in enumerate(gaps):
                before = i - step
                if len(best) == 1:
                    low = min(low, g)
                elif before >= 0:
                    low = min(low, prev[before] + g)
                row.append(low)
            best.append(row)
        found = (0, best[1][-1], best[2][-1], best[3][-1]) if gaps else (0, 99, 99, 99)
        if len(self.gaps_memo) > 50_000:
            self.gaps_memo.clear()
        self.gaps_memo[key] = found
        return found

    def run_gaps_least(self, held: list[int], nruns: int, run_size: int) -> int:
        """A lower bound on the wilds that ``nruns`` runs need in a hand whose naturals of each
        suit are ``held`` (bit v per value): each run is in one suit and every gap needs a
        wild (a run longer than ``run_size`` holds a window of that size with no more gaps).
        The search cannot succeed when it exceeds the hand's wilds; it says nothing else."""
        per_suit = [self.run_gaps(mask, run_size) for mask in held]
        if nruns == 1:
            return min(gaps[1] for gaps in per_suit)
        totals = [0, 99, 99, 99]  # fewest gaps of k runs over the suits seen so far
        for gaps in per_suit:
            totals = [
                min(totals[k - j] + gaps[j] for j in range(k + 1)) for k in range(nruns + 1)
            ] + [99] * (3 - nruns)
        return totals[nruns] if nruns <= 3 else nruns * min(g[1] for g in per_suit)

    def shape(self, rules: Rules, deal: int) -> tuple[int, int, int, int]:
        """``_shape(rules, deal)``, remembered (these are the rules this object compiles)."""
        found = self.shape_memo.get(deal)
        if found is None:
            found = self.shape_memo[deal] = _shape(rules, deal)
        return found

    def min_naturals(self, set_size: int) -> int:
        """The fewest naturals a set of ``set_size`` may hold, as ``_search`` counts."""
        found = self.min_nat_memo.get(set_size)
        if found is None:
            maxw = self.maxw
            found = self.min_nat_memo[set_size] = next(
                n
                for n in range(1, set_size + 1)
                if any(w <= maxw[n + w] for w in range(max(0, set_size - n), set_size + 1))
            )
        return found

    def split(
        self, naturals: int, wilds: int, sets: int, size: int
    ) -> tuple[tuple[int, int], ...] | None:
        """Share ``naturals`` and ``wilds`` among ``sets`` valid sets of ``size`` (or more)."""
        key = (naturals, wilds, sets, size)
        if key in self.split_memo:
            return self.split_memo[key]
        found: tuple[tuple[int, int], ...] | None = None
        if sets == 0:
            found = () if naturals == 0 and wilds == 0 else None
        else:
            for n in range(1, naturals + 1):
                for w in range(0, wilds + 1):
                    length = n + w
                    if length < size or (self.exact and length != size):
                        continue
                    if w > self.maxw[length] or (
                        self.max_set is not None and length > self.max_set
                    ):
                        continue
                    rest = self.split(naturals - n, wilds - w, sets - 1, size)
                    if rest is not None:
                        found = ((n, w), *rest)
                        break
                if found is not None:
                    break
        self.split_memo[key] = found
        return found

    def set_options(
        self, count: int, deuce_rank: bool, cap: int, size: int, most: int
    ) -> tuple[tuple[int, int, int, int], ...]:
        """(sets, naturals, wilds, pool 2s used as naturals) a rank with ``count`` naturals
        may contribute, using at most ``cap`` pool cards and filling at most ``most`` slots.

        Under ``minimum`` a rank's every natural goes into its set(s): a longer set only gains
        wild room, so fewer naturals is never better (2s under ``deuces_wild`` excepted: the
        ones left out are wilds).
        """
        key = (count, deuce_rank, cap, size, most)
        cached = self.options_memo.get(key)
        if cached is not None:
            return cached
        options: list[tuple[int, int, int, int]] = []
        top_sets = most if self.same_rank_sets else min(most, 1)
        for sets in range(1, top_sets + 1):
            if self.exact:
                naturals_range = range(1, min(count, sets * size) + 1)
            elif deuce_rank:
                naturals_range = range(1, count + 1)
            else:
                naturals_range = range(count, count + 1)
            for n in naturals_range:
                d = n if deuce_rank else 0
                wild_range = (
                    range(sets * size - n, sets * size - n + 1)
                    if self.exact
                    else range(max(0, sets * size - n), cap - d + 1)
                )
                for w in wild_range:
                    if w < 0 or w + d > cap:
                        continue
                    if self.split(n, w, sets, size) is not None:
                        options.append((sets, n, w, d))
        result = tuple(options)
        self.options_memo[key] = result
        return result


_PARAMS: dict[int, tuple[Rules, _Params]] = {}


def _params(rules: Rules) -> _Params:
    """The compiled form of ``rules``, by identity (Rules objects are immutable and kept
    alive by this table, so an id is never reused while its entry exists)."""
    entry = _PARAMS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_PARAMS) > 256:
            _PARAMS.clear()
        entry = (rules, _Params(rules))
        _PARAMS[id(rules)] = entry
    return entry[1]


def _search(
    counts: list[int], p: _Params, nsets: int, set_size: int, nruns: int, run_size: int
) -> _Plan | None:
    """The plan placing the most points, or None when the contract cannot be met.

    ``counts`` is a count vector (see ``_INDEX``); it is used as scratch space and restored.
    """
    nat = counts
    jokers = nat[0]
    maxw = p.maxw
    nat_val = p.nat_val
    jv, dv = p.joker_val, p.deuce_val
    deuces_wild = p.deuces_wild
    exact = p.exact
    k_lim = p.k_lim

    rank_left = [0] * 14
    n_cards = jokers
    total_value = jokers * jv
    held = [0, 0, 0, 0]  # per suit, bit v: a natural of value v is held
    for si in range(4):
        base = 16 * si
        mask = 0
        for rank in range(1, 14):
            c = nat[base + rank]
            if c:
                rank_left[rank] += c
                n_cards += c
                total_value += c * nat_val[rank]
                mask |= 1 << rank
        held[si] = mask
    deuces = rank_left[2] if deuces_wild else 0
    pool_total = jokers + deuces

    # -- card-count checks first: most hands are answered here ----------------------------
    if n_cards < nsets * set_size + nruns * run_size:
        return None
    if nruns and p.run_gaps_least(held, nruns, run_size) > pool_total:
        return None
    naturals = n_cards - jokers
    need_set = set_size - maxw[set_size]
    need_run = run_size - maxw[run_size]
    if naturals < nsets * need_set + nruns * need_run:
        return None
    min_nat = next(
        n
        for n in range(1, set_size + 1)
        if any(w <= maxw[n + w] for w in range(max(0, set_size - n), set_size + 1))
    )
    set_cand = [False] * 14
    if nsets:
        possible = 0
        for rank in range(1, 14):
            c = rank_left[rank]
            if c >= min_nat and c + pool_total >= set_size:
                set_cand[rank] = True
                possible += c // min_nat if p.same_rank_sets else 1
        if possible < nsets:
            return None

    best_value = -1
    best: _Plan | None = None
    tables: dict[tuple[int, ...], list[tuple[int, int, int, _SetPlan]]] = {}
    no_sets: list[tuple[int, int, int, _SetPlan]] = [(0, 0, 0, ())]
    run_stack: list[_RunPlan] = []
    run_gaps: list[int] = []
    state = [0, 0, pool_total]  # gaps of placed runs, their natural points, pool left
    stop = [False]

    def sets_table(key: tuple[int, ...]) -> list[tuple[int, int, int, _SetPlan]]:
        """(wilds, pool 2s as naturals, natural points, choice) for the best sets per
        (wilds, 2s) pair, on ranks with ``key[rank]`` naturals left."""
        cap = jokers + (key[2] if deuces_wild else 0)
        states: dict[tuple[int, int, int], tuple[int, _SetPlan]] = {(0, 0, 0): (0, ())}
        for rank in range(1, 14):
            c = key[rank]
            if c < min_nat:
                continue
            options = p.set_options(c, deuces_wild and rank == 2, cap, set_size, nsets)
            if not options:
                continue
            value = nat_val[rank]
            grown = dict(states)
            for (done, w0, d0), (v0, choice) in states.items():
                for sets, n, w, d in options:
                    done2 = done + sets
                    if done2 > nsets or w0 + w + d0 + d > cap:
                        continue
                    k = (done2, w0 + w, d0 + d)
                    v = v0 + n * value
                    old = grown.get(k)
                    if old is None or v > old[0]:
                        grown[k] = (v, (*choice, (rank, sets, n, w)))
            states = grown
        return [(w, d, v, ch) for (done, w, d), (v, ch) in states.items() if done == nsets]

    def leaf() -> None:
        """Score the placed runs with the best sets and wild use on what is left."""
        nonlocal best_value, best
        gaps, run_points, pool_left = state
        if nsets:
            key = tuple(rank_left)
            table = tables.get(key)
            if table is None:
                table = tables[key] = sets_table(key)
        else:
            table = no_sets
        spare_runs: list[tuple[int, int]] | None = None
        for w, d, set_points, choice in table:
            if w + d > pool_left:
                continue
            k = gaps + w
            wilds = pool_left + gaps - d  # pool cards that may act as wilds
            value = (
                run_points
                + set_points
                + (jv * k if k <= jokers else jv * jokers + dv * (k - jokers))
            )
            extra = wilds - k
            swaps: list[tuple[int, int]] = []
            if extra > 0 and nruns:
                if spare_runs is None:
                    spare_runs = _replaceable(run_stack, run_gaps, maxw, nat_val)
                idle_jokers = max(0, jokers - k)
                for i, (points, tag) in enumerate(spare_runs):
                    if i >= extra:
                        break
                    wild_points = jv if i < idle_jokers else dv
                    if wild_points <= points:
                        break
                    value += wild_points - points
                    swaps.append((tag, points))
            if value > best_value:
                best_value = value
                placed = sum(r[2] - r[1] + 1 for r in run_stack) + sum(
                    n + wl for _, _, n, wl in choice
                )
                runs = tuple(run_stack)
                if swaps:
                    runs = _with_swaps(runs, [tag for tag, _ in swaps])
                best = (value, placed, runs, choice)
                if value == total_value:
                    stop[0] = True

    # Naturals that another slot may want: a set of their rank, or a later run of the suit
    # (aces only, when same-suit runs must stay apart: a low ace and a high ace).
    unrestricted = not p.separated
    ahead = [[0] * 16 for _ in range(4)]
    for si in range(4):
        base = 16 * si
        row = ahead[si]
        for v in range(14, 0, -1):
            row[v] = row[v + 1] + (1 if nat[base + (1 if v == 14 else v)] else 0)
    top, max_run = p.top, p.max_run
    # extend and place_run call each other (and extend itself) through this list, which is
    # emptied when the search ends: direct calls would make the closures a reference cycle,
    # left as garbage whose collection pauses some later call for milliseconds.
    links: list[Callable[..., None]] = []

    def extend(
        i: int,
        si: int,
        lo: int,
        v: int,
        gaps: int,
        nats: int,
        points: int,
        wild_at: tuple[int, ...],
    ) -> None:
        """Grow run ``i`` (suit ``si``, from ``lo``) from value ``v``; lo..v-1 are decided."""
        base = 16 * si
        row = ahead[si]
        taken: list[int] = []
        own_gaps = 0
        later = i + 1 < nruns
        while True:
            length = v - lo
            if length >= run_size:
                if gaps <= maxw[length] and nats and (not exact or length == run_size):
                    run_stack.append((si, lo, v - 1, wild_at))
                    run_gaps.append(gaps)
                    state[0] += gaps
                    state[1] += points
                    links[1](i + 1, si, lo, v - 1)
                    state[0] -= gaps
                    state[1] -= points
                    run_gaps.pop()
                    run_stack.pop()
                    if stop[0]:
                        break
                if exact:
                    break
            if v > top or length >= max_run:
                break
            rank = 1 if v == 14 else v
            idx = base + rank
            deuce = deuces_wild and rank == 2
            if nat[idx] and (not deuce or state[2] > 0):
                if state[2] > 0 and (set_cand[rank] or (later and (unrestricted or rank == ACE))):
                    state[2] -= 1
                    links[0](i, si, lo, v + 1, gaps + 1, nats, points, (*wild_at, v))
                    state[2] += 1
                    if stop[0]:
                        break
                nat[idx] -= 1
                rank_left[rank] -= 1
                if deuce:
                    state[2] -= 1
                taken.append(idx)
                nats += 1
                points += nat_val[rank]
            else:
                if state[2] <= 0:
                    break
                state[2] -= 1
                own_gaps += 1
                gaps += 1
                wild_at = (*wild_at, v)
            v += 1
            if k_lim is None:
                if nats + row[v] < 1:
                    break
            elif nats + row[v] - gaps < k_lim:
                break
        state[2] += own_gaps
        for idx in taken:
            nat[idx] += 1
            rank = idx & 15
            rank_left[rank] += 1
            if deuces_wild and rank == 2:
                state[2] += 1

    def place_run(i: int, prev_si: int, prev_lo: int, prev_hi: int) -> None:
        """Choose run ``i`` in canonical order after the run (prev_si, prev_lo..prev_hi)."""
        if i == nruns:
            leaf()
            return
        pool_left = state[2]
        need = run_size - min(maxw[run_size], pool_left)
        last_lo = top - run_size + 1
        for si in range(prev_si, 4):
            row = ahead[si]
            if row[1] < need:
                continue
            first = max(1, prev_hi + 2 if p.separated else prev_lo) if si == prev_si else 1
            for lo in range(first, last_lo + 1):
                if row[lo] < need:
                    break
                links[0](i, si, lo, lo, 0, 0, 0, ())
                if stop[0]:
                    return

    links.extend((extend, place_run))
    if nruns:
        place_run(0, 0, -1, -2)
    else:
        leaf()
    links.clear()
    return best


def _replaceable(
    runs: list[_RunPlan], gaps: list[int], maxw: list[int], nat_val: list[int]
) -> list[tuple[int, int]]:
    """(points, tag) of run naturals a spare wild may replace, cheapest first.

    A run with wild room left can trade a natural for a wild without changing its
    interval; that leaves a cheaper card in hand when the wild would otherwise stay there.
    The tag is ``16 * run index + value``.
    """
    found: list[tuple[int, int]] = []
    for index, (_, lo, hi, wild_at) in enumerate(runs):
        room = maxw[hi - lo + 1] - gaps[index]
        if room <= 0:
            continue
        mine = sorted(
            (nat_val[1 if v == 14 else v], 16 * index + v)
            for v in range(lo, hi + 1)
            if v not in wild_at
        )
        found.extend(mine[:room])
    found.sort()
    return found


def _with_swaps(runs: tuple[_RunPlan, ...], tags: list[int]) -> tuple[_RunPlan, ...]:
    """The runs with the naturals named by ``tags`` turned into wild positions."""
    fixed = list(runs)
    for tag in tags:
        index, v = divmod(tag, 16)
        si, lo, hi, wild_at = fixed[index]
        fixed[index] = (si, lo, hi, tuple(sorted((*wild_at, v))))
    return tuple(fixed)


def _build(counts: list[int], plan: _Plan, p: _Params, set_size: int) -> tuple[Meld, ...]:
    """Turn a plan into melds, drawing the cards from ``counts`` (not modified)."""
    left = list(counts)
    _, _, runs, sets = plan
    slots: list[list[MeldCard | None]] = []
    kinds: list[tuple[SlotKind, int, str | None]] = []
    for si, lo, hi, wild_at in runs:
        suit = SUITS[si]
        cards: list[MeldCard | None] = []
        for v in range(lo, hi + 1):
            if v in wild_at:
                cards.append(None)
                continue
            rank = 1 if v == 14 else v
            left[16 * si + rank] -= 1
            cards.append(MeldCard(Card.of(rank, suit), v, suit))
        slots.append(cards)
        kinds.append(("run", 0, suit))
    for rank, count, naturals, wilds in sets:
        split = p.split(naturals, wilds, count, set_size)
        assert split is not None
        for n, w in split:
            cards = []
            for si in range(4):
                while n and left[16 * si + rank] > 0:
                    left[16 * si + rank] -= 1
                    n -= 1
                    cards.append(MeldCard(Card.of(rank, SUITS[si]), rank, SUITS[si]))
            cards.extend([None] * w)
            slots.append(cards)
            kinds.append(("set", rank, None))
    # Wild slots take the most valuable pool cards: jokers, then spare 2s (deuces_wild).
    pool: list[Card] = [JOKER] * left[0]
    if p.deuces_wild:
        for si in range(4):
            pool.extend([Card.of(2, SUITS[si])] * left[16 * si + 2])
    melds: list[Meld] = []
    for (kind, rank, run_suit), cards in zip(kinds, slots, strict=True):
        placed: list[MeldCard] = []
        for index, slot in enumerate(cards):
            if slot is not None:
                placed.append(slot)
                continue
            card = pool.pop(0)
            if kind == "run":
                assert run_suit is not None
                placed.append(MeldCard(card, runs[len(melds)][1] + index, run_suit))
            elif card.rank == rank:  # a 2 in a set of 2s is a natural
                placed.append(MeldCard(card, rank, card.suit))
            else:
                placed.append(MeldCard(card, rank, None if p.rank_only else _free_suit(placed)))
        melds.append(Meld(kind, tuple(placed)))
    return tuple(melds)


def _free_suit(placed: list[MeldCard]) -> str:
    """A suit to declare for a wild in a set: the first not already shown (any is legal)."""
    shown = {c.suit for c in placed}
    return next((s for s in SUITS if s not in shown), SUITS[0])


def _shape(rules: Rules, deal: int) -> tuple[int, int, int, int]:
    """(sets, set size, runs, run size) of the deal's contract."""
    contract = rules.contract_for(deal)
    set_sizes = {size for kind, size in contract if kind == "set"}
    run_sizes = {size for kind, size in contract if kind == "run"}
    assert len(set_sizes) <= 1 and len(run_sizes) <= 1, "slots of one kind share a size"
    nsets = sum(1 for kind, _ in contract if kind == "set")
    nruns = len(contract) - nsets
    return nsets, min(set_sizes, default=3), nruns, min(run_sizes, default=4)


@lru_cache(maxsize=8192)
def _solve(
    key: tuple[int, ...], deal: int, rules: Rules, cards_left_rule: bool
) -> tuple[tuple[Meld, ...] | None, bool]:
    """``find_contract`` on a sorted tuple of card indices (the memo key), and whether the
    search itself found no arrangement (not merely none the going-out rule allows): then a
    hand with fewer cards has none either."""
    p = _params(rules)
    nsets, set_size, nruns, run_size = p.shape(rules, deal)
    counts = [0] * _VECTOR
    for index in key:
        counts[index] += 1
    plan = _search(counts, p, nsets, set_size, nruns, run_size)
    if plan is None:
        return None, True
    if cards_left_rule:
        left = len(key) - plan[1]
        must_leave = 0
        if p.final_discard == "required" and left == 0:
            must_leave = 1
        elif p.final_discard == "forbidden" and left == 1:
            # No plan places every card (it would score more), so leave 2 or more.
            must_leave = 2
        if must_leave:
            if p.exact:
                return None, False  # every plan places the same number of cards
            found = _best_leaving(counts, must_leave, p, (nsets, set_size, nruns, run_size))
            if found is None:
                return None, False
            reduced, plan = found
            return _build(reduced, plan, p, set_size), False
    return _build(counts, plan, p, set_size), False


def _best_leaving(
    counts: list[int], k: int, p: _Params, shape: tuple[int, int, int, int]
) -> tuple[list[int], _Plan] | None:
    """The best plan that leaves at least ``k`` cards in hand, with the count vector
    it was found on.

    Every such plan is a plan for the hand less some ``k`` cards it leaves, so the best is
    the best over those smaller hands; they are tried cheapest removal first, and the loop
    stops once removing more points cannot beat what was found.
    """
    value_of = [p.joker_val] + [0] * (_VECTOR - 1)
    for index in range(1, _VECTOR):
        if index & 15 and index & 15 <= 13:
            value_of[index] = p.nat_val[index & 15]
    present = [i for i in range(_VECTOR) if counts[i]]
    removals: list[tuple[int, ...]] = []
    if k == 1:
        removals = [(i,) for i in present]
    else:
        for a_pos, a in enumerate(present):
            for b in present[a_pos:]:
                if a != b or counts[a] >= 2:
                    removals.append((a, b))
    removals.sort(key=lambda r: sum(value_of[i] for i in r))
    total = sum(counts[i] * value_of[i] for i in range(_VECTOR))
    best: tuple[list[int], _Plan] | None = None
    for removal in removals:
        bound = total - sum(value_of[i] for i in removal)
        if best is not None and bound <= best[1][0]:
            break
        reduced = list(counts)
        for i in removal:
            reduced[i] -= 1
        plan = _search(list(reduced), p, *shape)
        if plan is not None and (best is None or plan[0] > best[1][0]):
            best = (reduced, plan)
    return best


def find_contract(
    hand: Sequence[Card], deal: int, rules: Rules, *, cards_left_rule: bool = True
) -> list[Meld] | None:
    """An arrangement of cards from ``hand`` that meets deal ``deal``'s contract, or None.

    Among the valid arrangements it returns one leaving the fewest penalty points in hand.
    With ``cards_left_rule`` the hand size left must also be allowed by ``final_discard``:
    a player asking "can I go down?" needs a go-down the engine will accept.
    Answers are memoised on the multiset of cards, so asking again each turn is cheap.
    """
    key = tuple(sorted([_INDEX[card] for card in hand]))
    melds = _solve(key, deal, rules, cards_left_rule)[0]
    return None if melds is None else list(melds)


class ContractMemo:
    """What one seat's searches proved, so that most of its next turn's search is skipped.

    Whether a contract can be met at all only grows with the hand (a card may always stay
    in hand), so once the hand ``key`` is known to meet no contract, a later hand that holds
    only one card more than it (this turn's draw, after last turn's discard) can meet one
    only with that card in a meld. When that card (a natural) fits no set of its rank and no
    run window through its value, even with every wild of the hand, the answer is None
    without a search. Exact: the full search still answers every other hand.
    """

    __slots__ = ("deal", "key", "rules")

    def __init__(self) -> None:
        self.deal = 0
        self.rules: Rules | None = None
        #: A sorted card-index tuple known to meet no arrangement of ``deal``'s contract.
        self.key: tuple[int, ...] | None = None


def find_contract_remembering(
    hand: Sequence[Card], deal: int, rules: Rules, memo: ContractMemo
) -> list[Meld] | None:
    """``find_contract(hand, deal, rules)``, skipping the search when ``memo`` proves the
    answer is None (see ``ContractMemo``); ``memo`` learns from every answer."""
    key = tuple(sorted([_INDEX[card] for card in hand]))
    if memo.deal != deal or memo.rules is not rules:
        memo.deal, memo.rules, memo.key = deal, rules, None
    elif memo.key is not None:
        extra = _one_more(key, memo.key)
        if extra is not None and not _may_take_part(extra, key, deal, rules):
            memo.key = key
            return None
    if _runs_out_of_reach(key, deal, rules):
        memo.key = key
        return None
    melds, none_at_all = _solve(key, deal, rules, True)
    if none_at_all:
        memo.key = key
    return None if melds is None else list(melds)


def _runs_out_of_reach(key: tuple[int, ...], deal: int, rules: Rules) -> bool:
    """``_search``'s early answer on the runs' gaps (``_Params.run_gaps_least``), asked of
    the sorted card indices straight away: most hands are answered here, without the memo
    lookup, the count vector and the search's set-up."""
    p = _params(rules)
    _, _, nruns, run_size = p.shape(rules, deal)
    if not nruns:
        return False
    held = [0, 0, 0, 0]
    pool = 0
    deuces_wild = p.deuces_wild
    for index in key:
        if index:
            rank = index & 15
            held[index >> 4] |= 1 << rank
            if deuces_wild and rank == 2:
                pool += 1
        else:
            pool += 1
    return p.run_gaps_least(held, nruns, run_size) > pool


def _one_more(key: tuple[int, ...], known: tuple[int, ...]) -> int | None:
    """The one card index ``key`` holds beyond the multiset ``known`` (both sorted), or None
    when it holds more than one or ``known`` is no subset of it plus one card."""
    extra: int | None = None
    j, m = 0, len(known)
    for index in key:
        while j < m and known[j] < index:
            j += 1  # a card of ``known`` no longer held: fine, fewer cards meet less
        if j < m and known[j] == index:
            j += 1
        elif extra is None:
            extra = index
        else:
            return None
    return extra


def _may_take_part(index: int, key: tuple[int, ...], deal: int, rules: Rules) -> bool:
    """Whether the card ``index`` could be in some meld of the contract made from ``key``:
    a necessary condition only (True is always safe), checked with every wild of the hand:
    a set of its rank needs enough naturals of that rank, and a run through its value needs a
    window of the run's size, holding it, whose missing values the wilds can fill."""
    p = _params(rules)
    rank = index & 15
    if index == 0 or (p.deuces_wild and rank == 2):
        return True  # a wild fits almost anywhere
    nsets, set_size, nruns, run_size = p.shape(rules, deal)
    pool = key.count(0)
    if p.deuces_wild:
        pool += key.count(2) + key.count(18) + key.count(34) + key.count(50)
    if nsets:
        same = key.count(rank) + key.count(16 + rank) + key.count(32 + rank) + key.count(48 + rank)
        if same >= p.min_naturals(set_size) and same + pool >= set_size:
            return True
    if nruns:
        need = run_size - pool
        if need <= 1:
            return True  # the card itself and the wilds fill any window
        base = index - rank
        held = 0  # bit v: value v of the card's suit is held (bit 14: the ace, high)
        for i in key:
            if base < i <= base + 13:
                held |= 1 << (i - base)
        top = p.top
        if held & 2 and top == 14:
            held |= 1 << 14
        window = (1 << run_size) - 1
        for value in (1, 14) if rank == ACE and top == 14 else (rank,):
            for lo in range(max(1, value - run_size + 1), min(value, top - run_size + 1) + 1):
                if ((held >> lo) & window).bit_count() >= need:
                    return True
    return False


def clear_cache() -> None:
    """Forget memoised answers (benchmarks time cold searches)."""
    _solve.cache_clear()


def cache_info() -> tuple[int, int]:
    """(hits, misses) of the memo of answers: how many searches were asked for."""
    info = _solve.cache_info()
    return info.hits, info.misses
