"""The shuffle anyone can check: a pure function of a published seed, defined byte for byte.

Each deal has its own 32-byte seed. Its SHA-256 (the *commitment*) is public from the moment
the deal is dealt; the seeds themselves are revealed when the game ends, and then anyone can
recompute every shuffle of the deal, the first one and each rebuild of the stock, with
``hashlib`` alone (``docs/shuffle.md`` holds the algorithm and a standalone check). Python's
``random`` is not used: its algorithm is an implementation detail of CPython, so a shuffle
made with it could not be reimplemented elsewhere.

The engine keeps one 32-byte game secret and derives each deal's seed from it and the deal
attempt (a void deal's redeal is a new attempt with a new seed), so a saved game carries one
value, not a growing list. A seed reveals nothing about the secret or the other deals' seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

#: Bytes of a game secret and of a deal seed.
SEED_BYTES = 32
_DEAL_SEED_TAG = b"shanghai/deal-seed/v1"


def deal_seed(secret: bytes, attempt: int) -> bytes:
    """The seed of deal attempt ``attempt`` (0 for the first deal) of the game ``secret``."""
    return hashlib.sha256(_DEAL_SEED_TAG + secret + attempt.to_bytes(4, "big")).digest()


def commitment(seed: bytes) -> str:
    """What is published at the deal's start: the seed's SHA-256 in lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def byte_stream(seed: bytes, shuffle: int) -> Iterator[int]:
    """The bytes driving shuffle number ``shuffle`` of a deal (0: the deal, k: the k-th rebuild
    of the stock): SHA-256(seed || shuffle || block) for block 0, 1, 2, ..., each number four
    bytes big-endian, the digests concatenated."""
    prefix = seed + shuffle.to_bytes(4, "big")
    block = 0
    while True:
        yield from hashlib.sha256(prefix + block.to_bytes(4, "big")).digest()
        block += 1


def uniform_below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound): four stream bytes read big-endian, rejected at and
    above the largest multiple of ``bound`` (so no value is favoured), then reduced."""
    limit = 2**32 - (2**32 % bound)
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if value < limit:
            return value % bound


def shuffled(cards: list[T], seed: bytes, shuffle: int) -> list[T]:
    """A new list: ``cards`` in a Fisher-Yates order driven by ``byte_stream(seed, shuffle)``.

    For i from len-1 down to 1, j = uniform_below(i + 1), and items i and j swap places.
    """
    out = list(cards)
    stream = byte_stream(seed, shuffle)
    for i in range(len(out) - 1, 0, -1):
        j = uniform_below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
