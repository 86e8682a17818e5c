"""The standalone check printed in docs/shuffle.md, run as printed, agrees with the engine:
every deal's hands, upcard and stock, and every rebuild of the stock, of real games."""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Rules
from engine.cards import format_cards
from engine.events import BuyAwarded, DealStarted, GameEnded, Restocked
from engine.players.random_play import random_step
from engine.shuffle import byte_stream, commitment, shuffled, uniform_below

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"


def doc_check() -> dict[str, Any]:
    """The namespace of the page's one ``python`` block, executed as printed."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    assert "import hashlib" in blocks[0] and "engine" not in blocks[0]
    assert len(blocks[0].splitlines()) <= 35
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return namespace


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("standard", 4, 1), ("standard", 2, 2), ("preset_004", 5, 3), ("rummy", 2, 4)],
)
def test_the_documented_check_deals_every_deal_and_rebuild_as_the_engine(
    preset: str, players: int, seed: int
) -> None:
    check = doc_check()
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    secret = rng.randbytes(32)
    game = Game.new([f"p{i}" for i in range(players)], rules, seed, secret=secret)
    decks, jokers = rules.pack_for(players)
    size = rules.hand_size_for(players)
    # Each deal as the engine dealt it: (commitment, dealer, hands, upcard, stock).
    dealt = [(game.commitment, game.dealer, [format_cards(h) for h in game.hands])]
    dealt_piles = [(game.pile[0], list(game.stock))]
    rebuilds = 0
    revealed: tuple[str, ...] = ()
    while not game.is_over:
        pile, attempt = list(game.pile), game.deal_attempt
        player, action = random_step(game, rng)
        events = game.apply(player, action)
        if any(isinstance(event, BuyAwarded) for event in events):
            pile.pop()  # the bought card leaves the pile before any rebuild the buy needs
        for event in events:
            if isinstance(event, Restocked):
                seed_bytes = game.deal_seed(attempt)
                assert seed_bytes is not None and event.commitment == commitment(seed_bytes)
                cards = pile if rules.game == "shanghai" else pile[:-1]
                expected = check["shuffle"]([str(c) for c in cards], seed_bytes, event.restocks)
                if not any(isinstance(e, DealStarted) for e in events):
                    assert [str(c) for c in game.stock] == expected[: len(game.stock)]
                rebuilds += 1
            if isinstance(event, DealStarted):
                assert event.commitment == game.commitment
                dealt.append((game.commitment, game.dealer, [format_cards(h) for h in game.hands]))
                dealt_piles.append((game.pile[0], list(game.stock)))
            if isinstance(event, GameEnded):
                revealed = event.deal_seeds
    assert revealed == game.view(None).deal_seeds == game.view("p0").deal_seeds
    assert len(revealed) == len(dealt) == game.deal_attempt + 1
    for seed_hex, (promised, dealer, hands), (upcard, stock) in zip(
        revealed, dealt, dealt_piles, strict=True
    ):
        got_hands, got_upcard, got_stock = check["deal"](
            seed_hex, promised, decks, jokers, players, dealer, size
        )
        assert [" ".join(h) for h in got_hands] == hands
        assert got_upcard == str(upcard)
        assert got_stock == [str(c) for c in stock]
    assert rebuilds > 0 or preset != "standard"


def test_the_documented_check_refuses_a_seed_that_was_not_committed() -> None:
    check = doc_check()
    seed = bytes(range(32))
    with pytest.raises(ValueError, match="committed"):
        check["deal"](seed.hex(), hashlib.sha256(b"other").hexdigest(), 2, 4, 4, 0, 11)


def test_uniform_numbers_reject_the_biased_top_of_the_range() -> None:
    # 2**32 - 1 is at or above the last multiple of 3, so it is skipped, and 7 % 3 is taken.
    stream = iter(b"\xff\xff\xff\xff\x00\x00\x00\x07")
    assert uniform_below(stream, 3) == 1
    assert next(byte_stream(b"s", 0)) == hashlib.sha256(b"s" + bytes(8)).digest()[0]


def test_the_shuffle_is_a_permutation_and_depends_on_seed_and_number() -> None:
    cards = list(range(108))
    a, b, c = (
        shuffled(cards, bytes(32), 0),
        shuffled(cards, bytes(32), 1),
        shuffled(cards, b"\1" * 32, 0),
    )
    assert sorted(a) == cards and len({tuple(a), tuple(b), tuple(c), tuple(cards)}) == 4


def test_games_without_a_secret_have_no_seeds_and_still_shuffle_as_before() -> None:
    game = Game.new(["a", "b", "c"], Rules.preset("standard"), 7)
    assert game.commitment is None and game.view(None).commitment is None
    assert "secret" not in game.to_json()
    restored = Game.from_json(game.to_json())
    assert restored.secret is None and restored.hands == game.hands


def test_a_secret_survives_a_save_and_a_bad_one_is_refused() -> None:
    secret = bytes(range(32))
    game = Game.new(["a", "b"], Rules.preset("standard"), 7, secret=secret)
    restored = Game.from_json(game.to_json())
    assert restored.secret == secret and restored.commitment == game.commitment
    with pytest.raises(ValueError, match="32 bytes"):
        Game.new(["a", "b"], Rules.preset("standard"), 7, secret=b"short")


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_documented_lanes_are_the_engines(players: int) -> None:
    check = doc_check()
    rules = Rules.preset("standard").with_options(stock_draws="per_seat")
    game = Game.new([f"p{i}" for i in range(players)], rules, 5, secret=bytes(range(32)))
    engine_lanes = [[str(card) for card in game.stock_lane(seat)] for seat in range(players)]
    stock = [str(card) for card in game.stock]
    assert check["lanes"](stock, players, game.dealer) == engine_lanes
    assert all(engine_lanes)
