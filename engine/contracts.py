"""Contracts: checking that a go-down matches this deal's contract (docs/RULES.md, The ten
contracts).

The search for an arrangement lives in ``solver.py``; this module only judges one.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ContractNotMet
from .melds import Meld
from .rules import Contract, Rules, describe_contract


def check_contract(melds: Sequence[Meld], contract: Contract, rules: Rules) -> None:
    """Raise ``IllegalMeld`` / ``ContractNotMet`` unless ``melds`` fill ``contract`` exactly."""
    for meld in melds:
        meld.check(rules)
    wanted = describe_contract(contract)
    for kind in ("set", "run"):
        sizes = [size for k, size in contract if k == kind]
        laid = [m for m in melds if m.kind == kind]
        if len(laid) != len(sizes):
            raise ContractNotMet(
                f"This deal's contract is {wanted}: you laid {len(laid)} {kind}(s), "
                f"it asks for {len(sizes)}",
                code=f"contract.{kind}_count",
                count=len(sizes),
                laid=len(laid),
            )
        for meld, size in zip(sorted(laid, key=len), sorted(sizes), strict=True):
            check_meld_size(meld, size, contract, rules)
    check_runs_separated(melds, rules)
    check_set_ranks_distinct(melds, rules)


def check_meld_size(meld: Meld, size: int, contract: Contract, rules: Rules) -> None:
    """A contract meld has at least ``size`` cards, or exactly ``size`` under
    ``contract_meld_size: exact`` (O-options; the Dutch rules' exact melds)."""
    exact = rules.contract_meld_size == "exact"
    if len(meld) < size or (exact and len(meld) != size):
        word = "exactly" if exact else "at least"
        raise ContractNotMet(
            f"Each {meld.kind} of this contract ({describe_contract(contract)}) needs {word} "
            f"{size} cards; {meld} has {len(meld)}",
            code=f"contract.meld_size_{rules.contract_meld_size}",
            kind=meld.kind,
            size=size,
        )


def check_runs_separated(melds: Sequence[Meld], rules: Rules) -> None:
    """Same-suit runs laid together leave at least one value unused between them."""
    if rules.same_suit_runs != "separated":
        return
    runs = [m for m in melds if m.kind == "run"]
    for i, first in enumerate(runs):
        for second in runs[i + 1 :]:
            if first.suit == second.suit and not (
                first.high < second.low - 1 or second.high < first.low - 1
            ):
                raise ContractNotMet(
                    f"Runs of one suit must leave a gap between them: {first} and {second} "
                    "touch or overlap",
                    code="contract.runs_touch",
                    # the cards only: "run:" is an English word
                    first=" ".join(str(card) for card in first.cards),
                    second=" ".join(str(card) for card in second.cards),
                )


def check_set_ranks_distinct(melds: Sequence[Meld], rules: Rules) -> None:
    """The sets laid together are of different ranks (a six-of-a-kind is one set)."""
    if rules.same_rank_sets:
        return
    ranks = [m.rank for m in melds if m.kind == "set"]
    if len(ranks) != len(set(ranks)):
        raise ContractNotMet(
            "Your sets must be of different ranks; make one bigger set instead",
            code="contract.sets_same_rank",
        )
